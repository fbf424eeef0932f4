import { describe, expect, test } from 'vitest';
import { sanitizeText } from '../../src/text/sanitize.js';

describe('sanitizeText', () => {
  test.each([
    ['7-bit CSI', '\u001b[31mred\u001b[0m', 'red'],
    ['8-bit CSI (U+009B) with its parameters', 'a\u009b31mred\u009b0m', 'ared'],
    ['OSC title', '\u001b]0;owned\u0007text', 'text'],
    ['bare controls', 'a\u0000b\u0085c', 'a b c'],
  ])('removes a whole %s', (_name, input, expected) => {
    expect(sanitizeText(input)).toBe(expected);
  });

  test('keeps tabs and ordinary text', () => {
    expect(sanitizeText('a\tb jörg@example.com')).toBe('a\tb jörg@example.com');
  });
});
