/**
 * Reads and checks what a signed assertion says, from the canonical XML that was verified:
 * Version, Issuer, the time window (with skew), AudienceRestriction, the bearer
 * SubjectConfirmation and the NameID (docs/contract.md §3; RFC 7522 §3; saml-profiles-2.0-os §4.1.4.2).
 */
import type { Element } from '@xmldom/xmldom';
import { forbiddenEmailCharacter, trimXmlSpace } from '../text/email-identity.js';
import { CONFIRMATION_BEARER, NS } from './constants.js';
import { SamlVerificationError } from './errors.js';
import { attribute, childElements, isElement, parseStrictXml } from './strict-xml.js';

export interface ClaimRules {
  issuer: string;
  audiences: readonly string[];
  now: Date;
  skewSeconds: number;
}

export interface AssertionClaims {
  assertionId: string;
  email: string;
  /** The earliest NotOnOrAfter of the Conditions and the bearer confirmation. */
  notOnOrAfter: Date;
}

/** xs:dateTime with a time zone (SAML times are UTC; core §1.3.3), fractions allowed. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function instant(element: Element, name: string, where: string): Date | undefined {
  const value = attribute(element, name);
  if (value === undefined) return undefined;
  const time = DATE_TIME.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) throw new SamlVerificationError(`${where} ${name} is not a valid xs:dateTime`);
  return new Date(time);
}

function one(parent: Element, localName: string, what: string): Element {
  const found = childElements(parent, NS.assertion, localName);
  if (found.length !== 1 || !found[0])
    throw new SamlVerificationError(`the assertion must have exactly one ${what}`);
  return found[0];
}

/** Element text without XML white space around it; never JS `trim()`, which strips U+00A0 and U+FEFF too. */
function text(element: Element): string {
  return trimXmlSpace(element.textContent ?? '');
}

/** Checks a NotBefore / NotOnOrAfter pair against the clock with skew; returns NotOnOrAfter. */
function checkWindow(element: Element, where: string, rules: ClaimRules): Date | undefined {
  const now = rules.now.getTime();
  const skew = rules.skewSeconds * 1000;
  const notBefore = instant(element, 'NotBefore', where);
  const notOnOrAfter = instant(element, 'NotOnOrAfter', where);
  if (notBefore && now + skew < notBefore.getTime()) {
    throw new SamlVerificationError(
      `the assertion is not valid yet (${where} NotBefore is in the future; check the clocks)`,
    );
  }
  if (notOnOrAfter && now - skew >= notOnOrAfter.getTime()) {
    throw new SamlVerificationError(
      `the assertion has expired (${where} NotOnOrAfter has passed); get a fresh one`,
    );
  }
  return notOnOrAfter;
}

function checkAudiences(conditions: Element | undefined, rules: ClaimRules): void {
  const restrictions = conditions ? childElements(conditions, NS.assertion, 'AudienceRestriction') : [];
  if (restrictions.length === 0) {
    // RFC 7522 §3 item 2: the assertion MUST name the authorization server as an Audience.
    throw new SamlVerificationError(
      `the assertion has no Audience (RFC 7522 §3 requires a Conditions/AudienceRestriction/Audience naming this service); expected one of: ${rules.audiences.join(', ')}`,
    );
  }
  // Each AudienceRestriction must be met on its own (core §2.5.1.4).
  for (const restriction of restrictions) {
    const audiences = childElements(restriction, NS.assertion, 'Audience').map(text);
    if (!audiences.some((a) => rules.audiences.includes(a))) {
      throw new SamlVerificationError(
        `the assertion's Audience does not name this service; expected one of: ${rules.audiences.join(', ')}`,
      );
    }
  }
}

/** At least one bearer SubjectConfirmation whose data holds now; returns its NotOnOrAfter. */
function checkBearer(subject: Element, rules: ClaimRules): Date | undefined {
  const bearers = childElements(subject, NS.assertion, 'SubjectConfirmation').filter(
    (c) => attribute(c, 'Method') === CONFIRMATION_BEARER,
  );
  if (bearers.length === 0) {
    throw new SamlVerificationError(
      `the assertion's SubjectConfirmation Method must be ${CONFIRMATION_BEARER}`,
    );
  }
  let firstError: unknown;
  for (const bearer of bearers) {
    try {
      const data = childElements(bearer, NS.assertion, 'SubjectConfirmationData');
      if (data.length > 1)
        throw new SamlVerificationError('a SubjectConfirmation has several SubjectConfirmationData');
      if (!data[0]) return undefined;
      const recipient = attribute(data[0], 'Recipient');
      if (recipient !== undefined && !rules.audiences.includes(recipient)) {
        throw new SamlVerificationError(
          `the bearer SubjectConfirmationData Recipient does not name this service; expected one of: ${rules.audiences.join(', ')}`,
        );
      }
      return checkWindow(data[0], 'SubjectConfirmationData', rules);
    } catch (error) {
      firstError ??= error;
    }
  }
  throw firstError;
}

/**
 * Parses the signed canonical assertion and checks it against `rules`.
 *
 * @throws SamlVerificationError naming the first rule the assertion breaks
 */
export function checkAssertionClaims(
  signedXml: string,
  expectedId: string,
  rules: ClaimRules,
): AssertionClaims {
  const assertion = parseStrictXml(signedXml).documentElement;
  if (
    !assertion ||
    !isElement(assertion, NS.assertion, 'Assertion') ||
    attribute(assertion, 'ID') !== expectedId
  ) {
    throw new SamlVerificationError('the signature does not cover the assertion');
  }
  if (attribute(assertion, 'Version') !== '2.0') {
    throw new SamlVerificationError('the assertion Version must be 2.0');
  }
  const issued = instant(assertion, 'IssueInstant', 'Assertion');
  if (!issued) throw new SamlVerificationError('the assertion has no IssueInstant');
  if (issued.getTime() > rules.now.getTime() + rules.skewSeconds * 1000) {
    throw new SamlVerificationError('the assertion IssueInstant is in the future; check the clocks');
  }

  const issuer = text(one(assertion, 'Issuer', 'Issuer'));
  if (issuer !== rules.issuer) {
    throw new SamlVerificationError('the assertion Issuer is not the issuer registered for this application');
  }

  const conditions = childElements(assertion, NS.assertion, 'Conditions');
  if (conditions.length > 1)
    throw new SamlVerificationError('the assertion must have at most one Conditions');
  const conditionsEnd = conditions[0] ? checkWindow(conditions[0], 'Conditions', rules) : undefined;
  checkAudiences(conditions[0], rules);

  const subject = one(assertion, 'Subject', 'Subject');
  const bearerEnd = checkBearer(subject, rules);
  const ends = [conditionsEnd, bearerEnd].filter((d): d is Date => d !== undefined);
  if (ends.length === 0) {
    // Without an end the assertion would be valid, and its ID remembered, for ever (RFC 7522 §3 item 4).
    throw new SamlVerificationError(
      'the assertion has no NotOnOrAfter (in Conditions or SubjectConfirmationData)',
    );
  }
  const notOnOrAfter = new Date(Math.min(...ends.map((d) => d.getTime())));

  const nameIds = childElements(subject, NS.assertion, 'NameID');
  if (nameIds.length !== 1 || !nameIds[0]) {
    throw new SamlVerificationError(
      'the assertion Subject must have exactly one NameID (encrypted IDs are not supported)',
    );
  }
  const email = text(nameIds[0]);
  if (email === '') throw new SamlVerificationError('the assertion NameID is empty');
  const forbidden = forbiddenEmailCharacter(email);
  if (forbidden !== undefined) {
    // One user, one spelling: an invisible or look-alike white space must not reach anyone.
    throw new SamlVerificationError(
      `the assertion NameID contains ${forbidden}, a control, format or non-ASCII white-space character; send the plain email address`,
    );
  }
  return { assertionId: expectedId, email, notOnOrAfter };
}
