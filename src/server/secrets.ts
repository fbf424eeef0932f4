/**
 * Secret handling of the service: constant-time comparison of secrets and passwords, and the
 * random strings that become codes and tokens.
 */
import { hash, randomFillSync, timingSafeEqual } from 'node:crypto';

/** SHA-256 of a secret, computed once for each registered secret. */
export function digest(secret: string): Buffer {
  // The one-shot hash is about twice as fast as createHash().update().digest() (bench/serve.mjs).
  return hash('sha256', secret, 'buffer');
}

/**
 * Where a presented secret's digest is put for the comparison. `hash` answering a Buffer costs a
 * new ArrayBuffer per call, more than the hashing itself; answering a 'binary' (latin1) string,
 * one character per byte, and writing it here costs half as much. Always 32 bytes written at
 * offset 0, whatever the secret, so the work is the same for every comparison.
 */
const presentedDigest = Buffer.alloc(32);

/**
 * Compares a presented secret with a registered digest in constant time. Hashing first makes both
 * sides the same length, so neither the content nor the length of the secret leaks through timing.
 * A plain SHA-256 (not a slow KDF) is enough here: this is a test service whose passwords sit in
 * its configuration file, and a KDF per request would cap throughput.
 */
export function matchesDigest(presented: string, registered: Buffer): boolean {
  presentedDigest.write(hash('sha256', presented, 'binary'), 0, 'binary');
  return timingSafeEqual(presentedDigest, registered);
}

const TOKEN_BYTES = 32;
const POOL_BYTES = TOKEN_BYTES * 256;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let poolOffset = POOL_BYTES;

/**
 * A new code or token: base64url of 32 random bytes (256 bits, above the 128 bits RFC 6749 §10.10
 * asks for). Bytes come from a pool refilled by the CSPRNG, one system call per 256 tokens.
 */
export function newOpaqueToken(): string {
  if (poolOffset === POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const token = pool.toString('base64url', poolOffset, poolOffset + TOKEN_BYTES);
  // Used bytes are overwritten so no token stays readable in the pool after it is handed out.
  pool.fill(0, poolOffset, poolOffset + TOKEN_BYTES);
  poolOffset += TOKEN_BYTES;
  return token;
}
