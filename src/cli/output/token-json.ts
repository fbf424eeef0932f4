/** A record as the `--json` document of `token`, `refresh`, `sso` and `login` (docs/contract.md §2.6). */
import type { TokenSource } from '../../oauth/types.js';
import type { TokenRecord } from '../../store/types.js';
import { maskToken, secondsUntil } from './format.js';

/**
 * The `--json` document: the same keys whatever produced the token. The refresh token (a 30-day
 * credential) is masked like the table unless `showTokens` (docs/contract.md §2.6): output pasted into a
 * bug report must not leak it. The access token is the result, so it is always shown.
 */
export function tokenJson(
  record: TokenRecord,
  profile: string,
  source: TokenSource,
  now: Date,
  showTokens = false,
): Record<string, unknown> {
  const json: Record<string, unknown> = {
    access_token: record.access_token,
    token_type: record.token_type,
    expires_in: Math.max(0, secondsUntil(record.expires_at, now) ?? 0),
    expires_at: record.expires_at,
  };
  if (record.refresh_token !== undefined) {
    json.refresh_token = showTokens ? record.refresh_token : maskToken(record.refresh_token);
    if (record.refresh_token_expires_at !== undefined) {
      json.refresh_token_expires_in = Math.max(0, secondsUntil(record.refresh_token_expires_at, now) ?? 0);
      json.refresh_token_expires_at = record.refresh_token_expires_at;
    }
  }
  if (record.redirect_uri !== undefined) json.redirect_uri = record.redirect_uri;
  if (record.email !== undefined) json.email = record.email;
  json.profile = profile;
  json.source = source;
  return json;
}
