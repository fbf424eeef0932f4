import { describe, expect, it } from 'vitest';
import { isAsciiDigits } from '../../src/text/ascii-digits.js';
import { sampleStrings } from '../helpers/sample-strings.js';

describe('isAsciiDigits', () => {
  it('is one or more of 0-9', () => {
    expect(isAsciiDigits('0')).toBe(true);
    expect(isAsciiDigits('0060')).toBe(true);
    expect(isAsciiDigits('')).toBe(false);
    expect(isAsciiDigits(' 60')).toBe(false);
    expect(isAsciiDigits('60\n')).toBe(false);
    expect(isAsciiDigits('-1')).toBe(false);
    expect(isAsciiDigits('1e3')).toBe(false);
  });

  it('takes no other script’s digits (Arabic-Indic, fullwidth, superscript)', () => {
    for (const text of ['٣٠٠', '３００', '³', '1٠']) expect(isAsciiDigits(text)).toBe(false);
  });

  it('agrees with /^\\d+$/ (no u flag) on every short string at its edges', () => {
    const alphabet = ['0', '9', '/', ':', 'a', ' ', '\n', '٣', '３', '-'];
    for (const text of sampleStrings(alphabet, 4)) expect(isAsciiDigits(text), text).toBe(/^\d+$/.test(text));
  });
});
