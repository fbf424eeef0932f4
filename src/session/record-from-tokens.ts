/** Turns a token response into the stored record (docs/contract.md §2.7). */
import type { TokenSet } from '../oauth/types.js';
import type { TokenRecord } from '../store/types.js';

export interface RecordContext {
  baseUrl: string;
  clientId: string;
  grant: TokenRecord['grant'];
  now: Date;
  /**
   * The record being replaced. A refresh response carries no refresh token (only the
   * authorization-code grant issues one, docs/contract.md §1 rule 2), so the old one is kept.
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
