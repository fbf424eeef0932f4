/**
 * Turns a token response into the stored record (SPEC.md §2.7) and a record into the `--json`
 * document of `token`, `refresh`, `sso` and `login` (SPEC.md §2.6).
 */
import type { TokenSet, TokenSource } from '../oauth/types.js';
import type { TokenRecord } from '../store/types.js';
import { maskToken, secondsUntil } from './format.js';

export interface RecordContext {
  baseUrl: string;
  clientId: string;
  grant: TokenRecord['grant'];
  now: Date;
  /**
   * The record being replaced. A refresh response carries no refresh token (only the
   * authorization-code grant issues one, SPEC.md §1 rule 2), so the old one is kept.
   */
  previous?: TokenRecord | undefined;
}

export function toRecord(tokens: TokenSet, context: RecordContext): TokenRecord {
  const { previous } = context;
  const keepRefresh = tokens.refresh_token === undefined && previous?.refresh_token !== undefined;
  const record: TokenRecord = {
    base_url: context.baseUrl,
    client_id: context.clientId,
    access_token: tokens.access_token,
    token_type: tokens.token_type,
    expires_at: tokens.expires_at,
    grant: context.grant,
    obtained_at: context.now.toISOString(),
  };
  const refreshToken = keepRefresh ? previous?.refresh_token : tokens.refresh_token;
  const refreshExpiresAt = keepRefresh ? previous?.refresh_token_expires_at : tokens.refresh_token_expires_at;
  if (refreshToken !== undefined) record.refresh_token = refreshToken;
  if (refreshToken !== undefined && refreshExpiresAt !== undefined)
    record.refresh_token_expires_at = refreshExpiresAt;
  const email = tokens.email ?? previous?.email;
  if (email !== undefined) record.email = email;
  const redirectUri = tokens.redirect_uri ?? previous?.redirect_uri;
  if (redirectUri !== undefined) record.redirect_uri = redirectUri;
  return record;
}

/** Whether a stored record belongs to these service coordinates (SPEC.md §2.7). */
export function recordMatches(
  record: TokenRecord | undefined,
  baseUrl: string,
  clientId: string,
): record is TokenRecord {
  return record !== undefined && record.base_url === baseUrl && record.client_id === clientId;
}

/**
 * The `--json` document: the same keys whatever produced the token. The refresh token (a 30-day
 * credential) is masked like the table unless `showTokens` (SPEC.md §2.6): output pasted into a
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
