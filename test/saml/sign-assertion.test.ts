import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { hintFor } from '../../src/cli/output/error-hints.js';
import { exitCodeOf } from '../../src/cli/output/exit-codes.js';
import { ExitCode, TokencliError } from '../../src/errors.js';
import { ALG } from '../../src/saml/constants.js';
import { signAssertion } from '../../src/saml/sign-assertion.js';
import {
  assertionXml,
  type CertifiedKey,
  keyPairForFile,
  opensslCertificate,
  opensslMissing,
  responseXml,
} from '../helpers/saml.js';

const idp = keyPairForFile();

function usageError(run: () => unknown): TokencliError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(TokencliError);
    expect(exitCodeOf(error as TokencliError)).toBe(ExitCode.usage);
    return error as TokencliError;
  }
  throw new Error('no error');
}

/** The PEM body lines of a key, which must never show up in a signed document. */
function keyBody(pem: string): string[] {
  return pem.split('\n').filter((line) => line.length > 20 && !line.startsWith('-----'));
}

describe('signAssertion', () => {
  it('adds an enveloped RSA-SHA256 / SHA-256 / exclusive-c14n signature over the assertion ID', () => {
    const signed = signAssertion(assertionXml({ id: '_abc' }), { privateKeyPem: idp.privateKeyPem });
    expect(signed).toContain(`<ds:SignatureMethod Algorithm="${ALG.rsaSha256}"/>`);
    expect(signed).toContain(`<ds:CanonicalizationMethod Algorithm="${ALG.excC14n}"/>`);
    expect(signed).toContain(`<ds:DigestMethod Algorithm="${ALG.sha256}"/>`);
    expect(signed).toContain('<ds:Reference URI="#_abc">');
    expect(signed).toContain(
      `<ds:Transforms><ds:Transform Algorithm="${ALG.envelopedSignature}"/><ds:Transform Algorithm="${ALG.excC14n}"/></ds:Transforms>`,
    );
  });

  it('places the signature right after the Issuer (schema order)', () => {
    const signed = signAssertion(assertionXml(), { privateKeyPem: idp.privateKeyPem });
    expect(signed).toMatch(/<\/saml:Issuer><ds:Signature [^>]*>[\s\S]*<\/ds:Signature><saml:Subject>/);
  });

  it('signs the assertion inside a Response, not the Response', () => {
    const signed = signAssertion(responseXml(assertionXml({ id: '_inner' }), '_outer'), {
      privateKeyPem: idp.privateKeyPem,
    });
    expect(signed).toContain('<ds:Reference URI="#_inner">');
    expect(signed).toMatch(/<saml:Assertion [^>]*><saml:Issuer>[^<]*<\/saml:Issuer><ds:Signature /);
  });

  it('includes no KeyInfo without a certificate, and never the private key', () => {
    const signed = signAssertion(assertionXml(), { privateKeyPem: idp.privateKeyPem });
    expect(signed).not.toContain('KeyInfo');
    for (const line of keyBody(idp.privateKeyPem)) expect(signed).not.toContain(line);
  });

  it('accepts a PKCS#1 "RSA PRIVATE KEY" PEM', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pkcs1 = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    expect(pkcs1).toContain('BEGIN RSA PRIVATE KEY');
    expect(signAssertion(assertionXml(), { privateKeyPem: pkcs1 })).toContain('<ds:SignatureValue>');
  });

  describe.skipIf(opensslMissing)(
    `with a certificate${opensslMissing ? ` (skipped: ${opensslMissing})` : ''}`,
    () => {
      let certified: CertifiedKey;
      beforeAll(() => {
        certified = opensslCertificate();
      });

      it('publishes the certificate in KeyInfo, and not the key', () => {
        const signed = signAssertion(assertionXml(), certified);
        const body = certified.certificatePem.replace(/-----[A-Z ]+-----|\s/g, '');
        expect(signed).toContain(`<ds:KeyInfo><ds:X509Data><ds:X509Certificate>${body}</ds:X509Certificate>`);
        // The key's PEM also carries the public modulus, which the certificate publishes: a key line
        // of nothing but modulus bytes can appear in the certificate's base64 by chance, and says
        // nothing. Every other line holds private material.
        const privateLines = keyBody(certified.privateKeyPem).filter((line) => !body.includes(line));
        expect(privateLines.length).toBeGreaterThan(15);
        for (const line of privateLines) expect(signed).not.toContain(line);
      });

      it('refuses a certificate of another key', () => {
        const error = usageError(() =>
          signAssertion(assertionXml(), {
            privateKeyPem: idp.privateKeyPem,
            certificatePem: certified.certificatePem,
          }),
        );
        expect(error.message).toBe('the certificate does not match the signing key');
        expect(hintFor(error)).toBe('pass the certificate issued for this key, or leave out --sign-cert');
      });

      it('refuses a "certificate" file that holds a private key', () => {
        const error = usageError(() =>
          signAssertion(assertionXml(), {
            privateKeyPem: certified.privateKeyPem,
            certificatePem: `${certified.certificatePem}${certified.privateKeyPem}`,
          }),
        );
        expect(error.message).toBe('the certificate file contains a private key');
      });
    },
  );

  it('refuses a certificate that is not PEM', () => {
    const error = usageError(() =>
      signAssertion(assertionXml(), { privateKeyPem: idp.privateKeyPem, certificatePem: 'hello' }),
    );
    expect(error.message).toBe('the certificate is not a PEM X.509 certificate');
  });

  it('refuses a key that is not a PEM private key (a public key, say)', () => {
    const error = usageError(() => signAssertion(assertionXml(), { privateKeyPem: idp.publicKeyPem }));
    expect(error.message).toBe('the signing key is not a PEM private key');
    expect(error.message).not.toContain('MII');
  });

  it('refuses an encrypted key with a hint to decrypt it', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const encrypted = privateKey
      .export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' })
      .toString();
    const error = usageError(() => signAssertion(assertionXml(), { privateKeyPem: encrypted }));
    expect(error.message).toBe('the signing key is encrypted');
    expect(hintFor(error)).toBe('decrypt it first: openssl pkey -in key.pem -out key-plain.pem');
  });

  it('refuses a garbled key', () => {
    const garbled = '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n';
    expect(usageError(() => signAssertion(assertionXml(), { privateKeyPem: garbled })).message).toBe(
      'the signing key could not be read',
    );
  });

  it('refuses a key that is not RSA', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const ec = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(usageError(() => signAssertion(assertionXml(), { privateKeyPem: ec })).message).toBe(
      'the signing key is a ec key; an RSA key is required (RSA-SHA256)',
    );
  });

  it('refuses an assertion that is already signed', () => {
    const signed = signAssertion(assertionXml(), { privateKeyPem: idp.privateKeyPem });
    const error = usageError(() => signAssertion(signed, { privateKeyPem: idp.privateKeyPem }));
    expect(error.message).toBe('the SAML assertion is already signed');
    expect(hintFor(error)).toBe('send it as it is, without --sign-key');
  });

  it('refuses XML that is not well-formed, without echoing it', () => {
    const error = usageError(() =>
      signAssertion('<saml:Assertion secret', { privateKeyPem: idp.privateKeyPem }),
    );
    expect(error.message).toBe('cannot sign the SAML input: the XML is not well-formed');
  });

  it('refuses a document that is no SAML assertion or response', () => {
    expect(usageError(() => signAssertion('<foo/>', { privateKeyPem: idp.privateKeyPem })).message).toBe(
      'cannot sign the SAML input: its root element is foo, not a SAML 2.0 Assertion or Response',
    );
  });

  it('refuses a response with two assertions', () => {
    const two = responseXml(`${assertionXml()}${assertionXml()}`);
    expect(usageError(() => signAssertion(two, { privateKeyPem: idp.privateKeyPem })).message).toBe(
      'cannot sign the SAML response: it must contain exactly one Assertion',
    );
  });

  it('refuses an assertion without an ID or without an Issuer', () => {
    const noId = assertionXml().replace(/ ID="[^"]+"/, '');
    expect(usageError(() => signAssertion(noId, { privateKeyPem: idp.privateKeyPem })).message).toBe(
      'cannot sign the SAML assertion: it has no ID attribute',
    );
    const noIssuer = assertionXml().replace(/<saml:Issuer>[^<]*<\/saml:Issuer>/, '');
    expect(usageError(() => signAssertion(noIssuer, { privateKeyPem: idp.privateKeyPem })).message).toBe(
      'cannot sign the SAML assertion: it must have exactly one Issuer',
    );
  });
});
