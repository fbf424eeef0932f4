/**
 * The checks on a SAML form value that run before any signature work (docs/contract.md §3): size, base64,
 * UTF-8, no DTD or entities, one root, no comments, and a shape with exactly one place where
 * identity can come from — one Assertion, carrying exactly one Signature of its own, with an ID
 * that nothing else in the document shares. Wrapping attacks need a second assertion, a second
 * signature or a second element with the signed ID; all three are refused here.
 */
import type { Document, Element } from '@xmldom/xmldom';
import { NS, STATUS_SUCCESS } from './constants.js';
import { SamlVerificationError } from './errors.js';
import { locateAssertion } from './locate-assertion.js';
import {
  allElements,
  attribute,
  childElements,
  containsCommentOrInstruction,
  descendantElements,
  parseStrictXml,
  XmlInputError,
} from './strict-xml.js';

export type SamlKind = 'SAMLResponse' | 'SAMLAssertion';

/** The parsed document and the one assertion and signature to verify. */
export interface SamlStructure {
  xml: string;
  document: Document;
  assertion: Element;
  assertionId: string;
  signature: Element;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** The attributes xml-crypto resolves a reference URI against (any namespace). */
const ID_ATTRIBUTE_NAMES = new Set(['ID', 'Id', 'id']);

/** Decodes the form value to XML text, refusing oversize, non-base64 and non-UTF-8 input. */
export function decodeSamlValue(value: string, kind: SamlKind, maxBytes: number): string {
  const compact = value.replace(/[\s]+/g, '');
  if (compact.length > Math.ceil(maxBytes / 3) * 4) {
    throw new SamlVerificationError(`${kind} is larger than the ${Math.floor(maxBytes / 1024)} KiB accepted`);
  }
  if (compact === '' || !BASE64.test(compact) || compact.length % 4 === 1) {
    throw new SamlVerificationError(`${kind} must be the base64 encoding of the XML`);
  }
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > maxBytes) {
    throw new SamlVerificationError(`${kind} is larger than the ${Math.floor(maxBytes / 1024)} KiB accepted`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new SamlVerificationError(`${kind} does not decode to UTF-8 XML`);
  }
}

function parseRefusingComments(xml: string, kind: SamlKind): Document {
  let document: Document;
  try {
    document = parseStrictXml(xml);
  } catch (error) {
    // parseStrictXml's messages are its own and never quote the input; xmldom's stay in `cause`.
    const reason = error instanceof XmlInputError ? error.message : 'the XML could not be parsed';
    throw new SamlVerificationError(`${kind}: ${reason}`, error);
  }
  if (containsCommentOrInstruction(document)) {
    throw new SamlVerificationError(`${kind}: XML comments and processing instructions are not accepted`);
  }
  return document;
}

/** Finds the one assertion: the root of a SAMLAssertion, the one child Assertion of a SAMLResponse. */
function findAssertion(root: Element, kind: SamlKind): Element {
  const found = locateAssertion(root);
  if (found.encrypted) {
    throw new SamlVerificationError(
      `${kind}: encrypted assertions are not supported; send the assertion unencrypted`,
    );
  }
  if (kind === 'SAMLAssertion') {
    if (found.root !== 'Assertion') {
      throw new SamlVerificationError(
        found.root === 'Response'
          ? 'SAMLAssertion holds a samlp:Response; send it as SAMLResponse'
          : `SAMLAssertion must be a SAML 2.0 Assertion (namespace ${NS.assertion})`,
      );
    }
    if (!found.assertion) {
      throw new SamlVerificationError(
        'SAMLAssertion: assertions nested inside the assertion are not accepted',
      );
    }
    return found.assertion;
  }
  if (found.root !== 'Response') {
    throw new SamlVerificationError(
      found.root === 'Assertion'
        ? 'SAMLResponse holds a bare saml:Assertion; send it as SAMLAssertion'
        : `SAMLResponse must be a SAML 2.0 Response (namespace ${NS.protocol})`,
    );
  }
  if (!found.assertion) {
    throw new SamlVerificationError(
      'SAMLResponse must contain exactly one Assertion, directly in the Response',
    );
  }
  // Status is outside the signed assertion, so it may only ever make us refuse, never accept.
  const statusCodes = childElements(root, NS.protocol, 'Status').flatMap((s) =>
    childElements(s, NS.protocol, 'StatusCode'),
  );
  const status = statusCodes[0] ? attribute(statusCodes[0], 'Value') : undefined;
  if (status !== undefined && status !== STATUS_SUCCESS) {
    throw new SamlVerificationError('SAMLResponse status is not Success');
  }
  return found.assertion;
}

/** Exactly one Signature inside the assertion, as its direct child; elsewhere only the Response's own. */
function locateSignature(root: Element, assertion: Element, kind: SamlKind): Element {
  const inAssertion = descendantElements(assertion, NS.dsig, 'Signature');
  if (inAssertion.length === 0) {
    throw new SamlVerificationError(
      `${kind}: the assertion is not signed (a signature on the Response alone is not enough; RFC 7522 §3)`,
    );
  }
  const signature = childElements(assertion, NS.dsig, 'Signature');
  if (inAssertion.length !== 1 || signature.length !== 1 || !signature[0]) {
    throw new SamlVerificationError(
      `${kind}: the assertion must carry exactly one Signature, as its direct child`,
    );
  }
  const all = root === assertion ? inAssertion : descendantElements(root, NS.dsig, 'Signature');
  const responseSignatures = root === assertion ? [] : childElements(root, NS.dsig, 'Signature');
  if (all.length !== 1 + responseSignatures.length || responseSignatures.length > 1) {
    throw new SamlVerificationError(`${kind}: unexpected Signature elements outside the assertion`);
  }
  return signature[0];
}

/** The assertion's ID, present and carried by no other element of the document. */
function uniqueAssertionId(root: Element, assertion: Element, kind: SamlKind): string {
  const id = attribute(assertion, 'ID');
  if (!id) throw new SamlVerificationError(`${kind}: the assertion has no ID attribute`);
  const values = new Set<string>();
  for (const element of allElements(root)) {
    for (const attr of Array.from(element.attributes)) {
      if (!ID_ATTRIBUTE_NAMES.has(attr.localName ?? attr.name)) continue;
      if (values.has(attr.value)) {
        throw new SamlVerificationError(`${kind}: the document contains duplicated ID attributes`);
      }
      values.add(attr.value);
    }
  }
  return id;
}

/**
 * Decodes and parses a SAMLResponse or SAMLAssertion form value and finds the one assertion and
 * its signature, refusing any other shape before a signature is looked at.
 *
 * @throws SamlVerificationError naming the rule broken
 */
export function readSamlStructure(value: string, kind: SamlKind, maxBytes: number): SamlStructure {
  const text = decodeSamlValue(value, kind, maxBytes);
  // TextDecoder removed a leading byte-order mark; leading white space before `<?xml` is not XML.
  // XML white space only: JS trimStart() would also drop U+00A0 and friends.
  const xml = text.replace(/^[ \t\r\n]+/, '');
  const document = parseRefusingComments(xml, kind);
  const root = document.documentElement;
  if (!root) throw new SamlVerificationError(`${kind}: the XML has no root element`);
  const assertion = findAssertion(root, kind);
  const signature = locateSignature(root, assertion, kind);
  const assertionId = uniqueAssertionId(root, assertion, kind);
  return { xml, document, assertion, assertionId, signature };
}
