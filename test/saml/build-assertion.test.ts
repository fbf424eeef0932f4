import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { buildAssertion, escapeXml, newAssertionId } from '../../src/saml/build-assertion.js';
import { CONFIRMATION_BEARER, NAMEID_EMAIL, NS } from '../../src/saml/constants.js';
import { AUDIENCE, ISSUER, NOW, USER } from '../helpers/saml.js';

function parse(xml: string) {
  const root = new DOMParser().parseFromString(xml, 'application/xml').documentElement;
  if (!root) throw new Error('no root');
  return root;
}

function first(root: ReturnType<typeof parse>, localName: string) {
  const element = root.getElementsByTagNameNS(NS.assertion, localName)[0];
  if (!element) throw new Error(`no ${localName}`);
  return element;
}

describe('buildAssertion', () => {
  const xml = buildAssertion({ email: USER, issuer: ISSUER, audience: AUDIENCE, now: NOW, id: '_fixed' });
  const root = parse(xml);

  it('builds a SAML 2.0 Assertion with ID, Version and IssueInstant', () => {
    expect(root.namespaceURI).toBe(NS.assertion);
    expect(root.localName).toBe('Assertion');
    expect(root.getAttribute('ID')).toBe('_fixed');
    expect(root.getAttribute('Version')).toBe('2.0');
    expect(root.getAttribute('IssueInstant')).toBe('2030-01-02T03:04:05Z');
  });

  it('orders the children as the schema does: Issuer, Subject, Conditions, AuthnStatement', () => {
    const children = Array.from(root.childNodes).map((n) => n.nodeName);
    expect(children).toEqual(['saml:Issuer', 'saml:Subject', 'saml:Conditions', 'saml:AuthnStatement']);
  });

  it('names the issuer and the user (emailAddress format)', () => {
    expect(first(root, 'Issuer').textContent).toBe(ISSUER);
    const nameId = first(root, 'NameID');
    expect(nameId.textContent).toBe(USER);
    expect(nameId.getAttribute('Format')).toBe(NAMEID_EMAIL);
  });

  it('confirms the subject as bearer for the audience, until the end of the window', () => {
    expect(first(root, 'SubjectConfirmation').getAttribute('Method')).toBe(CONFIRMATION_BEARER);
    const data = first(root, 'SubjectConfirmationData');
    expect(data.getAttribute('NotOnOrAfter')).toBe('2030-01-02T03:09:05Z');
    expect(data.getAttribute('Recipient')).toBe(AUDIENCE);
  });

  it('limits validity to five minutes and to the audience', () => {
    const conditions = first(root, 'Conditions');
    expect(conditions.getAttribute('NotBefore')).toBe('2030-01-02T03:04:05Z');
    expect(conditions.getAttribute('NotOnOrAfter')).toBe('2030-01-02T03:09:05Z');
    expect(first(root, 'Audience').textContent).toBe(AUDIENCE);
  });

  it('has an AuthnStatement', () => {
    expect(first(root, 'AuthnStatement').getAttribute('AuthnInstant')).toBe('2030-01-02T03:04:05Z');
  });

  it('honours lifetimeSeconds', () => {
    const short = parse(
      buildAssertion({ email: USER, issuer: ISSUER, audience: AUDIENCE, now: NOW, lifetimeSeconds: 60 }),
    );
    expect(first(short, 'Conditions').getAttribute('NotOnOrAfter')).toBe('2030-01-02T03:05:05Z');
  });

  it('escapes every value', () => {
    const tricky = buildAssertion({
      email: `a&b<c>"d'@example.com`,
      issuer: 'https://idp.example/?a=1&b="2"',
      audience: "https://sp.example/'x'<y>",
      now: NOW,
    });
    const parsed = parse(tricky);
    expect(first(parsed, 'NameID').textContent).toBe(`a&b<c>"d'@example.com`);
    expect(first(parsed, 'Issuer').textContent).toBe('https://idp.example/?a=1&b="2"');
    expect(first(parsed, 'SubjectConfirmationData').getAttribute('Recipient')).toBe(
      "https://sp.example/'x'<y>",
    );
    expect(tricky).not.toContain('<c>');
  });

  it('gives each assertion a fresh 128-bit ID starting with an underscore', () => {
    const a = parse(buildAssertion({ email: USER, issuer: ISSUER, audience: AUDIENCE })).getAttribute('ID');
    const b = parse(buildAssertion({ email: USER, issuer: ISSUER, audience: AUDIENCE })).getAttribute('ID');
    expect(a).toMatch(/^_[0-9a-f]{32}$/);
    expect(b).toMatch(/^_[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
    expect(newAssertionId()).toMatch(/^_[0-9a-f]{32}$/);
  });

  it('refuses empty values, a bad lifetime and an ID that is no xs:ID', () => {
    expect(() => buildAssertion({ email: '', issuer: ISSUER, audience: AUDIENCE })).toThrow(
      'buildAssertion: email must be a non-empty string, got ""',
    );
    expect(() => buildAssertion({ email: USER, issuer: ' ', audience: AUDIENCE })).toThrow(TypeError);
    expect(() =>
      buildAssertion({ email: USER, issuer: ISSUER, audience: AUDIENCE, lifetimeSeconds: 0 }),
    ).toThrow('buildAssertion: lifetimeSeconds must be a positive number, got 0');
    expect(() => buildAssertion({ email: USER, issuer: ISSUER, audience: AUDIENCE, id: '1abc' })).toThrow(
      'buildAssertion: id must be an xs:ID (a letter or _ first), got "1abc"',
    );
  });

  it('escapeXml escapes the five XML specials', () => {
    expect(escapeXml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&apos;');
  });
});
