import { describe, expect, test } from 'vitest';
import { createPkcePair, createState, stateMatches } from '../../src/login/pkce.js';
import { s256Challenge } from '../../src/protocol/pkce.js';

// RFC 7636 Appendix B: the 32 octets, the verifier they give, and its S256 challenge.
const RFC_OCTETS = Buffer.from([
  116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214, 191,
  240, 91, 88, 5, 88, 83, 132, 141, 121,
]);

describe('PKCE (RFC 7636)', () => {
  test('reproduces the Appendix B example from its random octets', () => {
    const pair = createPkcePair(() => RFC_OCTETS);
    expect(pair).toEqual({
      verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      method: 'S256',
    });
  });

  test('a fresh verifier is 43 unreserved characters and differs each time', () => {
    const a = createPkcePair();
    const b = createPkcePair();
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.verifier).not.toBe(b.verifier);
    expect(a.challenge).toBe(s256Challenge(a.verifier));
  });
});

describe('state', () => {
  test('carries 256 random bits, base64url', () => {
    const state = createState();
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(state, 'base64url')).toHaveLength(32);
    expect(createState()).not.toBe(state);
  });

  test('matches only the identical string', () => {
    const state = createState();
    expect(stateMatches(state, state)).toBe(true);
    expect(stateMatches(state, `${state}x`)).toBe(false);
    expect(stateMatches(state, state.slice(1))).toBe(false);
    expect(stateMatches(state, '')).toBe(false);
    expect(stateMatches(state, null)).toBe(false);
    expect(stateMatches(state, undefined)).toBe(false);
  });
});
