/**
 * The one way SAML text becomes a DOM here: DTDs and entity declarations refused before the
 * parser sees them (no XXE, no entity expansion), every parser warning and error fatal, exactly one
 * root element and nothing after it but whitespace (@xmldom/xmldom CVE-2022-39353 let several
 * roots through). Plus the few DOM walks the SAML code needs, namespace-aware throughout.
 */
import { DOMParser, type Document, type Element, type Node } from '@xmldom/xmldom';
import { trimXmlSpace } from '../text/email-identity.js';

/** Malformed or refused XML; callers turn it into their own error (usage or verification). */
export class XmlInputError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'XmlInputError';
  }
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const PROCESSING_INSTRUCTION_NODE = 7;
const COMMENT_NODE = 8;

/** `<!DOCTYPE` and `<!ENTITY` anywhere, whatever the case (docs/contract.md §3: parsed without DTDs). */
const DTD_MARKUP = /<!\s*(DOCTYPE|ENTITY)/i;

/**
 * NEL and LINE SEPARATOR: xmldom turns them into line feeds (XML 1.1 §2.11) where XML 1.0 parsers
 * keep them, so `kate@example.com<U+0085>` would be read as `kate@example.com` plus trimmed white
 * space by us and as something else by the identity provider. No real assertion holds them.
 */
const XML11_LINE_ENDS = /[\u0085\u2028]/;

/**
 * How deep elements may nest. A real SAML Response is about eight levels deep (Response, Assertion,
 * Signature, KeyInfo, X509Data, …); the limit is far above that and far below what would strain
 * the recursive walks of the libraries that see the document after us (xml-crypto's c14n).
 */
export const MAX_XML_DEPTH = 64;

/**
 * Parses `text` as a standalone XML document, refusing DTDs, entity declarations, unknown entity
 * references, several root elements and trailing content.
 *
 * @throws XmlInputError naming what is wrong, without echoing the input
 */
export function parseStrictXml(text: string): Document {
  if (DTD_MARKUP.test(text)) {
    throw new XmlInputError('XML with a DOCTYPE or ENTITY declaration is not accepted');
  }
  if (XML11_LINE_ENDS.test(text)) {
    throw new XmlInputError(
      'XML with the line ends U+0085 or U+2028 is not accepted (XML parsers read them differently)',
    );
  }
  let document: Document;
  try {
    document = new DOMParser({
      // Warnings too: xmldom reports recoverable oddities as warnings and carries on, and a
      // document two parsers read differently is how signature checks get bypassed.
      onError: (level, message) => {
        throw new XmlInputError(`${level}: ${message}`);
      },
    }).parseFromString(text, 'application/xml');
  } catch (error) {
    throw new XmlInputError('the XML is not well-formed', error);
  }
  let roots = 0;
  for (const node of Array.from(document.childNodes)) {
    if (node.nodeType === ELEMENT_NODE) roots += 1;
    else if (node.nodeType === TEXT_NODE && trimXmlSpace(node.nodeValue ?? '') !== '') {
      throw new XmlInputError('the XML has text outside its root element');
    }
  }
  if (roots !== 1 || !document.documentElement) {
    throw new XmlInputError('the XML must have exactly one root element');
  }
  if (depthExceeds(document.documentElement, MAX_XML_DEPTH)) {
    throw new XmlInputError(`the XML nests elements more than ${MAX_XML_DEPTH} levels deep`);
  }
  return document;
}

/** Whether elements below `root` (`root` being level 1) nest deeper than `limit`; iterative. */
function depthExceeds(root: Element, limit: number): boolean {
  const stack: Array<[Node, number]> = [[root, 1]];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [node, depth] = entry;
    if (depth > limit) return true;
    for (const child of childElements(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Every node below `root` (not `root` itself), in document order, without recursion: the depth is
 * bounded by `parseStrictXml`, but a walk should not depend on that to stay off the call stack.
 */
function descendants(root: Node): Node[] {
  const result: Node[] = [];
  const stack: Node[] = Array.from(root.childNodes).reverse();
  for (let node = stack.pop(); node; node = stack.pop()) {
    result.push(node);
    const children = Array.from(node.childNodes);
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i] as Node);
  }
  return result;
}

/**
 * Whether `node` or anything below it is a comment or a processing instruction. Exclusive c14n
 * drops comments, so a comment splits what a reader sees from what was signed (the
 * `user@example.com<!---->.evil.com` NameID trick, xml-crypto CVE-2025-29775 in DigestValue).
 */
export function containsCommentOrInstruction(node: Node): boolean {
  return descendants(node).some(
    (child) =>
      child.nodeType === COMMENT_NODE ||
      (child.nodeType === PROCESSING_INSTRUCTION_NODE && child.nodeName.toLowerCase() !== 'xml'),
  );
}

/** Element children of `parent`, optionally only those with this namespace and local name. */
export function childElements(parent: Node, namespace?: string, localName?: string): Element[] {
  const result: Element[] = [];
  for (const child of Array.from(parent.childNodes)) {
    if (child.nodeType !== ELEMENT_NODE) continue;
    const element = child as Element;
    if (namespace !== undefined && element.namespaceURI !== namespace) continue;
    if (localName !== undefined && element.localName !== localName) continue;
    result.push(element);
  }
  return result;
}

/** Every element below `root` (not `root` itself) with this namespace and local name. */
export function descendantElements(root: Node, namespace: string, localName: string): Element[] {
  return descendants(root).filter(
    (node): node is Element =>
      node.nodeType === ELEMENT_NODE &&
      (node as Element).namespaceURI === namespace &&
      (node as Element).localName === localName,
  );
}

/** Every element of the tree rooted at `root`, `root` included, in document order. */
export function allElements(root: Element): Element[] {
  const below = descendants(root).filter((node): node is Element => node.nodeType === ELEMENT_NODE);
  return [root, ...below];
}

/** Whether `element` has this namespace and local name. */
export function isElement(element: Element, namespace: string, localName: string): boolean {
  return element.namespaceURI === namespace && element.localName === localName;
}

/** An attribute's value, or undefined when the attribute is absent. */
export function attribute(element: Element, name: string): string | undefined {
  return element.hasAttribute(name) ? (element.getAttribute(name) ?? undefined) : undefined;
}
