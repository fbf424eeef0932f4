/**
 * A client-side look at a SAML document before it is sent: which kind it is and whether its
 * assertion carries a signature, so `tokencli sso` can say "use --saml-response" or "sign it with
 * --sign-key" instead of letting the service answer a bare `invalid_grant`.
 */
import { UsageError } from '../errors.js';
import { NS } from './constants.js';
import { locateAssertion } from './locate-assertion.js';
import { childElements, parseStrictXml } from './strict-xml.js';

export interface SamlDocumentFacts {
  root: 'Response' | 'Assertion';
  /** Whether some assertion in it has a ds:Signature child. */
  assertionSigned: boolean;
}

/**
 * Parses `xml` strictly and reports its kind.
 *
 * @throws UsageError (exit 2) for XML that is malformed, has a DTD, or is no SAML 2.0 Response or Assertion
 */
export function inspectSamlDocument(xml: string, label: string): SamlDocumentFacts {
  let root: ReturnType<typeof parseStrictXml>['documentElement'];
  try {
    root = parseStrictXml(xml).documentElement;
  } catch (error) {
    throw new UsageError(
      `${label}: ${(error as Error).message}`,
      'pass the SAML XML your identity provider issued',
      error,
    );
  }
  if (!root) throw new UsageError(`${label}: the XML has no root element`);
  const found = locateAssertion(root);
  const kind = found.root;
  if (kind === 'other') {
    throw new UsageError(
      `${label} is not a SAML 2.0 Response or Assertion (its root element is ${root.localName})`,
      `a SAML 2.0 Assertion is in the namespace ${NS.assertion}`,
    );
  }
  const assertionSigned = found.assertions.some((a) => childElements(a, NS.dsig, 'Signature').length > 0);
  return { root: kind, assertionSigned };
}
