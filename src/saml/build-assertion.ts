/**
 * Builds an unsigned SAML 2.0 assertion for the saml2-bearer grant (RFC 7522 §3): issuer, a
 * NameID in emailAddress format with a bearer SubjectConfirmation, Conditions with an
 * AudienceRestriction, and an AuthnStatement, in the element order of saml-schema-assertion-2.0.
 */
import { randomBytes } from 'node:crypto';
import { AUTHN_CONTEXT_UNSPECIFIED, CONFIRMATION_BEARER, NAMEID_EMAIL, NS } from './constants.js';

export interface BuildAssertionOptions {
  /** The user; becomes the NameID. */
  email: string;
  /** The identity provider's entity ID, as registered with the service. */
  issuer: string;
  /** The service the assertion is meant for (AudienceRestriction and the bearer Recipient). */
  audience: string;
  /** Clock for IssueInstant and the validity window; tests pass a fixed date. */
  now?: Date;
  /** Validity window, NotBefore (= now) to NotOnOrAfter. Default 300 s. */
  lifetimeSeconds?: number;
  /** The assertion ID; default `_` + 128 random bits in hex (an xs:ID must not start with a digit). */
  id?: string;
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Escapes text for use in XML content and double- or single-quoted attribute values. */
export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);
}

/** An xs:ID (NCName) limited to ASCII: a letter or underscore, then letters, digits, `_.-`. */
const XS_ID = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** A fresh assertion ID: `_` followed by 128 random bits in hex. */
export function newAssertionId(): string {
  return `_${randomBytes(16).toString('hex')}`;
}

/** xs:dateTime in UTC with second precision, as identity providers write it. */
function samlInstant(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Returns the XML of an unsigned `<saml:Assertion>`; sign it with `signAssertion` before sending.
 *
 * @throws TypeError for an empty email, issuer or audience, or a lifetime that is not a positive number
 */
export function buildAssertion(options: BuildAssertionOptions): string {
  for (const key of ['email', 'issuer', 'audience'] as const) {
    if (typeof options[key] !== 'string' || options[key].trim() === '') {
      throw new TypeError(
        `buildAssertion: ${key} must be a non-empty string, got ${JSON.stringify(options[key])}`,
      );
    }
  }
  const lifetime = options.lifetimeSeconds ?? 300;
  if (!Number.isFinite(lifetime) || lifetime <= 0) {
    throw new TypeError(`buildAssertion: lifetimeSeconds must be a positive number, got ${lifetime}`);
  }
  const id = options.id ?? newAssertionId();
  if (!XS_ID.test(id)) {
    throw new TypeError(
      `buildAssertion: id must be an xs:ID (a letter or _ first), got ${JSON.stringify(id)}`,
    );
  }
  const now = options.now ?? new Date();
  const issued = samlInstant(now);
  const notOnOrAfter = samlInstant(new Date(now.getTime() + lifetime * 1000));
  const email = escapeXml(options.email);
  const issuer = escapeXml(options.issuer);
  const audience = escapeXml(options.audience);
  return [
    `<saml:Assertion xmlns:saml="${NS.assertion}" ID="${id}" Version="2.0" IssueInstant="${issued}">`,
    `<saml:Issuer>${issuer}</saml:Issuer>`,
    '<saml:Subject>',
    `<saml:NameID Format="${NAMEID_EMAIL}">${email}</saml:NameID>`,
    `<saml:SubjectConfirmation Method="${CONFIRMATION_BEARER}">`,
    `<saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${audience}"/>`,
    '</saml:SubjectConfirmation>',
    '</saml:Subject>',
    `<saml:Conditions NotBefore="${issued}" NotOnOrAfter="${notOnOrAfter}">`,
    `<saml:AudienceRestriction><saml:Audience>${audience}</saml:Audience></saml:AudienceRestriction>`,
    '</saml:Conditions>',
    `<saml:AuthnStatement AuthnInstant="${issued}">`,
    `<saml:AuthnContext><saml:AuthnContextClassRef>${AUTHN_CONTEXT_UNSPECIFIED}</saml:AuthnContextClassRef></saml:AuthnContext>`,
    '</saml:AuthnStatement>',
    '</saml:Assertion>',
  ].join('');
}
