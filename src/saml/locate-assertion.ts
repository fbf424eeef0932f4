/**
 * The one walk that finds the assertion of a SAML document, shared by the verifier
 * (verify-structure.ts), the signer (sign-assertion.ts) and `tokencli sso`'s look before sending
 * (inspect-document.ts), so the three agree on which assertion a document carries. Each caller
 * words its own refusal.
 */
import type { Element } from '@xmldom/xmldom';
import { NS } from './constants.js';
import { childElements, descendantElements, isElement } from './strict-xml.js';

export interface AssertionLocation {
  /** What the root element is: a samlp:Response, a saml:Assertion, or something else. */
  root: 'Response' | 'Assertion' | 'other';
  /** Every saml:Assertion of the document, the root included, in document order. */
  assertions: Element[];
  /**
   * The one assertion, when the document has exactly one and it is in its place: the root of an
   * Assertion document, or a direct child of a Response. Undefined otherwise.
   */
  assertion: Element | undefined;
  /** Whether some saml:EncryptedAssertion is present. */
  encrypted: boolean;
}

export function locateAssertion(root: Element): AssertionLocation {
  const kind = isElement(root, NS.protocol, 'Response')
    ? 'Response'
    : isElement(root, NS.assertion, 'Assertion')
      ? 'Assertion'
      : 'other';
  const nested = descendantElements(root, NS.assertion, 'Assertion');
  const assertions = kind === 'Assertion' ? [root, ...nested] : nested;
  const encrypted = descendantElements(root, NS.assertion, 'EncryptedAssertion').length > 0;
  let assertion: Element | undefined;
  if (assertions.length === 1) {
    if (kind === 'Assertion') assertion = root;
    else if (kind === 'Response') assertion = childElements(root, NS.assertion, 'Assertion')[0];
  }
  return { root: kind, assertions, assertion, encrypted };
}
