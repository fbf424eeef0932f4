/**
 * Namespace and algorithm identifiers of SAML 2.0 (OASIS saml-core-2.0-os) and XML Signature
 * (W3C xmldsig-core1), named once so the builder, the signer and the verifier agree.
 */

export const NS = {
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

export const NAMEID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
/** saml-profiles-2.0-os §3.3: the bearer confirmation method (RFC 7522 §3 requires it). */
export const CONFIRMATION_BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
export const AUTHN_CONTEXT_UNSPECIFIED = 'urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified';
export const STATUS_SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

export const ALG = {
  rsaSha1: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
  rsaSha256: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  rsaSha512: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
  rsaPssSha256: 'http://www.w3.org/2007/05/xmldsig-more#sha256-rsa-MGF1',
  sha1: 'http://www.w3.org/2000/09/xmldsig#sha1',
  sha256: 'http://www.w3.org/2001/04/xmlenc#sha256',
  sha512: 'http://www.w3.org/2001/04/xmlenc#sha512',
  excC14n: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  excC14nWithComments: 'http://www.w3.org/2001/10/xml-exc-c14n#WithComments',
  envelopedSignature: 'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
} as const;

/** Signature methods the verifier accepts: RSA with SHA-256 or stronger, never SHA-1. */
export const ACCEPTED_SIGNATURE_METHODS: ReadonlySet<string> = new Set([
  ALG.rsaSha256,
  ALG.rsaSha512,
  ALG.rsaPssSha256,
]);

/** Digest methods the verifier accepts: SHA-256 or stronger, never SHA-1. */
export const ACCEPTED_DIGEST_METHODS: ReadonlySet<string> = new Set([ALG.sha256, ALG.sha512]);

/**
 * The only transforms a reference may list: the enveloped-signature transform and exclusive
 * canonicalisation without comments. Anything else (XPath, XSLT, inclusive or WithComments c14n)
 * widens what a signature can be made to cover.
 */
export const ACCEPTED_TRANSFORMS: ReadonlySet<string> = new Set([ALG.envelopedSignature, ALG.excC14n]);

/** Default limit on the decoded XML, for the client and the service alike. */
export const DEFAULT_MAX_SAML_BYTES = 256 * 1024;
