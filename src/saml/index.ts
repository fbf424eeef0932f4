/**
 * SAML for the saml2-bearer grant, shared by `tokencli sso` (build, sign, encode) and the local
 * token service (verify). Import from here.
 */
export { type BuildAssertionOptions, buildAssertion, escapeXml, newAssertionId } from './build-assertion.js';
export { DEFAULT_MAX_SAML_BYTES } from './constants.js';
export { type EncodeSamlInputOptions, encodeSamlInput } from './encode-input.js';
export { SamlVerificationError } from './errors.js';
export { ReplayCache, type ReplayCacheOptions, type ReplayGuard } from './replay-cache.js';
export { type SignAssertionKeys, signAssertion } from './sign-assertion.js';
export {
  type SamlTrust,
  type VerifiedSamlBearer,
  type VerifySamlBearerOptions,
  verifySamlBearer,
} from './verify.js';
export type { SamlKind } from './verify-structure.js';
