/**
 * The cryptographic check, done by xml-crypto against the registered key only, and the one place
 * signed content comes from: the canonical XML xml-crypto returns for the reference it verified
 * (`getSignedReferences()`), never nodes of the received document (node-saml CVE-2025-54419).
 */
import type { Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { SamlVerificationError } from './errors.js';

/**
 * Verifies `signature` (already checked by `checkSignaturePolicy`) over `xml` with
 * `verificationKeyPem` (SPKI PEM) and returns the canonical XML of the signed assertion.
 *
 * @throws SamlVerificationError when the digest or the signature value does not verify
 */
export function verifiedSignedContent(xml: string, signature: Element, verificationKeyPem: string): string {
  const verifier = new SignedXml({
    publicCert: verificationKeyPem,
    // A key carried in the document's KeyInfo is the attacker's choice (xml-crypto CVE-2024-32962):
    // only the registered key counts, so KeyInfo is never read.
    getCertFromKeyInfo: () => null,
  });
  let valid: boolean;
  try {
    // xml-crypto types its DOM parameters with the global DOM types this project does not load.
    verifier.loadSignature(signature as unknown as Parameters<SignedXml['loadSignature']>[0]);
    valid = verifier.checkSignature(xml);
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (message.startsWith('invalid signature: the signature value')) {
      throw new SamlVerificationError(
        'the assertion signature does not verify with the certificate registered for this application',
        error,
      );
    }
    throw new SamlVerificationError('the assertion signature could not be verified', error);
  }
  if (!valid) {
    throw new SamlVerificationError(
      'the signed assertion was changed after signing (digest mismatch); send it exactly as the identity provider signed it',
    );
  }
  const signed = verifier.getSignedReferences();
  if (signed.length !== 1 || signed[0] === undefined) {
    throw new SamlVerificationError('the assertion signature must cover exactly the assertion');
  }
  return signed[0];
}
