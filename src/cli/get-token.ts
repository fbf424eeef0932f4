/**
 * The whole of `tokencli token` short of printing (SPEC.md §2.3), shared with `tokencli exec` so
 * both obtain a token the same way: the cache first (no network, no protocol modules loaded),
 * then refresh, then client credentials (obtain-token.ts).
 */
import { UsageError } from '../errors.js';
import type { CommandContext } from './context.js';
import { freshRecord, type Obtained, obtainToken } from './obtain-token.js';
import { assertOneStdinReader } from './secrets.js';
import { openCredentialStore } from './service.js';
import { requireService, resolveSettings, type Settings } from './settings.js';

/** The flags `token` and `exec` share. */
export interface GetTokenOptions {
  email?: string;
  passwordStdin?: boolean;
  clientSecretStdin?: boolean;
  force?: boolean;
  minTtl: string;
  endOtherSessions?: boolean;
  /** false with `--no-store`. */
  store: boolean;
}

function parseMinTtl(raw: string): number {
  const seconds = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(seconds)) {
    throw new UsageError(`--min-ttl: "${raw}" is not a whole number of seconds`, 'e.g. --min-ttl 300');
  }
  return seconds;
}

export interface GotToken extends Obtained {
  settings: Settings;
  service: { baseUrl: string; clientId: string };
}

export async function getToken(options: GetTokenOptions, ctx: CommandContext): Promise<GotToken> {
  assertOneStdinReader([
    [options.passwordStdin, '--password-stdin'],
    [options.clientSecretStdin, '--client-secret-stdin'],
  ]);
  const minTtlSeconds = parseMinTtl(options.minTtl);
  const settings = await resolveSettings(ctx, { email: options.email });
  const service = requireService(settings);
  const store = await openCredentialStore(settings, ctx);

  if (!options.force) {
    const cached = freshRecord(await store.getTokens(settings.profile), service, minTtlSeconds, new Date());
    if (cached) return { record: cached, source: 'cache', settings, service };
  }
  const obtained = await obtainToken(ctx, settings, store, {
    service,
    minTtlSeconds,
    force: options.force === true,
    save: options.store,
    endOtherSessions: options.endOtherSessions === true,
    passwordFromStdin: options.passwordStdin === true,
    clientSecretFromStdin: options.clientSecretStdin === true,
  });
  return { ...obtained, settings, service };
}
