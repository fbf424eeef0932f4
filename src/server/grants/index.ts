/** The grant dispatch table of the token endpoint: one module per grant type (docs/contract.md §1). */
import type { GrantName } from '../config.js';
import { authorizationCodeGrant } from './authorization-code.js';
import { clientCredentialsGrant } from './client-credentials.js';
import type { GrantHandler } from './grant.js';
import { refreshTokenGrant } from './refresh-token.js';
import { saml2BearerGrant } from './saml2-bearer.js';

export const GRANT_HANDLERS: Record<GrantName, GrantHandler> = {
  authorization_code: authorizationCodeGrant,
  client_credentials: clientCredentialsGrant,
  refresh_token: refreshTokenGrant,
  'urn:ietf:params:oauth:client-assertion-type:saml2-bearer': saml2BearerGrant,
};
