/**
 * What a signature must look like before xml-crypto is asked to check it: one SignedInfo, one
 * Reference pointing at the assertion's own ID, exclusive c14n, RSA with SHA-256 or stronger,
 * SHA-256 or stronger digests, and no transforms but enveloped-signature and exclusive c14n.
 * xml-crypto would happily verify rsa-sha1, inclusive or WithComments c14n and a Reference to any
 * element; those are decisions for the relying party, taken here (xmldsig-bestpractices §2).
 */
import type { Element } from '@xmldom/xmldom';
import {
  ACCEPTED_DIGEST_METHODS,
  ACCEPTED_SIGNATURE_METHODS,
  ACCEPTED_TRANSFORMS,
  ALG,
  NS,
} from './constants.js';
import { SamlVerificationError } from './errors.js';
import { attribute, childElements, descendantElements } from './strict-xml.js';

function exactlyOne(parent: Element, localName: string, what: string): Element {
  const found = childElements(parent, NS.dsig, localName);
  const anywhere = descendantElements(parent, NS.dsig, localName);
  if (found.length !== 1 || anywhere.length !== 1 || !found[0]) {
    throw new SamlVerificationError(`the assertion signature must have exactly one ${what}`);
  }
  return found[0];
}

function algorithmOf(element: Element): string {
  return attribute(element, 'Algorithm') ?? '';
}

/** An algorithm URI from the document, shortened for a message: it is the sender's own text. */
function shown(algorithm: string): string {
  if (algorithm === '') return '(none)';
  return algorithm.length > 80 ? `${algorithm.slice(0, 80)}…` : algorithm;
}

/**
 * Checks the shape and algorithms of `signature` (a ds:Signature element) and that its one
 * Reference names `#assertionId`.
 *
 * @throws SamlVerificationError naming the algorithm or element refused
 */
export function checkSignaturePolicy(signature: Element, assertionId: string): void {
  const signedInfo = exactlyOne(signature, 'SignedInfo', 'SignedInfo');

  const c14n = algorithmOf(exactlyOne(signedInfo, 'CanonicalizationMethod', 'CanonicalizationMethod'));
  if (c14n !== ALG.excC14n) {
    throw new SamlVerificationError(
      `signature canonicalization ${shown(c14n)} is not accepted; use exclusive c14n (${ALG.excC14n})`,
    );
  }
  const method = algorithmOf(exactlyOne(signedInfo, 'SignatureMethod', 'SignatureMethod'));
  if (!ACCEPTED_SIGNATURE_METHODS.has(method)) {
    throw new SamlVerificationError(
      `signature algorithm ${shown(method)} is not accepted; sign with RSA-SHA256 (${ALG.rsaSha256})`,
    );
  }

  const reference = exactlyOne(signedInfo, 'Reference', 'Reference');
  if (attribute(reference, 'URI') !== `#${assertionId}`) {
    throw new SamlVerificationError(
      'the signature reference does not point to the assertion (URI must be #<assertion ID>)',
    );
  }
  const transforms = childElements(reference, NS.dsig, 'Transforms');
  if (transforms.length > 1) {
    throw new SamlVerificationError('the assertion signature must have at most one Transforms');
  }
  const transformList = transforms[0] ? childElements(transforms[0], NS.dsig, 'Transform') : [];
  for (const transform of transformList) {
    const algorithm = algorithmOf(transform);
    if (!ACCEPTED_TRANSFORMS.has(algorithm)) {
      throw new SamlVerificationError(
        `signature transform ${shown(algorithm)} is not accepted; use only enveloped-signature and exclusive c14n`,
      );
    }
  }
  if (!transformList.some((t) => algorithmOf(t) === ALG.envelopedSignature)) {
    throw new SamlVerificationError('the assertion signature must use the enveloped-signature transform');
  }
  const digest = algorithmOf(exactlyOne(reference, 'DigestMethod', 'DigestMethod'));
  if (!ACCEPTED_DIGEST_METHODS.has(digest)) {
    throw new SamlVerificationError(
      `digest algorithm ${shown(digest)} is not accepted; use SHA-256 (${ALG.sha256})`,
    );
  }
  exactlyOne(reference, 'DigestValue', 'DigestValue');
  exactlyOne(signature, 'SignatureValue', 'SignatureValue');
}
