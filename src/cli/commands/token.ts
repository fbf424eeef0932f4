/**
 * `tokencli token`: prints a valid access token, the command scripts call before every API
 * request (SPEC.md §2.3). The cached path touches only the config file and the store: no
 * network, no prompt, and none of the protocol layer's modules are loaded.
 */
import { UsageError } from '../../errors.js';
import type { Deps } from '../deps.js';
import { getTokenSteps } from '../obtain-token.js';
import { assertOneStdinReader } from '../secrets.js';
import { tokenJson } from '../token-record.js';

export interface TokenOptions {
  email?: string;
  passwordStdin?: boolean;
  clientSecretStdin?: boolean;
  force?: boolean;
  minTtl: string;
  endOtherSessions?: boolean;
  /** false with `--no-store`. */
  store: boolean;
  json?: boolean;
  /** Refresh tokens unmasked in the JSON (SPEC.md §2.6). */
  showTokens?: boolean;
}

function parseMinTtl(raw: string): number {
  const seconds = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(seconds)) {
    throw new UsageError(`--min-ttl: "${raw}" is not a whole number of seconds`, 'e.g. --min-ttl 300');
  }
  return seconds;
}

export async function run(options: TokenOptions, deps: Deps): Promise<void> {
  assertOneStdinReader([
    [options.passwordStdin, '--password-stdin'],
    [options.clientSecretStdin, '--client-secret-stdin'],
  ]);
  const minTtlSeconds = parseMinTtl(options.minTtl);
  const settings = await deps.settings({ email: options.email });
  const { record, source } = await getTokenSteps(deps, {
    minTtlSeconds,
    force: options.force === true,
    save: options.store,
    endOtherSessions: options.endOtherSessions === true,
    passwordFromStdin: options.passwordStdin === true,
    clientSecretFromStdin: options.clientSecretStdin === true,
  });

  if (options.json) {
    deps.io.stdout.write(
      `${JSON.stringify(tokenJson(record, settings.profile, source, deps.now(), options.showTokens), null, 2)}\n`,
    );
  } else {
    deps.io.stdout.write(`${record.access_token}\n`);
  }
}
