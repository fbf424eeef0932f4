/**
 * A cached access token the service refuses (401 `invalid_token`: revoked, or expired early) must
 * not keep being handed out from the cache, nor sent again: whoever sees the refusal drops it
 * (ProfileTokens.drop) — the record stays, with the refresh token and the user's email, marked
 * refused — so the next token step renews it and `info` / `status` say what happened.
 */
import { TokencliError } from '../errors.js';
import type { TokenRecord } from '../store/types.js';

/** Whether an error is the service refusing the access token itself (RFC 6750 §3.1). */
export function refusesAccessToken(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'ServiceError') return false;
  const { status, serviceCode } = error as Error & { status?: number; serviceCode?: string };
  return serviceCode === 'invalid_token' || status === 401;
}

/**
 * A stored access token the service refused earlier (dropped): asked about again it would only be
 * refused again, so `info` says so without sending it — as a refusal (docs/contract.md §2.6 exit
 * 3), with details `canRenew` (1 when a refresh token remains) as when it was first refused.
 */
export function refusedEarlier(profile: string, record: TokenRecord): TokencliError | undefined {
  const refusedAt = record.access_token_refused_at;
  if (refusedAt === undefined) return undefined;
  return new TokencliError(
    `the access token of profile "${profile}" was refused by the service (revoked or cut short) at ${refusedAt} and dropped; it is not sent again`,
    {
      code: 'service_refused',
      reason: 'access_token_refused',
      details: { profile, refusedAt, canRenew: record.refresh_token !== undefined ? 1 : 0 },
    },
  );
}
