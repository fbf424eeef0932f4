import { describe, expect, it } from 'vitest';
import { signAssertion } from '../../src/saml/sign-assertion.js';
import { verifySamlBearer } from '../../src/saml/verify.js';
import {
  AUDIENCE,
  assertionXml,
  b64,
  keyPairForFile,
  NOW,
  opensslCertificate,
  opensslMissing,
  rawSign,
  responseXml,
  USER,
  verifyOptions,
} from '../helpers/saml.js';

const idp = keyPairForFile();

describe('verifySamlBearer accepts', () => {
  it('an assertion built and signed here, checked against the registered public key', () => {
    const signed = signAssertion(assertionXml({ id: '_a1' }), { privateKeyPem: idp.privateKeyPem });
    expect(verifySamlBearer(b64(signed), verifyOptions(idp.publicKeyPem))).toEqual({
      email: USER,
      assertionId: '_a1',
      notOnOrAfter: new Date(NOW.getTime() + 300_000),
    });
  });

  it('a response holding the signed assertion', () => {
    const signed = signAssertion(responseXml(assertionXml({ id: '_a2' })), {
      privateKeyPem: idp.privateKeyPem,
    });
    const result = verifySamlBearer(b64(signed), verifyOptions(idp.publicKeyPem, { kind: 'SAMLResponse' }));
    expect(result).toMatchObject({ email: USER, assertionId: '_a2' });
  });

  it('a response whose Response is signed as well as its assertion', () => {
    const inner = signAssertion(responseXml(assertionXml({ id: '_a3' }), '_r3'), {
      privateKeyPem: idp.privateKeyPem,
    });
    const both = rawSign(inner, {
      privateKeyPem: idp.privateKeyPem,
      xpath: '/*',
      after: "/*/*[local-name(.)='Issuer']",
    });
    expect(both.match(/<ds:Signature /g)).toHaveLength(2);
    const result = verifySamlBearer(b64(both), verifyOptions(idp.publicKeyPem, { kind: 'SAMLResponse' }));
    expect(result.assertionId).toBe('_a3');
  });

  it('base64 split into 76-character lines, with an XML declaration and a byte-order mark', () => {
    const signed = signAssertion(assertionXml(), { privateKeyPem: idp.privateKeyPem });
    const text = `\ufeff<?xml version="1.0" encoding="UTF-8"?>\n${signed}`;
    const wrapped = (b64(text).match(/.{1,76}/g) ?? []).join('\r\n');
    expect(verifySamlBearer(wrapped, verifyOptions(idp.publicKeyPem)).email).toBe(USER);
  });

  it('a pretty-printed assertion, signed as it is', () => {
    const pretty = assertionXml().replace(/></g, '>\n  <');
    const signed = signAssertion(pretty, { privateKeyPem: idp.privateKeyPem });
    expect(verifySamlBearer(b64(signed), verifyOptions(idp.publicKeyPem)).email).toBe(USER);
  });

  it('times within the 60 s skew on either side', () => {
    const signed = signAssertion(assertionXml(), { privateKeyPem: idp.privateKeyPem });
    const early = new Date(NOW.getTime() - 59_000);
    const late = new Date(NOW.getTime() + 300_000 + 59_000);
    expect(verifySamlBearer(b64(signed), verifyOptions(idp.publicKeyPem, { now: early })).email).toBe(USER);
    expect(verifySamlBearer(b64(signed), verifyOptions(idp.publicKeyPem, { now: late })).email).toBe(USER);
  });

  it('any of several audiences the service answers to', () => {
    const signed = signAssertion(assertionXml({ audience: 'https://tokens.example/v2/oauth/token' }), {
      privateKeyPem: idp.privateKeyPem,
    });
    const options = verifyOptions(idp.publicKeyPem, {
      audiences: [AUDIENCE, 'https://tokens.example/v2/oauth/token'],
    });
    expect(verifySamlBearer(b64(signed), options).email).toBe(USER);
  });

  describe.skipIf(opensslMissing)(
    `with an openssl certificate${opensslMissing ? ` (${opensslMissing})` : ''}`,
    () => {
      it('a signature carrying the certificate in KeyInfo, checked against the registered certificate', () => {
        const certified = opensslCertificate();
        const signed = signAssertion(assertionXml(), certified);
        expect(signed).toContain('<ds:X509Certificate>');
        const result = verifySamlBearer(b64(signed), verifyOptions(certified.certificatePem));
        expect(result.email).toBe(USER);
      });
    },
  );
});
