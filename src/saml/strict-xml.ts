/**
 * The one way SAML text becomes a DOM here: DTDs and entity declarations refused before the
 * parser sees them (no XXE, no entity expansion), every parser warning and error fatal, exactly one
 * root element and nothing after it but whitespace (@xmldom/xmldom CVE-2022-39353 let several
 * roots through). Plus the few DOM walks the SAML code needs, namespace-aware throughout.
 */
import { DOMParser, type Document, type Element, type Node } from '@xmldom/xmldom';

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

/** `<!DOCTYPE` and `<!ENTITY` anywhere, whatever the case (SPEC.md §3: parsed without DTDs). */
const DTD_MARKUP = /<!\s*(DOCTYPE|ENTITY)/i;

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
    else if (node.nodeType === TEXT_NODE && (node.nodeValue ?? '').trim() !== '') {
      throw new XmlInputError('the XML has text outside its root element');
    }
  }
  if (roots !== 1 || !document.documentElement) {
    throw new XmlInputError('the XML must have exactly one root element');
  }
  return document;
}

/**
 * Whether `node` or anything below it is a comment or a processing instruction. Exclusive c14n
 * drops comments, so a comment splits what a reader sees from what was signed (the
 * `user@example.com<!---->.evil.com` NameID trick, xml-crypto CVE-2025-29775 in DigestValue).
 */
export function containsCommentOrInstruction(node: Node): boolean {
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === COMMENT_NODE) return true;
    if (child.nodeType === PROCESSING_INSTRUCTION_NODE && child.nodeName.toLowerCase() !== 'xml') return true;
    if (child.nodeType === ELEMENT_NODE && containsCommentOrInstruction(child)) return true;
  }
  return false;
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
  const result: Element[] = [];
  const walk = (node: Node) => {
    for (const child of childElements(node)) {
      if (child.namespaceURI === namespace && child.localName === localName) result.push(child);
      walk(child);
    }
  };
  walk(root);
  return result;
}

/** Every element of the tree rooted at `root`, `root` included, in document order. */
export function allElements(root: Element): Element[] {
  const result: Element[] = [root];
  for (const child of childElements(root)) result.push(...allElements(child));
  return result;
}

/** Whether `element` has this namespace and local name. */
export function isElement(element: Element, namespace: string, localName: string): boolean {
  return element.namespaceURI === namespace && element.localName === localName;
}

/** An attribute's value, or undefined when the attribute is absent. */
export function attribute(element: Element, name: string): string | undefined {
  return element.hasAttribute(name) ? (element.getAttribute(name) ?? undefined) : undefined;
}
