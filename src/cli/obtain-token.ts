/**
 * Steps 2–4 of `tokencli token` (SPEC.md §2.3): refresh, then client credentials, else "not
 * logged in". Runs under a per-profile lock so parallel invocations make one network exchange:
 * whoever waits re-reads the store first and finds the fresh token.
 */
import { join } from 'node:path';
import { NotLoggedInError, UsageError } from '../errors.js';
import { withFileLock } from '../fs/lock.js';
import { GrantType, type TokenSource } from '../oauth/types.js';
import type { CredentialStore, TokenRecord } from '../store/types.js';
import type { CommandContext } from './context.js';
import { sanitizeText } from './sanitize.js';
import { findSecret, missingSecret } from './secrets.js';
import { resolveClientSecret, serviceClient } from './service.js';
import type { Settings } from './settings.js';
import { recordMatches, toRecord } from './token-record.js';

export interface ObtainOptions {
  service: { baseUrl: string; clientId: string };
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

/** A stored token usable as it is: same service, at least `minTtl` seconds left. */
export function freshRecord(
  record: TokenRecord | undefined,
  service: { baseUrl: string; clientId: string },
  minTtlSeconds: number,
  now: Date,
): TokenRecord | undefined {
  if (!recordMatches(record, service.baseUrl, service.clientId)) return undefined;
  return Date.parse(record.expires_at) - now.getTime() >= minTtlSeconds * 1000 ? record : undefined;
}

function usableRefreshToken(
  record: TokenRecord | undefined,
  service: ObtainOptions['service'],
  now: Date,
): string | undefined {
  if (!recordMatches(record, service.baseUrl, service.clientId) || !record.refresh_token) return undefined;
  const expiresAt = record.refresh_token_expires_at;
  if (expiresAt !== undefined && Date.parse(expiresAt) <= now.getTime()) return undefined;
  return record.refresh_token;
}

export function tokenLockPath(settings: Settings): string {
  return join(settings.configDir, 'locks', `${settings.profile}.lock`);
}

export async function obtainToken(
  ctx: CommandContext,
  settings: Settings,
  store: CredentialStore,
  options: ObtainOptions,
): Promise<Obtained> {
  // Nothing persists with the `none` store, so there is nothing for other processes to share.
  if (store.kind === 'none') return obtainUnlocked(ctx, settings, store, options);
  return withFileLock(tokenLockPath(settings), () => obtainUnlocked(ctx, settings, store, options), {
    timeoutMs: settings.timeoutMs * 3 + 10_000,
    signal: ctx.signal,
  });
}

async function obtainUnlocked(
  ctx: CommandContext,
  settings: Settings,
  store: CredentialStore,
  options: ObtainOptions,
): Promise<Obtained> {
  const { service, save } = options;
  const stored = await store.getTokens(settings.profile);
  if (!options.force) {
    const fresh = freshRecord(stored, service, options.minTtlSeconds, new Date());
    if (fresh) return { record: fresh, source: 'cache' };
  }
  const { requestToken } = await import('../oauth/token-request.js');
  const { ServiceError } = await import('../oauth/service-error.js');
  const requestOptions = { endOtherSessions: options.endOtherSessions, signal: ctx.signal };
  const keep = async (record: TokenRecord) => {
    if (save) await store.setTokens(settings.profile, record);
    return record;
  };

  const refreshToken = usableRefreshToken(stored, service, new Date());
  const email = settings.email;
  const passwordSource = {
    label: 'password',
    stdinFlag: '--password-stdin',
    envVar: 'TOKENCLI_PASSWORD',
    fromStdin: options.passwordFromStdin,
  };
  const canUsePassword = email !== undefined || options.passwordFromStdin || !!ctx.io.env.TOKENCLI_PASSWORD;
  if (!refreshToken && !canUsePassword) {
    throw new NotLoggedInError(
      `not logged in (profile "${settings.profile}")`,
      'run `tokencli login`, or in CI set TOKENCLI_EMAIL and TOKENCLI_PASSWORD (with TOKENCLI_CLIENT_SECRET)',
    );
  }

  const clientSecret = await resolveClientSecret(ctx, store, settings.profile, options.clientSecretFromStdin);
  const client = serviceClient(settings, ctx, service, clientSecret);

  if (refreshToken) {
    try {
      const tokens = await requestToken(
        client,
        { grant_type: GrantType.refreshToken, refresh_token: refreshToken },
        requestOptions,
      );
      const now = new Date();
      const record = toRecord(tokens, { ...service, grant: 'refresh_token', now, previous: stored });
      return { record: await keep(record), source: 'refresh_token' };
    } catch (error) {
      // The service refused the refresh token (revoked, expired early): fall through to step 3.
      if (!(error instanceof ServiceError) || error.exitCode !== 3 || !canUsePassword) throw error;
      if (ctx.globals.verbose)
        ctx.io.stderr.write(`refresh refused (${error.message}); trying client credentials\n`);
    }
  }

  if (email === undefined) {
    throw new UsageError('a password was given but no email', 'pass --email or set TOKENCLI_EMAIL');
  }
  // The prompt names the account, as a person may hold several (the email is shown sanitized).
  const password = await findSecret(ctx, {
    ...passwordSource,
    prompt: `Password for ${sanitizeText(email)}: `,
  });
  if (password === undefined) throw missingSecret(passwordSource);
  const tokens = await requestToken(
    client,
    { grant_type: GrantType.clientCredentials, email, password },
    requestOptions,
  );
  const record = toRecord(tokens, { ...service, grant: 'client_credentials', now: new Date() });
  if (record.email === undefined) record.email = email;
  return { record: await keep(record), source: 'client_credentials' };
}
