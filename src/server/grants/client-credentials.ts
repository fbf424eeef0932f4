/** grant_type=client_credentials: the platform's variant, with the user's email and password (docs/contract.md §1). */
import { invalidCredentialsError, oauthError } from '../../protocol/error-bodies.js';
import type { GrantHandler } from './grant.js';
import { beginSession } from './session-rule.js';
import { tokenResponse } from './token-response.js';

export const clientCredentialsGrant: GrantHandler = (
  { app, params, endOtherSessions },
  { registry, store },
) => {
  const email = params.get('email');
  const password = params.get('password');
  if (email === undefined || password === undefined) {
    return oauthError(
      400,
      'invalid_request',
      'email and password are required for grant_type client_credentials',
    );
  }
  const user = registry.authenticateUser(email, password);
  if (!user) return invalidCredentialsError();
  const refusal = beginSession(store, user, endOtherSessions);
  if (refusal) return refusal;
  // No refresh token: those come only with the authorization-code flow (docs/contract.md §1 rule 2).
  const [token, record] = store.issueAccessToken(app, user, null);
  return tokenResponse(store, token, record);
};
