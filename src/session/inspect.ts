/**
 * The service's information about an access token (docs/contract.md §1 rule 9): a given one, or
 * the profile's stored one — which is dropped from the cache when the service refuses it, so the
 * next token step renews it. Shared by `tokencli info`, `status --check` and the library.
 */
import { NotLoggedInError } from '../errors.js';
import type { ServiceError } from '../oauth/service-error.js';
import type { TokenInfo } from '../oauth/types.js';
import type { TokenRecord } from '../store/types.js';
import type { ProfileTokens } from './profile-tokens.js';
import { refusedEarlier, refusesAccessToken } from './refused-token.js';
import type { Session } from './session.js';

/** The profile's stored access token of this service, or why there is none (or it is not sent). */
export async function storedAccessToken(tokens: ProfileTokens, now: Date): Promise<TokenRecord> {
  const record = await tokens.stored();
  if (record !== undefined && !tokens.belongs(record)) {
    // Say what differs (e.g. localhost vs 127.0.0.1), not just "nothing stored".
    const { noUsableToken } = await import('./no-usable-token.js');
    throw noUsableToken({
      profile: tokens.profile,
      stored: record,
      service: tokens.service,
      minTtlSeconds: 0,
      force: false,
      now,
    });
  }
  if (record === undefined) {
    throw new NotLoggedInError(
      `no access token stored for profile "${tokens.profile}"`,
      undefined,
      'no_access_token',
      { profile: tokens.profile },
    );
  }
  const refused = refusedEarlier(tokens.profile, record);
  if (refused) throw refused;
  return record;
}

/**
 * Asks tokeninfo about `record`'s access token; a refusal drops it from the store and rejects with
 * reason `access_token_refused` (details `canRenew`: 1 when a refresh token remains).
 */
export async function inspectRecord(
  session: Session,
  tokens: ProfileTokens,
  record: TokenRecord,
): Promise<TokenInfo> {
  const { fetchTokenInfo } = await import('../oauth/tokeninfo.js');
  try {
    return await fetchTokenInfo(await session.client(), record.access_token, { signal: session.signal });
  } catch (error) {
    if (!refusesAccessToken(error)) throw error;
    const canRenew = await tokens.drop(record);
    const { droppedTokenError } = await import('../oauth/service-error.js');
    throw droppedTokenError(error as ServiceError, canRenew);
  }
}

/** Tokeninfo about `accessToken`, or about the profile's stored one (see inspectRecord). */
export async function inspectToken(session: Session, accessToken?: string): Promise<TokenInfo> {
  if (accessToken !== undefined) {
    const { fetchTokenInfo } = await import('../oauth/tokeninfo.js');
    return fetchTokenInfo(await session.client(), accessToken, { signal: session.signal });
  }
  const tokens = await session.tokens();
  return inspectRecord(session, tokens, await storedAccessToken(tokens, session.now()));
}
