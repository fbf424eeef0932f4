/**
 * Keys, certificates and documents for the SAML tests: RSA pairs from node:crypto, certificates
 * from the openssl CLI (tests needing one skip with a reason where it is absent), and a raw
 * xml-crypto signer for the signatures our own signer refuses to make (rsa-sha1, odd transforms).
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, expect } from 'vitest';
import { SignedXml } from 'xml-crypto';
import { buildAssertion } from '../../src/saml/build-assertion.js';
import { ALG, NS } from '../../src/saml/constants.js';
import { SamlVerificationError } from '../../src/saml/errors.js';
import { ReplayCache } from '../../src/saml/replay-cache.js';
import { type VerifySamlBearerOptions, verifySamlBearer } from '../../src/saml/verify.js';
import { opensslMissing, selfSignedCertificate } from './openssl.js';

export interface KeyPair {
  privateKeyPem: string;
  publicKeyPem: string;
}

export function rsaKeyPair(bits = 2048): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** The identity provider's RSA key pair for every test of a file, made before the first. */
export function keyPairForFile(): KeyPair {
  const pair: KeyPair = { privateKeyPem: '', publicKeyPem: '' };
  beforeAll(() => {
    Object.assign(pair, rsaKeyPair());
  });
  return pair;
}

export interface CertifiedKey {
  privateKeyPem: string;
  certificatePem: string;
}

export { opensslMissing };

/** A self-signed certificate and its key, made by `openssl req -x509` in a temporary directory. */
export function opensslCertificate(cn = 'idp'): CertifiedKey {
  const { keyFile, certFile } = selfSignedCertificate(`/CN=${cn}`);
  return { privateKeyPem: readFileSync(keyFile, 'utf8'), certificatePem: readFileSync(certFile, 'utf8') };
}

export const ISSUER = 'https://idp.example';
export const AUDIENCE = 'http://127.0.0.1:8080';
export const USER = 'demo@example.com';
/** The tests' clock: fixed, so time checks do not depend on when they run. */
export const NOW = new Date('2030-01-02T03:04:05Z');

export function assertionXml(overrides: Partial<Parameters<typeof buildAssertion>[0]> = {}): string {
  return buildAssertion({ email: USER, issuer: ISSUER, audience: AUDIENCE, now: NOW, ...overrides });
}

export function b64(xml: string): string {
  return Buffer.from(xml, 'utf8').toString('base64');
}

export function fromB64(value: string): string {
  return Buffer.from(value, 'base64').toString('utf8');
}

/** Wraps an assertion (signed or not) in a samlp:Response with a Success status. */
export function responseXml(assertion: string, id = '_response1'): string {
  const bare = assertion.replace(/^<\?xml[^>]*\?>/, '');
  return (
    `<samlp:Response xmlns:samlp="${NS.protocol}" xmlns:saml="${NS.assertion}" ID="${id}" Version="2.0" ` +
    `IssueInstant="${NOW.toISOString()}"><saml:Issuer>${ISSUER}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `${bare}</samlp:Response>`
  );
}

export interface RawSignOptions {
  privateKeyPem: string;
  certificatePem?: string;
  signatureAlgorithm?: string;
  digestAlgorithm?: string;
  transforms?: string[];
  canonicalizationAlgorithm?: string;
  /** XPath of the signed element; default the assertion. */
  xpath?: string;
  /** XPath of the element the signature goes after; default the assertion's Issuer. */
  after?: string;
}

export const ASSERTION_XPATH = `//*[local-name(.)='Assertion' and namespace-uri(.)='${NS.assertion}']`;

/** Signs with xml-crypto directly, with whatever algorithms a test needs. */
export function rawSign(xml: string, options: RawSignOptions): string {
  const signer = new SignedXml({
    privateKey: options.privateKeyPem,
    publicCert: options.certificatePem,
    signatureAlgorithm: options.signatureAlgorithm ?? ALG.rsaSha256,
    canonicalizationAlgorithm: options.canonicalizationAlgorithm ?? ALG.excC14n,
  });
  signer.addReference({
    xpath: options.xpath ?? ASSERTION_XPATH,
    transforms: options.transforms ?? [ALG.envelopedSignature, ALG.excC14n],
    digestAlgorithm: options.digestAlgorithm ?? ALG.sha256,
  });
  signer.computeSignature(xml, {
    prefix: 'ds',
    location: {
      reference: options.after ?? `${options.xpath ?? ASSERTION_XPATH}/*[local-name(.)='Issuer']`,
      action: 'after',
    },
  });
  return signer.getSignedXml();
}

/** Verification options for the tests' IdP, clock and user; a fresh replay cache each call. */
export function verifyOptions(
  publicKeyPem: string,
  overrides: Partial<VerifySamlBearerOptions> = {},
): VerifySamlBearerOptions {
  return {
    kind: 'SAMLAssertion',
    trust: { issuer: ISSUER, publicKeyPem },
    audiences: [AUDIENCE],
    now: NOW,
    isKnownUser: (email) => email === USER,
    replay: new ReplayCache({ now: () => NOW.getTime() }),
    ...overrides,
  };
}

/** Replaces `from` in `text`, failing the test when it is absent (a no-op mutation proves nothing). */
export function mutate(text: string, from: string | RegExp, to: string): string {
  const changed = text.replace(from, to);
  if (changed === text) throw new Error(`test setup: ${String(from)} not found`);
  return changed;
}

/** The `<ds:Signature …>…</ds:Signature>` element of a signed document (the first one). */
export function signatureOf(xml: string): string {
  const match = xml.match(/<ds:Signature [\s\S]*?<\/ds:Signature>/);
  if (!match) throw new Error('test setup: no signature');
  return match[0];
}

/** Why verifySamlBearer refuses `value` (its SamlVerificationError's message); throws if it accepts. */
export function refusalMessage(value: string, options: VerifySamlBearerOptions): string {
  try {
    verifySamlBearer(value, options);
  } catch (error) {
    expect(error).toBeInstanceOf(SamlVerificationError);
    return (error as Error).message;
  }
  throw new Error('the assertion was accepted');
}
