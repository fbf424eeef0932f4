/**
 * Refusals about what is signed and how: unsigned, tampered, wrapped, re-signed with another key,
 * refused algorithms and transforms, a reference to something else than the assertion.
 */
import { describe, expect, it } from 'vitest';
import { ALG, NS } from '../../src/saml/constants.js';
import { signAssertion } from '../../src/saml/sign-assertion.js';
import {
  assertionXml,
  b64,
  keyPairForFile,
  mutate,
  opensslCertificate,
  opensslMissing,
  rawSign,
  refusalMessage,
  responseXml,
  rsaKeyPair,
  signatureOf,
  USER,
  verifyOptions,
} from '../helpers/saml.js';

const idp = keyPairForFile();

const ADMIN = 'admin@example.com';
const knownUsers = { isKnownUser: (email: string) => email === USER || email === ADMIN };

function refusal(value: string, overrides: Parameters<typeof verifyOptions>[1] = {}): string {
  return refusalMessage(value, verifyOptions(idp.publicKeyPem, { ...knownUsers, ...overrides }));
}

function signedAssertion(id = '_signed'): string {
  return signAssertion(assertionXml({ id }), { privateKeyPem: idp.privateKeyPem });
}

describe('verifySamlBearer refuses an assertion that is', () => {
  it('unsigned', () => {
    expect(refusal(b64(assertionXml()))).toBe(
      'SAMLAssertion: the assertion is not signed (a signature on the Response alone is not enough; RFC 7522 §3)',
    );
  });

  it('unsigned inside a response that is signed', () => {
    const signedResponse = rawSign(responseXml(assertionXml(), '_r'), {
      privateKeyPem: idp.privateKeyPem,
      xpath: '/*',
      after: "/*/*[local-name(.)='Issuer']",
    });
    expect(refusal(b64(signedResponse), { kind: 'SAMLResponse' })).toBe(
      'SAMLResponse: the assertion is not signed (a signature on the Response alone is not enough; RFC 7522 §3)',
    );
  });

  it('tampered after signing (NameID changed)', () => {
    const tampered = mutate(signedAssertion(), `>${USER}<`, `>${ADMIN}<`);
    expect(refusal(b64(tampered))).toBe(
      'the signed assertion was changed after signing (digest mismatch); send it exactly as the identity provider signed it',
    );
  });

  it('signed with a corrupted signature value', () => {
    const signed = signedAssertion();
    const value = signed.match(/<ds:SignatureValue>([^<]+)</)?.[1] ?? '';
    const flipped = `${value.slice(0, 20)}${value[20] === 'A' ? 'B' : 'A'}${value.slice(21)}`;
    expect(refusal(b64(mutate(signed, value, flipped)))).toBe(
      'the assertion signature does not verify with the certificate registered for this application',
    );
  });

  it('re-signed by another key, even with no KeyInfo', () => {
    const attacker = rsaKeyPair();
    const forged = signAssertion(assertionXml({ email: ADMIN }), { privateKeyPem: attacker.privateKeyPem });
    expect(refusal(b64(forged))).toBe(
      'the assertion signature does not verify with the certificate registered for this application',
    );
  });

  it.skipIf(opensslMissing)(
    `re-signed by an attacker whose own certificate is in KeyInfo (CVE-2024-32962)${opensslMissing ? ` — skipped: ${opensslMissing}` : ''}`,
    () => {
      const attacker = opensslCertificate('attacker');
      const forged = signAssertion(assertionXml({ email: ADMIN }), attacker);
      expect(forged).toContain('<ds:X509Certificate>');
      expect(refusal(b64(forged))).toBe(
        'the assertion signature does not verify with the certificate registered for this application',
      );
    },
  );

  it('signed with two Signature elements', () => {
    const signed = signedAssertion();
    const twice = mutate(signed, '<saml:Subject>', `${signatureOf(signed)}<saml:Subject>`);
    expect(refusal(b64(twice))).toBe(
      'SAMLAssertion: the assertion must carry exactly one Signature, as its direct child',
    );
  });

  it('signed, with a second SignedInfo (CVE-2025-29774)', () => {
    const signed = signedAssertion();
    const signedInfo = signed.match(/<ds:SignedInfo>[\s\S]*?<\/ds:SignedInfo>/)?.[0] ?? '';
    const doubled = mutate(signed, signedInfo, `${signedInfo}${signedInfo}`);
    expect(refusal(b64(doubled))).toBe('the assertion signature must have exactly one SignedInfo');
  });

  it('signed with RSA-SHA1', () => {
    const sha1 = rawSign(assertionXml(), {
      privateKeyPem: idp.privateKeyPem,
      signatureAlgorithm: ALG.rsaSha1,
    });
    expect(refusal(b64(sha1))).toBe(
      `signature algorithm ${ALG.rsaSha1} is not accepted; sign with RSA-SHA256 (${ALG.rsaSha256})`,
    );
  });

  it('digested with SHA-1', () => {
    const sha1 = rawSign(assertionXml(), { privateKeyPem: idp.privateKeyPem, digestAlgorithm: ALG.sha1 });
    expect(refusal(b64(sha1))).toBe(
      `digest algorithm ${ALG.sha1} is not accepted; use SHA-256 (${ALG.sha256})`,
    );
  });

  it('signed with an unexpected transform (inclusive c14n)', () => {
    const inclusive = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
    const odd = rawSign(assertionXml(), {
      privateKeyPem: idp.privateKeyPem,
      transforms: [ALG.envelopedSignature, inclusive],
    });
    expect(refusal(b64(odd))).toBe(
      `signature transform ${inclusive} is not accepted; use only enveloped-signature and exclusive c14n`,
    );
  });

  it('signed with exclusive c14n WithComments as a transform', () => {
    const odd = rawSign(assertionXml(), {
      privateKeyPem: idp.privateKeyPem,
      transforms: [ALG.envelopedSignature, ALG.excC14nWithComments],
    });
    expect(refusal(b64(odd))).toBe(
      `signature transform ${ALG.excC14nWithComments} is not accepted; use only enveloped-signature and exclusive c14n`,
    );
  });

  it('signed with an inclusive CanonicalizationMethod', () => {
    const inclusive = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
    const odd = rawSign(assertionXml(), {
      privateKeyPem: idp.privateKeyPem,
      canonicalizationAlgorithm: inclusive,
    });
    expect(refusal(b64(odd))).toBe(
      `signature canonicalization ${inclusive} is not accepted; use exclusive c14n (${ALG.excC14n})`,
    );
  });

  it("carrying the Response's signature moved into it (the reference points elsewhere)", () => {
    // The IdP signed only the Response; its signature still verifies over the Response after being
    // moved into the assertion, because the enveloped transform removes it wherever it sits.
    const signedResponse = rawSign(responseXml(assertionXml(), '_resp'), {
      privateKeyPem: idp.privateKeyPem,
      xpath: '/*',
      after: "/*/*[local-name(.)='Issuer']",
    });
    const signature = signatureOf(signedResponse);
    const moved = mutate(
      mutate(signedResponse, signature, ''),
      `${'https://idp.example'}</saml:Issuer><saml:Subject>`,
      `https://idp.example</saml:Issuer>${signature}<saml:Subject>`,
    );
    expect(refusal(b64(moved), { kind: 'SAMLResponse' })).toBe(
      'the signature reference does not point to the assertion (URI must be #<assertion ID>)',
    );
  });
});

describe('verifySamlBearer refuses signature wrapping', () => {
  it('signed assertion moved under Extensions, a forged one with its signature in its place', () => {
    const original = signedAssertion('_original');
    const signature = signatureOf(original);
    const unsignedOriginal = mutate(original, signature, '');
    const forged = mutate(
      assertionXml({ id: '_forged', email: ADMIN }),
      '</saml:Issuer>',
      `</saml:Issuer>${signature}`,
    );
    const wrapped = mutate(
      responseXml(forged),
      '<samlp:Status>',
      `<samlp:Extensions>${unsignedOriginal}</samlp:Extensions><samlp:Status>`,
    );
    expect(refusal(b64(wrapped), { kind: 'SAMLResponse' })).toBe(
      'SAMLResponse must contain exactly one Assertion, directly in the Response',
    );
  });

  it('the same with the forged assertion reusing the signed ID', () => {
    const original = signedAssertion('_original');
    const forged = mutate(
      signAssertion(assertionXml({ id: '_original', email: ADMIN }), {
        privateKeyPem: rsaKeyPair(1024).privateKeyPem,
      }),
      /<ds:Signature [\s\S]*<\/ds:Signature>/,
      signatureOf(original),
    );
    const wrapped = mutate(
      responseXml(forged),
      '<samlp:Status>',
      `<samlp:Extensions>${original}</samlp:Extensions><samlp:Status>`,
    );
    expect(refusal(b64(wrapped), { kind: 'SAMLResponse' })).toBe(
      'SAMLResponse must contain exactly one Assertion, directly in the Response',
    );
  });

  it('signed assertion hidden in the Advice of a forged assertion', () => {
    const original = signedAssertion('_original');
    const signature = signatureOf(original);
    const forged = mutate(
      assertionXml({ id: '_forged', email: ADMIN }),
      '<saml:AuthnStatement',
      `<saml:Advice>${mutate(original, signature, '')}</saml:Advice><saml:AuthnStatement`,
    );
    const wrapped = mutate(forged, '</saml:Issuer>', `</saml:Issuer>${signature}`);
    expect(refusal(b64(wrapped))).toBe(
      'SAMLAssertion: assertions nested inside the assertion are not accepted',
    );
  });

  it('another element carrying the signed assertion ID', () => {
    const original = signedAssertion('_dup');
    const wrapped = mutate(
      responseXml(original),
      '<samlp:Status>',
      `<samlp:Extensions><x:Data xmlns:x="urn:example" ID="_dup"/></samlp:Extensions><samlp:Status>`,
    );
    expect(refusal(b64(wrapped), { kind: 'SAMLResponse' })).toBe(
      'SAMLResponse: the document contains duplicated ID attributes',
    );
  });

  it('a Signature outside the assertion besides the Response signature', () => {
    const original = signedAssertion();
    const extra = mutate(
      responseXml(original),
      '<samlp:Status>',
      `<samlp:Extensions>${signatureOf(original)}</samlp:Extensions><samlp:Status>`,
    );
    expect(refusal(b64(extra), { kind: 'SAMLResponse' })).toBe(
      'SAMLResponse: unexpected Signature elements outside the assertion',
    );
  });
});

describe('verifySamlBearer refuses the wrong shape', () => {
  it('a Response sent as SAMLAssertion', () => {
    expect(refusal(b64(responseXml(signedAssertion())))).toBe(
      'SAMLAssertion holds a samlp:Response; send it as SAMLResponse',
    );
  });

  it('an Assertion sent as SAMLResponse', () => {
    expect(refusal(b64(signedAssertion()), { kind: 'SAMLResponse' })).toBe(
      'SAMLResponse holds a bare saml:Assertion; send it as SAMLAssertion',
    );
  });

  it('a document that is no SAML', () => {
    expect(refusal(b64('<Assertion ID="_x"/>'))).toBe(
      `SAMLAssertion must be a SAML 2.0 Assertion (namespace ${NS.assertion})`,
    );
  });

  it('an encrypted assertion', () => {
    const encrypted = responseXml(
      '<saml:EncryptedAssertion><x:Data xmlns:x="urn:x"/></saml:EncryptedAssertion>',
    );
    expect(refusal(b64(encrypted), { kind: 'SAMLResponse' })).toBe(
      'SAMLResponse: encrypted assertions are not supported; send the assertion unencrypted',
    );
  });

  it('a response whose status is not Success', () => {
    const failed = mutate(responseXml(signedAssertion()), 'status:Success', 'status:Requester');
    expect(refusal(b64(failed), { kind: 'SAMLResponse' })).toBe('SAMLResponse status is not Success');
  });
});
