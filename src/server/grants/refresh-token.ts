/**
 * grant_type=refresh_token (RFC 6749 §6).
 *
 * Rotation: the real service's behaviour is not documented, so the refresh token is kept, not
 * rotated: the answer carries the same refresh token with its remaining lifetime, and it stays
 * usable until it expires (docs/contract.md §3 "refresh tokens only while unexpired"). A client that
 * stores whatever refresh token it receives works either way.
 *
 * Sessions: a refresh continues its own session, so the concurrent-session rule has nothing to
 * refuse: a single-session user never holds two live sessions (a second could only begin by
 * ending the first, whose refresh token is then revoked and refused here as invalid_grant).
 * `endOtherSessions=True` ends every other session of the user and keeps this one.
 */
import { oauthError } from '../../protocol/error-bodies.js';
import type { GrantHandler } from './grant.js';
import { tokenResponse } from './token-response.js';

export const refreshTokenGrant: GrantHandler = ({ app, params, endOtherSessions }, { store }) => {
  const value = params.get('refresh_token');
  if (value === undefined) return oauthError(400, 'invalid_request', 'refresh_token is required');
  const refresh = store.findRefreshToken(value);
  if (!refresh || refresh.app !== app) {
    return oauthError(400, 'invalid_grant', 'the refresh token is invalid, expired or revoked');
  }
  if (endOtherSessions) store.endSessions(refresh.user, refresh);
  const [token, record] = store.issueAccessToken(app, refresh.user, refresh);
  return tokenResponse(store, token, record);
};
