/**
 * Refusals about what a validly signed assertion says: issuer, audience, time window, bearer
 * confirmation, user, and the one-time use of its ID.
 */
import { describe, expect, it } from 'vitest';
import { CONFIRMATION_BEARER } from '../../src/saml/constants.js';
import { ReplayCache } from '../../src/saml/replay-cache.js';
import { signAssertion } from '../../src/saml/sign-assertion.js';
import { verifySamlBearer } from '../../src/saml/verify.js';
import {
  AUDIENCE,
  assertionXml,
  b64,
  keyPairForFile,
  mutate,
  NOW,
  refusalMessage,
  USER,
  verifyOptions,
} from '../helpers/saml.js';

const idp = keyPairForFile();

function sign(xml: string): string {
  return b64(signAssertion(xml, { privateKeyPem: idp.privateKeyPem }));
}

function refusal(value: string, overrides: Parameters<typeof verifyOptions>[1] = {}): string {
  return refusalMessage(value, verifyOptions(idp.publicKeyPem, overrides));
}

const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);

describe('verifySamlBearer refuses a signed assertion', () => {
  it('that has expired (NotOnOrAfter more than 60 s ago)', () => {
    expect(refusal(sign(assertionXml()), { now: at(300_000 + 60_000) })).toBe(
      'the assertion has expired (Conditions NotOnOrAfter has passed); get a fresh one',
    );
  });

  it('whose bearer confirmation has expired though its Conditions have not', () => {
    const xml = mutate(
      assertionXml(),
      /(SubjectConfirmationData NotOnOrAfter=")[^"]+/,
      '$12030-01-02T03:04:30Z',
    );
    expect(refusal(sign(xml), { now: at(120_000) })).toBe(
      'the assertion has expired (SubjectConfirmationData NotOnOrAfter has passed); get a fresh one',
    );
  });

  it('that is not valid yet (NotBefore more than 60 s ahead)', () => {
    // IssueInstant is moved back so that the NotBefore check is the one that fires.
    const xml = mutate(assertionXml(), /IssueInstant="[^"]+"/, 'IssueInstant="2030-01-02T02:00:00Z"');
    expect(refusal(sign(xml), { now: at(-61_000) })).toBe(
      'the assertion is not valid yet (Conditions NotBefore is in the future; check the clocks)',
    );
  });

  it('issued in the future', () => {
    const xml = mutate(assertionXml(), /IssueInstant="[^"]+"/, 'IssueInstant="2030-01-02T03:06:00Z"');
    expect(refusal(sign(xml))).toBe('the assertion IssueInstant is in the future; check the clocks');
  });

  it('with a malformed time', () => {
    const xml = mutate(assertionXml(), /(Conditions NotBefore=")[^"]+/, '$1yesterday');
    expect(refusal(sign(xml))).toBe('Conditions NotBefore is not a valid xs:dateTime');
  });

  it('without any NotOnOrAfter', () => {
    const xml = mutate(
      mutate(assertionXml(), / NotOnOrAfter="[^"]+" Recipient/, ' Recipient'),
      /(<saml:Conditions NotBefore="[^"]+") NotOnOrAfter="[^"]+"/,
      '$1',
    );
    expect(refusal(sign(xml))).toBe(
      'the assertion has no NotOnOrAfter (in Conditions or SubjectConfirmationData)',
    );
  });

  it('for another audience', () => {
    expect(refusal(sign(assertionXml({ audience: 'https://other.example' })))).toBe(
      `the assertion's Audience does not name this service; expected one of: ${AUDIENCE}`,
    );
  });

  it('without an AudienceRestriction (RFC 7522 §3 requires an Audience)', () => {
    const xml = assertionXml().replace(/<saml:AudienceRestriction>.*<\/saml:AudienceRestriction>/, '');
    expect(xml).not.toContain('Audience');
    expect(refusal(sign(xml))).toBe(
      `the assertion has no Audience (RFC 7522 §3 requires a Conditions/AudienceRestriction/Audience naming this service); expected one of: ${AUDIENCE}`,
    );
  });

  it('without Conditions at all', () => {
    const xml = assertionXml()
      .replace(/<saml:Conditions[^>]*>.*<\/saml:Conditions>/s, '')
      .replace(/<saml:Conditions[^>]*\/>/, '');
    expect(xml).not.toContain('Conditions');
    expect(refusal(sign(xml))).toContain('the assertion has no Audience');
  });

  it('with an AudienceRestriction that holds no Audience', () => {
    const xml = assertionXml().replace(/<saml:Audience>[^<]*<\/saml:Audience>/, '');
    expect(refusal(sign(xml))).toBe(
      `the assertion's Audience does not name this service; expected one of: ${AUDIENCE}`,
    );
  });

  it('whose bearer Recipient is another service', () => {
    const xml = mutate(assertionXml(), `Recipient="${AUDIENCE}"`, 'Recipient="https://other.example/acs"');
    expect(refusal(sign(xml))).toBe(
      `the bearer SubjectConfirmationData Recipient does not name this service; expected one of: ${AUDIENCE}`,
    );
  });

  it('from another issuer', () => {
    expect(refusal(sign(assertionXml({ issuer: 'https://evil.example' })))).toBe(
      'the assertion Issuer is not the issuer registered for this application',
    );
  });

  it('for a user the service does not know', () => {
    expect(refusal(sign(assertionXml({ email: 'nobody@example.com' })))).toBe(
      'the assertion NameID is not a known user of this service',
    );
  });

  it('whose subject confirmation is not bearer', () => {
    const xml = mutate(assertionXml(), CONFIRMATION_BEARER, 'urn:oasis:names:tc:SAML:2.0:cm:holder-of-key');
    expect(refusal(sign(xml))).toBe(
      `the assertion's SubjectConfirmation Method must be ${CONFIRMATION_BEARER}`,
    );
  });

  it('whose Version is not 2.0', () => {
    expect(refusal(sign(mutate(assertionXml(), 'Version="2.0"', 'Version="1.1"')))).toBe(
      'the assertion Version must be 2.0',
    );
  });
});

describe('verifySamlBearer accepts an assertion ID once', () => {
  it('refuses the same assertion the second time', () => {
    const value = sign(assertionXml());
    const replay = new ReplayCache({ now: () => NOW.getTime() });
    expect(verifySamlBearer(value, verifyOptions(idp.publicKeyPem, { replay })).email).toBe(USER);
    expect(refusal(value, { replay })).toBe(
      'the assertion ID was already used; each assertion is accepted once',
    );
  });

  it('accepts exactly one of two concurrent verifications of the same assertion', async () => {
    const value = sign(assertionXml());
    const replay = new ReplayCache({ now: () => NOW.getTime() });
    const attempts = await Promise.allSettled(
      [0, 1].map(async () => {
        await Promise.resolve();
        return verifySamlBearer(value, verifyOptions(idp.publicKeyPem, { replay }));
      }),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    const rejected = attempts.find((a) => a.status === 'rejected');
    expect((rejected as PromiseRejectedResult).reason.message).toBe(
      'the assertion ID was already used; each assertion is accepted once',
    );
  });

  it('does not spend the ID of an assertion it refused for another reason', () => {
    const value = sign(assertionXml());
    const replay = new ReplayCache({ now: () => NOW.getTime() });
    expect(refusal(value, { replay, isKnownUser: () => false })).toBe(
      'the assertion NameID is not a known user of this service',
    );
    expect(verifySamlBearer(value, verifyOptions(idp.publicKeyPem, { replay })).email).toBe(USER);
  });

  it('remembers the ID until the assertion has expired, skew included', () => {
    const value = sign(assertionXml({ id: '_remembered' }));
    const seen: Array<[string, number]> = [];
    verifySamlBearer(
      value,
      verifyOptions(idp.publicKeyPem, {
        replay: {
          seen: (id, expiresAt) => {
            seen.push([id, expiresAt]);
            return false;
          },
        },
      }),
    );
    expect(seen).toEqual([['_remembered', NOW.getTime() + 300_000 + 60_000]]);
  });
});

describe('verifySamlBearer with an unusable registration', () => {
  it('refuses when the registered key is not PEM', () => {
    expect(() => verifySamlBearer(sign(assertionXml()), verifyOptions('not a certificate', {}))).toThrow(
      'the certificate registered for this application is not usable',
    );
  });

  it('refuses when a private key was registered instead of the certificate', () => {
    expect(() => verifySamlBearer(sign(assertionXml()), verifyOptions(idp.privateKeyPem, {}))).toThrow(
      'the certificate registered for this application is not usable',
    );
  });
});
