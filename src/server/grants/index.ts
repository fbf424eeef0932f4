/**
 * The grant dispatch table of the token endpoint: one module per grant type. The SAML grant
 * (`urn:ietf:params:oauth:client-assertion-type:saml2-bearer`) gets its entry when SAML
 * verification lands; until then the endpoint answers it with `unsupported_grant_type`.
 */
import type { GrantName } from '../config.js';
import { authorizationCodeGrant } from './authorization-code.js';
import { clientCredentialsGrant } from './client-credentials.js';
import type { GrantHandler } from './grant.js';
import { refreshTokenGrant } from './refresh-token.js';

export const GRANT_HANDLERS: Partial<Record<GrantName, GrantHandler>> = {
  authorization_code: authorizationCodeGrant,
  client_credentials: clientCredentialsGrant,
  refresh_token: refreshTokenGrant,
};
