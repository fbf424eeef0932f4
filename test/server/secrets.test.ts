import { describe, expect, test } from 'vitest';
import { digest, matchesDigest, newOpaqueToken } from '../../src/server/secrets.js';

describe('matchesDigest', () => {
  const registered = digest('demo-secret');

  test('accepts the registered secret, again and again between refusals', () => {
    expect(matchesDigest('demo-secret', registered)).toBe(true);
    expect(matchesDigest('demo-secreT', registered)).toBe(false);
    expect(matchesDigest('demo-secret', registered)).toBe(true);
  });

  test('refuses a prefix, an extension, the empty string and another case', () => {
    for (const presented of ['demo-secre', 'demo-secret ', 'demo-secretdemo-secret', '', 'DEMO-SECRET']) {
      expect(matchesDigest(presented, registered)).toBe(false);
    }
  });

  test('compares non-ASCII secrets by their UTF-8 bytes', () => {
    const unicode = digest('pässwörd ✓ \u{1F511}');
    expect(matchesDigest('pässwörd ✓ \u{1F511}', unicode)).toBe(true);
    expect(matchesDigest('passwörd ✓ \u{1F511}', unicode)).toBe(false);
    // Latin-1 look-alike bytes: 'ä' as one byte would be 0xE4, as UTF-8 it is 0xC3 0xA4.
    expect(matchesDigest('p\u00c3\u00a4', digest('pä'))).toBe(false);
  });

  test('accepts a secret of any length', () => {
    const long = 'x'.repeat(100_000);
    expect(matchesDigest(long, digest(long))).toBe(true);
    expect(matchesDigest(`${long}y`, digest(long))).toBe(false);
  });
});

describe('newOpaqueToken', () => {
  test('is base64url of 32 bytes, which JSON needs no escape for (grants/answer-json.ts)', () => {
    const tokens = new Set<string>();
    for (let i = 0; i < 600; i++) {
      const token = newOpaqueToken();
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(JSON.stringify(token)).toBe(`"${token}"`);
      tokens.add(token);
    }
    expect(tokens.size).toBe(600);
  });
});
