/** grant_type=authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.5–4.6, docs/contract.md §1 rule 3). */
import { oauthError } from '../../protocol/error-bodies.js';
import { isWellFormedVerifier, verifierMatches } from '../../protocol/pkce.js';
import type { GrantHandler } from './grant.js';
import { beginSession } from './session-rule.js';
import { tokenResponse } from './token-response.js';

export const authorizationCodeGrant: GrantHandler = ({ app, params, endOtherSessions }, { store }) => {
  const value = params.get('code');
  if (value === undefined) return oauthError(400, 'invalid_request', 'code is required');

  // The code is spent by this lookup whatever happens next: codes are good for one attempt.
  const lookup = store.takeCode(value);
  if (lookup.kind === 'replayed') {
    return oauthError(
      400,
      'invalid_grant',
      'the authorization code was already used; the tokens issued for it are revoked',
    );
  }
  if (lookup.kind === 'invalid') {
    return oauthError(400, 'invalid_grant', 'the authorization code is invalid or expired');
  }
  const { code } = lookup;
  if (code.app !== app) {
    return oauthError(400, 'invalid_grant', 'the authorization code was issued to another client');
  }
  const redirectUri = params.get('redirect_uri');
  if (redirectUri === undefined && code.redirectUriRequired) {
    // RFC 6749 §4.1.3: required when the authorization request included it.
    return oauthError(
      400,
      'invalid_grant',
      'redirect_uri is required: the authorization request had one, and the exchange must repeat it',
    );
  }
  if (redirectUri !== undefined && redirectUri !== code.redirectUri) {
    return oauthError(400, 'invalid_grant', 'redirect_uri differs from the one of the authorization request');
  }

  const verifier = params.get('code_verifier');
  if (code.codeChallenge !== null) {
    if (verifier === undefined) {
      return oauthError(
        400,
        'invalid_grant',
        'code_verifier is required: the authorization request had a code_challenge',
      );
    }
    if (!isWellFormedVerifier(verifier) || !verifierMatches(verifier, code.codeChallenge)) {
      return oauthError(400, 'invalid_grant', 'code_verifier does not match the code_challenge');
    }
  } else if (verifier !== undefined) {
    // A verifier for a code issued without a challenge means a PKCE downgrade (RFC 9700 §2.1.1).
    return oauthError(
      400,
      'invalid_grant',
      'code_verifier given, but the authorization request had no code_challenge',
    );
  }

  const refusal = beginSession(store, code.user, endOtherSessions || code.endOtherSessions);
  if (refusal) return refusal;
  const refresh = app.refreshTokens ? store.issueRefreshToken(app, code.user) : null;
  const [token, record] = store.issueAccessToken(app, code.user, refresh);
  store.recordCodeTokens(code, token, refresh === null ? null : refresh.token);
  return tokenResponse(store, token, record);
};
