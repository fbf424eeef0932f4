/** PKCE (RFC 7636), S256 only: `plain` gives no protection against a stolen code. */
import { createHash, timingSafeEqual } from 'node:crypto';

/** An S256 challenge is base64url of a SHA-256 digest: exactly 43 characters (RFC 7636 §4.2). */
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** RFC 7636 §4.1: 43–128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~". */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** RFC 7636 §4.2 S256 transform: BASE64URL(SHA256(ASCII(code_verifier))). */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function isWellFormedVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

/** Whether S256(verifier) equals the challenge (RFC 7636 §4.6), in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(s256Challenge(verifier));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
