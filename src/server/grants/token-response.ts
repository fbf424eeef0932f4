/** The success body of the token endpoint, in the sample payload's shape (docs/contract.md §1). */
import { type JsonReply, JsonText } from '../http/reply.js';
import type { AccessToken, TokenStore } from '../token-store.js';
import { accessFieldsJson, refreshFieldsJson } from './answer-json.js';

/**
 * `access_token`, `token_type` (the platform's `"BearerToken"` unless the application is
 * configured otherwise), `expires_in` (remaining, rule 4), then
 * `refresh_token` + `refresh_token_expires_in` only when a refresh token goes with the access
 * token (rule 2), `redirect_url` (spelled as the sample; the application's registered URI, as the
 * field is documented) and `email`.
 */
export function tokenResponse(store: TokenStore, token: string, record: AccessToken): JsonReply {
  const { app, refresh } = record;
  let text = accessFieldsJson(token, app.json, store.secondsLeft(record.expiresAt));
  if (refresh !== null) text += refreshFieldsJson(refresh.token, store.secondsLeft(refresh.expiresAt));
  text += `${app.json.redirectUrl},"email":${record.user.emailJson}}`;
  return { status: 200, body: new JsonText(text) };
}
