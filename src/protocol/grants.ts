/** The grant types of docs/contract.md §1, as they appear in `grant_type` and in an app's `grants`. */

export const GrantType = {
  authorizationCode: 'authorization_code',
  refreshToken: 'refresh_token',
  clientCredentials: 'client_credentials',
  /** RFC 7522 §2.1. */
  saml2Bearer: 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer',
} as const;

export type GrantTypeValue = (typeof GrantType)[keyof typeof GrantType];

/** Every grant type, in the order the service's configuration lists them. */
export const GRANT_NAMES = [
  GrantType.authorizationCode,
  GrantType.clientCredentials,
  GrantType.refreshToken,
  GrantType.saml2Bearer,
] as const;
