/**
 * The token steps (docs/contract.md §2.3): the cached token; else, under the per-profile lock,
 * the stored refresh token, then client credentials, else "not logged in". Parallel sessions make
 * one network exchange: whoever waits for the lock re-reads the store first and finds the fresh
 * token. Shared by `tokencli token`, `tokencli exec` and the library's `getToken`.
 */
import { TokencliError } from '../errors.js';
import type { TokenSource } from '../oauth/types.js';
import { GrantType } from '../protocol/grants.js';
import type { TokenRecord } from '../store/types.js';
import {
  freshRecord,
  minTtlCountsAsHalfLife,
  type ProfileTokens,
  wholeLifeSeconds,
} from './profile-tokens.js';
import { toRecord } from './record-from-tokens.js';
import type { SecretSource } from './secret-source.js';
import type { Session } from './session.js';

export interface TokenStepOptions {
  /** A cached token must have at least this many seconds left. */
  minTtlSeconds: number;
  /** Skip the cached token. */
  force: boolean;
  /** Store a newly obtained token. */
  save: boolean;
  /** Send `endOtherSessions=True` (docs/contract.md §1 rule 10). */
  endOtherSessions: boolean;
}

export interface Obtained {
  record: TokenRecord;
  source: TokenSource;
}

/**
 * Step 1 (docs/contract.md §2.3): the stored token of the session's service with at least
 * `minTtlSeconds` left, taken without the lock and loading nothing but the store. The CLI's
 * launcher answers a cached `token` and `exec` with it too.
 */
export async function cachedToken(session: Session, minTtlSeconds: number): Promise<TokenRecord | undefined> {
  const record = await (await session.tokens()).fresh(minTtlSeconds);
  // A cached token judged by half its life is an answer the caller did not ask for: said each time.
  if (record) announceShortLife(session, record, minTtlSeconds);
  return record;
}

/** The cached token first (no lock, nothing loaded but the store), then the steps under the lock. */
export async function getToken(
  session: Session,
  options: TokenStepOptions,
  secrets: SecretSource,
): Promise<Obtained> {
  if (!options.force) {
    const cached = await cachedToken(session, options.minTtlSeconds);
    if (cached) return { record: cached, source: 'cache' };
  }
  const tokens = await session.tokens();
  return tokens.withLock(() => renew(session, tokens, options, secrets));
}

function usableRefreshToken(record: TokenRecord | undefined, now: Date): string | undefined {
  if (!record?.refresh_token) return undefined;
  const expiresAt = record.refresh_token_expires_at;
  if (expiresAt !== undefined && Date.parse(expiresAt) <= now.getTime()) return undefined;
  return record.refresh_token;
}

async function renew(
  session: Session,
  tokens: ProfileTokens,
  options: TokenStepOptions,
  secrets: SecretSource,
): Promise<Obtained> {
  const stored = await tokens.stored();
  const matching = tokens.belongs(stored) ? stored : undefined;
  if (!options.force) {
    const fresh = freshRecord(stored, tokens.service, options.minTtlSeconds, session.time());
    if (fresh) {
      announceShortLife(session, fresh, options.minTtlSeconds);
      return { record: fresh, source: 'cache' };
    }
  }
  const [{ requestToken }, { ServiceError }] = await Promise.all([
    import('../oauth/token-request.js'),
    import('../oauth/service-error.js'),
  ]);
  const requestOptions = { endOtherSessions: options.endOtherSessions, signal: session.signal };
  const keep = async (record: TokenRecord) => {
    announceShortLife(session, record, options.minTtlSeconds);
    if (options.save) await tokens.save(record, { lockHeld: true });
    return record;
  };

  const refreshToken = usableRefreshToken(matching, session.now());
  // The email set for this session (option, environment, the profile's), else the one the stored
  // token was issued to (docs/contract.md §2.3 step 3) — when there is a password for it, given or
  // asked. Without one, a stored email alone is no way to renew: "not logged in" says what is.
  const passwordAtHand = secrets.canAsk || secrets.passwordGiven();
  const email = tokens.settings.email ?? (passwordAtHand ? matching?.email : undefined);
  const canUsePassword = email !== undefined || secrets.passwordGiven();
  if (!refreshToken && !canUsePassword) {
    const { noUsableToken } = await import('./no-usable-token.js');
    throw noUsableToken({
      profile: tokens.profile,
      stored,
      service: tokens.service,
      minTtlSeconds: options.minTtlSeconds,
      force: options.force,
      now: session.now(),
    });
  }

  const client = await session.client(await session.clientSecret(secrets));

  if (refreshToken) {
    try {
      const response = await requestToken(
        client,
        { grant_type: GrantType.refreshToken, refresh_token: refreshToken },
        requestOptions,
      );
      const record = toRecord(response, {
        ...tokens.service,
        grant: 'refresh_token',
        now: session.now(),
        previous: stored,
      });
      return { record: await keep(record), source: 'refresh_token' };
    } catch (error) {
      // The service refused the refresh token (revoked, expired early): fall through to step 3.
      if (!(error instanceof ServiceError) || error.code !== 'service_refused' || !canUsePassword)
        throw error;
      session.emit({ code: 'refresh_refused', message: error.message });
    }
  }

  if (email === undefined) {
    throw new TokencliError('a password was given but no email', { code: 'usage', reason: 'email_missing' });
  }
  const password = await secrets.password(email);
  if (password === undefined) {
    throw new TokencliError('no password: give one (password)', {
      code: 'usage',
      reason: 'password_missing',
    });
  }
  const response = await requestToken(
    client,
    { grant_type: GrantType.clientCredentials, email, password },
    requestOptions,
  );
  const record = toRecord(response, { ...tokens.service, grant: 'client_credentials', now: session.now() });
  if (record.email === undefined) record.email = email;
  return { record: await keep(record), source: 'client_credentials' };
}

/**
 * Said whenever the token given (cached or new) has a whole life not longer than the minimum TTL
 * asked for: that minimum counts as half the life (minTtlCountsAsHalfLife), which the caller
 * should know every time it changes the answer.
 */
function announceShortLife(session: Session, record: TokenRecord, minTtlSeconds: number): void {
  const lifeSeconds = wholeLifeSeconds(record);
  if (!minTtlCountsAsHalfLife(minTtlSeconds, lifeSeconds)) return;
  session.emit({ code: 'min_ttl_too_long', minTtlSeconds, lifeSeconds });
}
