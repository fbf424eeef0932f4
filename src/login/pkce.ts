/**
 * PKCE (RFC 7636) and the `state` value of the authorization request (RFC 6749 §10.12).
 * The verifier never leaves this process except in the code exchange; only its S256 challenge
 * goes into the authorize URL, so a code intercepted on its way back is useless to anyone else.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { s256Challenge } from '../protocol/pkce.js';

/** A PKCE verifier and its S256 challenge. */
export interface PkcePair {
  /** RFC 7636 §4.1: 43–128 characters of [A-Za-z0-9-._~]; here 32 random bytes, base64url (43). */
  verifier: string;
  /** RFC 7636 §4.2: BASE64URL(SHA256(ASCII(code_verifier))). */
  challenge: string;
  method: 'S256';
}

/** Source of randomness; tests pass a deterministic one to check known vectors. */
export type RandomBytes = (size: number) => Buffer;

/** A fresh verifier (32 random bytes, RFC 7636 §7.1 recommends at least 256 bits) and its challenge. */
export function createPkcePair(random: RandomBytes = randomBytes): PkcePair {
  const verifier = random(32).toString('base64url');
  return { verifier, challenge: s256Challenge(verifier), method: 'S256' };
}

/**
 * A fresh `state`: 32 random bytes base64url (256 bits, well above the ≥128 bits docs/contract.md §2.4
 * asks for), so a page that did not start this login cannot guess it (RFC 6749 §10.12).
 */
export function createState(random: RandomBytes = randomBytes): string {
  return random(32).toString('base64url');
}

/** Compares a received `state` with the expected one in constant time. */
export function stateMatches(expected: string, received: string | null | undefined): boolean {
  if (typeof received !== 'string') return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(received, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
