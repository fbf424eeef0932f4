/**
 * Why `tokencli token` cannot give a token without a new login: each state has its own message,
 * `reason` and hint (issue 9 item 3), all exit 4 (SPEC.md §2.6: nothing usable stored). Loaded
 * only on that failure, never on the cached path.
 */
import { NotLoggedInError } from '../errors.js';
import { isLoopbackHost } from '../protocol/loopback.js';
import type { TokenRecord } from '../store/types.js';
import type { ServiceCoordinates } from './deps.js';
import { formatDuration } from './format.js';

export interface StateInput {
  profile: string;
  stored: TokenRecord | undefined;
  service: ServiceCoordinates;
  minTtlSeconds: number;
  force: boolean;
  now: Date;
}

const LOGIN = 'run `tokencli login` (the browser login also yields a refresh token)';

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

export function noUsableToken(input: StateInput): NotLoggedInError {
  const { profile, stored, service, now } = input;
  const of = `profile "${profile}"`;
  if (stored === undefined) {
    return new NotLoggedInError(
      `not logged in (${of})`,
      'run `tokencli login`, or in CI set TOKENCLI_EMAIL and TOKENCLI_PASSWORD (with TOKENCLI_CLIENT_SECRET)',
      'no_token',
    );
  }
  if (stored.base_url !== service.baseUrl || stored.client_id !== service.clientId) {
    return new NotLoggedInError(
      `the token stored in ${of} is for ${serviceDifference(stored, service)}`,
      `pass --base-url ${stored.base_url} --client-id ${stored.client_id} to use it, or run \`tokencli login\` for this service`,
      'other_service',
    );
  }
  const refreshExpiry = stored.refresh_token_expires_at;
  if (
    stored.refresh_token !== undefined &&
    refreshExpiry !== undefined &&
    Date.parse(refreshExpiry) <= now.getTime()
  ) {
    const ago = formatDuration((now.getTime() - Date.parse(refreshExpiry)) / 1000);
    return new NotLoggedInError(
      `the refresh token of ${of} expired ${ago} ago (at ${refreshExpiry})`,
      'run `tokencli login` again',
      'refresh_token_expired',
    );
  }
  const left = (Date.parse(stored.expires_at) - now.getTime()) / 1000;
  if (left <= 0) {
    return new NotLoggedInError(
      `the access token of ${of} expired ${formatDuration(-left)} ago and there is no refresh token to renew it`,
      stored.grant === 'client_credentials'
        ? 'run `tokencli token` again with the password (on a terminal it asks; in CI set TOKENCLI_PASSWORD), or run `tokencli login`'
        : LOGIN,
      'access_token_expired',
    );
  }
  if (input.force) {
    return new NotLoggedInError(
      `--force: there is no refresh token or password to get a new token for ${of} (the stored one has ${formatDuration(left)} left)`,
      `leave out --force to use it, or ${LOGIN}`,
      'cannot_renew',
    );
  }
  return new NotLoggedInError(
    `the access token of ${of} has ${formatDuration(left)} left, less than --min-ttl ${input.minTtlSeconds}s, and there is no refresh token to renew it`,
    `lower --min-ttl, or ${LOGIN}`,
    'min_ttl_unmet',
  );
}
