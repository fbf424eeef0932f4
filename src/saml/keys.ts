/**
 * PEM keys and certificates for signing and verifying. Everything is normalised through
 * node:crypto so that a malformed or mismatched key is reported plainly, and so that what reaches
 * xml-crypto is always of the expected kind: a private key only on the signing side, a bare public
 * key on the verifying side (a private key registered by mistake is refused, never used).
 */

import { createPrivateKey, createPublicKey, type KeyObject, X509Certificate } from 'node:crypto';
import type { ErrorReason } from '../errors.js';

/** A key or certificate the caller supplied is unusable; callers map it to their own error. */
export class KeyInputError extends Error {
  readonly hint: string | undefined;
  /** For hints that name the caller's own flags (the CLI's table words them, src/cli/output/error-hints.ts). */
  readonly reason: ErrorReason | undefined;
  constructor(message: string, hint?: string, reason?: ErrorReason) {
    super(message);
    this.name = 'KeyInputError';
    this.hint = hint;
    this.reason = reason;
  }
}

const RSA_TYPES = new Set(['rsa', 'rsa-pss']);

function requireRsa(key: KeyObject, what: string): void {
  if (!RSA_TYPES.has(key.asymmetricKeyType ?? '')) {
    throw new KeyInputError(
      `${what} is a ${key.asymmetricKeyType ?? 'non-asymmetric'} key; an RSA key is required (RSA-SHA256)`,
      'generate one with: openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -subj /CN=idp',
    );
  }
}

/**
 * Reads an unencrypted RSA private key from PEM text and returns it as PKCS#8 PEM.
 *
 * @throws KeyInputError when the text is no private key, is encrypted, or is not RSA
 */
export function signingKeyFromPem(pem: string): { key: KeyObject; pkcs8Pem: string } {
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) {
    throw new KeyInputError(
      'the signing key is not a PEM private key',
      'pass a file that starts with -----BEGIN PRIVATE KEY----- (or RSA PRIVATE KEY)',
    );
  }
  let key: KeyObject;
  try {
    // An empty passphrase makes an encrypted key fail here instead of prompting on the terminal.
    key = createPrivateKey({ key: pem, format: 'pem', passphrase: '' });
  } catch {
    throw new KeyInputError(
      /ENCRYPTED/.test(pem) ? 'the signing key is encrypted' : 'the signing key could not be read',
      /ENCRYPTED/.test(pem)
        ? 'decrypt it first: openssl pkey -in key.pem -out key-plain.pem'
        : 'check that the file holds one PEM private key',
    );
  }
  requireRsa(key, 'the signing key');
  return { key, pkcs8Pem: key.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

/**
 * Checks a certificate to publish in KeyInfo: one PEM certificate, no private key in the text,
 * and its public key matching the signing key. Returns the certificate PEM as given.
 *
 * @throws KeyInputError naming the problem
 */
export function publishableCertificate(certificatePem: string, signingKey: KeyObject): string {
  if (/PRIVATE KEY/.test(certificatePem)) {
    // Never let key material end up in KeyInfo, whatever file was passed.
    throw new KeyInputError(
      'the certificate file contains a private key',
      undefined,
      'sign_cert_has_private_key',
    );
  }
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certificatePem);
  } catch {
    throw new KeyInputError(
      'the certificate is not a PEM X.509 certificate',
      'pass a file that starts with -----BEGIN CERTIFICATE-----',
    );
  }
  if (!certificate.checkPrivateKey(signingKey)) {
    throw new KeyInputError(
      'the certificate does not match the signing key',
      undefined,
      'sign_cert_mismatch',
    );
  }
  return certificatePem;
}

/**
 * The registered verification key as SPKI PEM, from a CERTIFICATE or PUBLIC KEY PEM.
 *
 * @throws KeyInputError for anything else (including a private key)
 */
export function verificationKeyFromPem(pem: string): string {
  if (/PRIVATE KEY/.test(pem)) {
    throw new KeyInputError('the registered key is a private key; register the certificate or public key');
  }
  let key: KeyObject;
  try {
    key = /-----BEGIN CERTIFICATE-----/.test(pem)
      ? new X509Certificate(pem).publicKey
      : createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw new KeyInputError('the registered certificate or public key is not valid PEM');
  }
  requireRsa(key, 'the registered key');
  return key.export({ type: 'spki', format: 'pem' }).toString();
}
