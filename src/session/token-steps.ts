/**
 * Steps 2–4 of `tokencli token` (SPEC.md §2.3): refresh, then client credentials, else "not
 * logged in". Runs under a per-profile lock so parallel invocations make one network exchange:
 * whoever waits re-reads the store first and finds the fresh token.
 */
import { UsageError } from '../errors.js';
import { GrantType, type TokenSource } from '../oauth/types.js';
import type { TokenRecord } from '../store/types.js';
import { sanitizeText } from '../text/sanitize.js';
import type { Deps, ServiceCoordinates } from './deps.js';
import { formatDuration } from './format.js';
import { findSecret, missingSecret } from './secrets.js';
import { recordMatches, toRecord } from './token-record.js';

export interface ObtainOptions {
  minTtlSeconds: number;
  force: boolean;
  save: boolean;
  endOtherSessions: boolean;
  passwordFromStdin: boolean;
  clientSecretFromStdin: boolean;
}

export interface Obtained {
  record: TokenRecord;
  source: TokenSource;
}

/** The life the service gave the token, in whole seconds (its `expires_in`). */
function wholeLifeSeconds(record: TokenRecord): number {
  return Math.round((Date.parse(record.expires_at) - Date.parse(record.obtained_at)) / 1000);
}

/**
 * How much life a cached token must have left. A `--min-ttl` longer than the token's whole life
 * could never be met and would renew on every call; it then counts as half that life (issue 9).
 */
export function requiredLifeMs(record: TokenRecord, minTtlSeconds: number): number {
  const wanted = minTtlSeconds * 1000;
  const life = wholeLifeSeconds(record) * 1000;
  return life > 0 && wanted > life ? life / 2 : wanted;
}

/** A stored token usable as it is: same service, at least `minTtl` seconds left. */
export function freshRecord(
  record: TokenRecord | undefined,
  service: ServiceCoordinates,
  minTtlSeconds: number,
  now: Date,
): TokenRecord | undefined {
  if (!recordMatches(record, service.baseUrl, service.clientId)) return undefined;
  const left = Date.parse(record.expires_at) - now.getTime();
  return left > 0 && left >= requiredLifeMs(record, minTtlSeconds) ? record : undefined;
}

function usableRefreshToken(
  record: TokenRecord | undefined,
  service: ServiceCoordinates,
  now: Date,
): string | undefined {
  if (!recordMatches(record, service.baseUrl, service.clientId) || !record.refresh_token) return undefined;
  const expiresAt = record.refresh_token_expires_at;
  if (expiresAt !== undefined && Date.parse(expiresAt) <= now.getTime()) return undefined;
  return record.refresh_token;
}

/**
 * All of `tokencli token` (SPEC.md §2.3), shared with the library's `getToken`: the cache first
 * (no lock, nothing loaded but the store), then steps 2–4 under the profile lock.
 */
export async function getTokenSteps(deps: Deps, options: ObtainOptions): Promise<Obtained> {
  if (!options.force) {
    const [settings, service, store] = await Promise.all([deps.settings(), deps.service(), deps.store()]);
    const cached = freshRecord(
      await store.getTokens(settings.profile),
      service,
      options.minTtlSeconds,
      deps.now(),
    );
    if (cached) return { record: cached, source: 'cache' };
  }
  return obtainToken(deps, options);
}

/** Steps 2–4 of `tokencli token` under the profile lock; step 1 again once the lock is held. */
export function obtainToken(deps: Deps, options: ObtainOptions): Promise<Obtained> {
  return deps.withProfileLock(() => obtainUnlocked(deps, options));
}

async function obtainUnlocked(deps: Deps, options: ObtainOptions): Promise<Obtained> {
  const { save } = options;
  const [settings, service, store] = await Promise.all([deps.settings(), deps.service(), deps.store()]);
  const stored = await store.getTokens(settings.profile);
  if (!options.force) {
    const fresh = freshRecord(stored, service, options.minTtlSeconds, deps.now());
    if (fresh) return { record: fresh, source: 'cache' };
  }
  const { requestToken } = await import('../oauth/token-request.js');
  const { ServiceError } = await import('../oauth/service-error.js');
  const requestOptions = { endOtherSessions: options.endOtherSessions, signal: deps.signal };
  const keep = async (record: TokenRecord) => {
    warnIfMinTtlTooLong(deps, record, options.minTtlSeconds);
    // Flags naming another service than the profile's are for this run only (profile-store.ts).
    if (save && settings.overrides.length === 0) {
      await store.setTokens(settings.profile, record);
      const { rememberProfile } = await import('./profile-store.js');
      await rememberProfile(deps);
    }
    return record;
  };

  const refreshToken = usableRefreshToken(stored, service, deps.now());
  const matching = recordMatches(stored, service.baseUrl, service.clientId) ? stored : undefined;
  // An email given for this run, or the one the stored token was issued to: on a terminal the
  // password is then asked for (hidden) instead of failing (issue 9).
  const email = settings.email ?? (deps.io.stdinIsTTY ? matching?.email : undefined);
  const passwordSource = {
    label: 'password',
    stdinFlag: '--password-stdin',
    envVar: 'TOKENCLI_PASSWORD',
    fromStdin: options.passwordFromStdin,
  };
  const canUsePassword = email !== undefined || options.passwordFromStdin || !!deps.io.env.TOKENCLI_PASSWORD;
  if (!refreshToken && !canUsePassword) {
    const { noUsableToken } = await import('./token-state.js');
    throw noUsableToken({
      profile: settings.profile,
      stored,
      service,
      minTtlSeconds: options.minTtlSeconds,
      force: options.force,
      now: deps.now(),
    });
  }

  const client = await deps.client(await deps.clientSecret(options.clientSecretFromStdin));

  if (refreshToken) {
    try {
      const tokens = await requestToken(
        client,
        { grant_type: GrantType.refreshToken, refresh_token: refreshToken },
        requestOptions,
      );
      const now = deps.now();
      const record = toRecord(tokens, { ...service, grant: 'refresh_token', now, previous: stored });
      return { record: await keep(record), source: 'refresh_token' };
    } catch (error) {
      // The service refused the refresh token (revoked, expired early): fall through to step 3.
      if (!(error instanceof ServiceError) || error.exitCode !== 3 || !canUsePassword) throw error;
      if (deps.globals.verbose)
        deps.io.stderr.write(`refresh refused (${error.message}); trying client credentials\n`);
    }
  }

  if (email === undefined) {
    throw new UsageError('a password was given but no email', 'pass --email or set TOKENCLI_EMAIL');
  }
  // The prompt names the account, as a person may hold several (the email is shown sanitized).
  const password = await findSecret(deps, {
    ...passwordSource,
    prompt: `Password for ${sanitizeText(email)}: `,
  });
  if (password === undefined) throw missingSecret(passwordSource);
  const tokens = await requestToken(
    client,
    { grant_type: GrantType.clientCredentials, email, password },
    requestOptions,
  );
  const record = toRecord(tokens, { ...service, grant: 'client_credentials', now: deps.now() });
  if (record.email === undefined) record.email = email;
  return { record: await keep(record), source: 'client_credentials' };
}

/** Said when a renewal gives a token whose whole life is shorter than `--min-ttl` (see requiredLifeMs). */
function warnIfMinTtlTooLong(deps: Deps, record: TokenRecord, minTtlSeconds: number): void {
  const lifeSeconds = wholeLifeSeconds(record);
  if (deps.globals.quiet || !(lifeSeconds > 0) || minTtlSeconds <= lifeSeconds) return;
  deps.io.stderr.write(
    `warning: --min-ttl ${minTtlSeconds}s is longer than a new token's whole life (${formatDuration(lifeSeconds)}); the cached token is used while half its life (${formatDuration(lifeSeconds / 2)}) is left\n`,
  );
}
