/**
 * The whole of `tokencli token` short of printing (SPEC.md §2.3), shared with `tokencli exec` so
 * both obtain a token the same way: the cache first (no network, no protocol modules loaded),
 * then refresh, then client credentials (obtain-token.ts).
 */
import { UsageError } from '../errors.js';
import type { Deps, ServiceCoordinates } from './deps.js';
import { getTokenSteps, type Obtained } from './obtain-token.js';
import { assertOneStdinReader } from './secrets.js';
import type { Settings } from './settings.js';

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
  service: ServiceCoordinates;
}

export async function getToken(options: GetTokenOptions, deps: Deps): Promise<GotToken> {
  assertOneStdinReader([
    [options.passwordStdin, '--password-stdin'],
    [options.clientSecretStdin, '--client-secret-stdin'],
  ]);
  const minTtlSeconds = parseMinTtl(options.minTtl);
  // The first call fixes the settings of this run (deps caches them): `--email` is one of them.
  const settings = await deps.settings({ email: options.email });
  const service = await deps.service();
  const obtained = await getTokenSteps(deps, {
    minTtlSeconds,
    force: options.force === true,
    save: options.store,
    endOtherSessions: options.endOtherSessions === true,
    passwordFromStdin: options.passwordStdin === true,
    clientSecretFromStdin: options.clientSecretStdin === true,
  });
  return { ...obtained, settings, service };
}
