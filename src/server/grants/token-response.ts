/** The success body of the token endpoint, in the sample payload's shape (docs/contract.md §1). */
import type { JsonReply } from '../http/reply.js';
import type { AccessToken, TokenStore } from '../token-store.js';

/**
 * `access_token`, `token_type` (the platform's `"BearerToken"` unless the application is
 * configured otherwise), `expires_in` (remaining, rule 4), then
 * `refresh_token` + `refresh_token_expires_in` only when a refresh token goes with the access
 * token (rule 2), `redirect_url` (spelled as the sample; the application's registered URI, as the
 * field is documented) and `email`.
 */
export function tokenResponse(store: TokenStore, token: string, record: AccessToken): JsonReply {
  const body: Record<string, string | number> = {
    access_token: token,
    token_type: record.app.tokenType,
    expires_in: store.secondsLeft(record.expiresAt),
  };
  if (record.refresh !== null) {
    body.refresh_token = record.refresh.token;
    body.refresh_token_expires_in = store.secondsLeft(record.refresh.expiresAt);
  }
  body.redirect_url = record.app.redirectUris[0] as string;
  body.email = record.user.email;
  return { status: 200, body };
}
