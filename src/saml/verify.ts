/**
 * `verifySamlBearer`: the service side of the saml2-bearer grant (docs/contract.md §3, RFC 7522 §3), as a
 * pure function the token endpoint calls with the form value and the application's SSO
 * registration. Order matters: everything that can be refused without cryptography is refused
 * first; identity is read only from the signed content; the assertion ID is spent last, only when
 * every other check has passed, so a refused assertion never burns its ID.
 */
import { checkAssertionClaims } from './assertion-claims.js';
import { DEFAULT_MAX_SAML_BYTES } from './constants.js';
import { SamlVerificationError } from './errors.js';
import { KeyInputError, verificationKeyFromPem } from './keys.js';
import type { ReplayGuard } from './replay-cache.js';
import { checkSignaturePolicy } from './signature-policy.js';
import { verifiedSignedContent } from './verify-signature.js';
import { readSamlStructure, type SamlKind } from './verify-structure.js';

export interface SamlTrust {
  /** The identity provider's entity ID registered for the application. */
  issuer: string;
  /** The registered CERTIFICATE or PUBLIC KEY PEM; the only key a signature is checked against. */
  publicKeyPem: string;
}

export interface VerifySamlBearerOptions {
  /** Which form field the value came in. */
  kind: SamlKind;
  trust: SamlTrust;
  /** Audience values that name this service (e.g. its base URL and token endpoint URL). */
  audiences: readonly string[];
  /** The clock; tests pass a fixed date. */
  now?: Date;
  /** Allowed clock difference for NotBefore / NotOnOrAfter / IssueInstant; default 60 s. */
  skewSeconds?: number;
  /** Limit on the decoded XML; default 256 KiB. */
  maxBytes?: number;
  /** Whether the NameID is a user of this service. */
  isKnownUser: (email: string) => boolean;
  /** Records assertion IDs; `ReplayCache` is the in-memory implementation. */
  replay: ReplayGuard;
}

export interface VerifiedSamlBearer {
  email: string;
  assertionId: string;
  notOnOrAfter?: Date;
}

/**
 * Verifies a base64 SAMLResponse or SAMLAssertion and returns the user it vouches for.
 *
 * @throws SamlVerificationError whose message tells the integrator which rule failed; it never
 *   contains key material, digests or parser internals
 */
export function verifySamlBearer(base64: string, options: VerifySamlBearerOptions): VerifiedSamlBearer {
  const now = options.now ?? new Date();
  const skewSeconds = options.skewSeconds ?? 60;
  let verificationKey: string;
  try {
    verificationKey = verificationKeyFromPem(options.trust.publicKeyPem);
  } catch (error) {
    if (error instanceof KeyInputError) {
      throw new SamlVerificationError('the certificate registered for this application is not usable', error);
    }
    throw error;
  }

  const structure = readSamlStructure(base64, options.kind, options.maxBytes ?? DEFAULT_MAX_SAML_BYTES);
  checkSignaturePolicy(structure.signature, structure.assertionId);
  const signedXml = verifiedSignedContent(structure.xml, structure.signature, verificationKey);

  const claims = checkAssertionClaims(signedXml, structure.assertionId, {
    issuer: options.trust.issuer,
    audiences: options.audiences,
    now,
    skewSeconds,
  });
  if (!options.isKnownUser(claims.email)) {
    throw new SamlVerificationError('the assertion NameID is not a known user of this service');
  }
  // Remembered until the assertion could no longer be accepted anyway, skew included.
  if (options.replay.seen(claims.assertionId, claims.notOnOrAfter.getTime() + skewSeconds * 1000)) {
    throw new SamlVerificationError('the assertion ID was already used; each assertion is accepted once');
  }
  return { email: claims.email, assertionId: claims.assertionId, notOnOrAfter: claims.notOnOrAfter };
}
