import { describe, expect, it } from 'vitest';
import { withoutTrailingSlashes } from '../../src/text/trailing-slashes.js';
import { sampleStrings } from '../helpers/sample-strings.js';

describe('withoutTrailingSlashes', () => {
  it('drops every slash at the end, and only there', () => {
    expect(withoutTrailingSlashes('https://api.example/')).toBe('https://api.example');
    expect(withoutTrailingSlashes('https://api.example/v2///')).toBe('https://api.example/v2');
    expect(withoutTrailingSlashes('/a/b')).toBe('/a/b');
    expect(withoutTrailingSlashes('///')).toBe('');
    expect(withoutTrailingSlashes('')).toBe('');
  });

  it('leaves look-alikes of a slash (fraction slash, fullwidth solidus, backslash)', () => {
    for (const text of ['a\u2044', 'a\uff0f', 'a\\']) expect(withoutTrailingSlashes(text)).toBe(text);
  });

  it("agrees with .replace(/\\/+$/, '') on every short string at its edges", () => {
    for (const text of sampleStrings(['/', 'a', '\\', '\n', '\u2044'], 5))
      expect(withoutTrailingSlashes(text), text).toBe(text.replace(/\/+$/, ''));
  });
});
