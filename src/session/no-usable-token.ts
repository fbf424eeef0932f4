/**
 * Why the token steps cannot give a token without a new login: each state has its own message,
 * `reason` and `details` (the CLI words the hint, src/cli/output/error-hints.ts), all code
 * `not_logged_in` (docs/contract.md §2.6: nothing usable stored). Loaded only on that failure,
 * never on the cached path.
 */
import { NotLoggedInError, type TokencliError } from '../errors.js';
import { isLoopbackHost } from '../protocol/loopback.js';
import type { TokenRecord } from '../store/types.js';
import { formatDuration } from '../text/duration.js';
import type { ServiceCoordinates } from './settings.js';

export interface StateInput {
  profile: string;
  stored: TokenRecord | undefined;
  service: ServiceCoordinates;
  minTtlSeconds: number;
  force: boolean;
  now: Date;
}

/** What differs between the stored record's service and this run's, in words. */
function serviceDifference(stored: TokenRecord, service: ServiceCoordinates): string {
  const parts: string[] = [];
  if (stored.base_url !== service.baseUrl) {
    let note = '';
    try {
      const a = new URL(stored.base_url);
      const b = new URL(service.baseUrl);
      if (
        a.port === b.port &&
        a.hostname !== b.hostname &&
        isLoopbackHost(a.hostname) &&
        isLoopbackHost(b.hostname)
      ) {
        note = ` (${a.hostname} and ${b.hostname} name the same machine but are different base URLs to the service)`;
      }
    } catch {}
    parts.push(`base URL ${stored.base_url}, not ${service.baseUrl}${note}`);
  }
  if (stored.client_id !== service.clientId)
    parts.push(`client id "${stored.client_id}", not "${service.clientId}"`);
  return parts.join(' and ');
}

type NotUsable = Extract<
  TokencliError['reason'],
  | 'no_token'
  | 'other_service'
  | 'refresh_token_expired'
  | 'access_token_expired'
  | 'access_token_revoked'
  | 'cannot_renew'
  | 'min_ttl_unmet'
>;

function notUsable(
  message: string,
  reason: NotUsable,
  details: Record<string, string | number | undefined>,
): NotLoggedInError {
  return new NotLoggedInError(message, undefined, reason, details);
}

export function noUsableToken(input: StateInput): NotLoggedInError {
  const { profile, stored, service, now } = input;
  const of = `profile "${profile}"`;
  if (stored === undefined) return notUsable(`not logged in (${of})`, 'no_token', { profile });
  if (stored.base_url !== service.baseUrl || stored.client_id !== service.clientId) {
    return notUsable(
      `the token stored in ${of} is for ${serviceDifference(stored, service)}`,
      'other_service',
      {
        profile,
        storedBaseUrl: stored.base_url,
        storedClientId: stored.client_id,
      },
    );
  }
  const refreshExpiry = stored.refresh_token_expires_at;
  if (
    stored.refresh_token !== undefined &&
    refreshExpiry !== undefined &&
    Date.parse(refreshExpiry) <= now.getTime()
  ) {
    const ago = formatDuration((now.getTime() - Date.parse(refreshExpiry)) / 1000);
    return notUsable(
      `the refresh token of ${of} expired ${ago} ago (at ${refreshExpiry})`,
      'refresh_token_expired',
      { profile },
    );
  }
  const refusedAt = stored.access_token_refused_at;
  if (refusedAt !== undefined) {
    return notUsable(
      `the access token of ${of} was refused by the service (revoked or cut short) at ${refusedAt}, and there is no refresh token to renew it`,
      'access_token_revoked',
      { profile, grant: stored.grant, refusedAt },
    );
  }
  const left = (Date.parse(stored.expires_at) - now.getTime()) / 1000;
  if (left <= 0) {
    return notUsable(
      `the access token of ${of} expired ${formatDuration(-left)} ago and there is no refresh token to renew it`,
      'access_token_expired',
      { profile, grant: stored.grant },
    );
  }
  if (input.force) {
    return notUsable(
      `force: there is no refresh token or password to get a new token for ${of} (the stored one has ${formatDuration(left)} left)`,
      'cannot_renew',
      { profile, left: formatDuration(left) },
    );
  }
  return notUsable(
    `the access token of ${of} has ${formatDuration(left)} left, less than minTtlSeconds ${input.minTtlSeconds}s, and there is no refresh token to renew it`,
    'min_ttl_unmet',
    { profile, left: formatDuration(left), minTtlSeconds: input.minTtlSeconds },
  );
}
