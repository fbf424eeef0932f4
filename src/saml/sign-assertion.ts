/**
 * Signs the assertion of a SAML document the way the service verifies it (docs/contract.md §3, RFC 7522
 * §3 item 8): an enveloped XML signature over the assertion's ID, RSA-SHA256, SHA-256 digest,
 * exclusive canonicalisation, placed right after the assertion's Issuer as the schema orders it.
 * Canonicalisation and signing are xml-crypto's; nothing here serialises signed content by hand.
 */
import { SignedXml } from 'xml-crypto';
import { InputError, TokencliError, UsageError } from '../errors.js';
import { ALG, NS } from './constants.js';
import { KeyInputError, publishableCertificate, signingKeyFromPem } from './keys.js';
import { locateAssertion } from './locate-assertion.js';
import { attribute, childElements, descendantElements, parseStrictXml } from './strict-xml.js';

export interface SignAssertionKeys {
  /** PEM text of an unencrypted RSA private key, read by the caller from a file. */
  privateKeyPem: string;
  /** PEM certificate of that key; when given it is published in KeyInfo (X509Data). */
  certificatePem?: string | undefined;
}

const ASSERTION_XPATH = `//*[local-name(.)='Assertion' and namespace-uri(.)='${NS.assertion}']`;
const ISSUER_XPATH = `${ASSERTION_XPATH}/*[local-name(.)='Issuer' and namespace-uri(.)='${NS.assertion}']`;

/** Finds the one assertion to sign: the root, or the single Assertion child of a Response. */
function assertionToSign(xml: string) {
  let document: ReturnType<typeof parseStrictXml>;
  try {
    document = parseStrictXml(xml);
  } catch (error) {
    throw new UsageError(
      `cannot sign the SAML input: ${(error as Error).message}`,
      'pass well-formed XML',
      error,
    );
  }
  const root = document.documentElement;
  if (!root) throw new UsageError('cannot sign the SAML input: it has no root element');
  const found = locateAssertion(root);
  if (found.root === 'other') {
    throw new UsageError(
      `cannot sign the SAML input: its root element is ${root.localName}, not a SAML 2.0 Assertion or Response`,
      `the Assertion must be in the namespace ${NS.assertion}`,
    );
  }
  const assertion = found.assertion;
  if (!assertion) {
    if (found.root === 'Assertion') {
      throw new UsageError('cannot sign the SAML assertion: it contains another Assertion');
    }
    throw new UsageError(
      'cannot sign the SAML response: it must contain exactly one Assertion',
      'send one assertion per response',
    );
  }
  if (!attribute(assertion, 'ID')) {
    throw new UsageError(
      'cannot sign the SAML assertion: it has no ID attribute',
      'give the Assertion an ID',
    );
  }
  if (childElements(assertion, NS.assertion, 'Issuer').length !== 1) {
    throw new UsageError('cannot sign the SAML assertion: it must have exactly one Issuer');
  }
  if (descendantElements(assertion, NS.dsig, 'Signature').length > 0) {
    throw new InputError('the SAML assertion is already signed', 'assertion_already_signed');
  }
}

/**
 * Returns `xml` with its assertion signed (an enveloped signature after the assertion's Issuer).
 * Works on a bare `<saml:Assertion>` and on a `<samlp:Response>` holding exactly one.
 *
 * @throws UsageError (exit 2) for input that is not such a document, an already signed assertion,
 *   or an unusable key or certificate; messages never contain key material
 */
export function signAssertion(xml: string, keys: SignAssertionKeys): string {
  assertionToSign(xml);
  let privateKey: string;
  let publicCert: string | undefined;
  try {
    const signing = signingKeyFromPem(keys.privateKeyPem);
    privateKey = signing.pkcs8Pem;
    publicCert =
      keys.certificatePem === undefined
        ? undefined
        : publishableCertificate(keys.certificatePem, signing.key);
  } catch (error) {
    if (error instanceof KeyInputError) {
      const { message, hint, reason } = error;
      throw new TokencliError(message, { code: 'usage', hint, reason });
    }
    throw error;
  }
  const signer = new SignedXml({
    privateKey,
    publicCert,
    signatureAlgorithm: ALG.rsaSha256,
    canonicalizationAlgorithm: ALG.excC14n,
  });
  signer.addReference({
    xpath: ASSERTION_XPATH,
    transforms: [ALG.envelopedSignature, ALG.excC14n],
    digestAlgorithm: ALG.sha256,
  });
  signer.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: ISSUER_XPATH, action: 'after' },
  });
  return signer.getSignedXml();
}
