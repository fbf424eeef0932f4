/**
 * How `tokencli token` and `tokencli exec` obtain a token with the flags they share
 * (get-token-flags.ts): the session's token steps (src/session/token-steps.ts) with the CLI's secrets.
 */
import type { Settings } from '../../../session/settings.js';
import { getToken, type Obtained } from '../../../session/token-steps.js';
import type { Deps, ServiceCoordinates } from '../../deps.js';
import { assertOneStdinReader } from '../../input/secrets.js';
import { withOverrideHint } from '../../output/not-stored.js';
import { parseMinTtl, type TokenFlags } from './get-token-flags.js';

export interface GotToken extends Obtained {
  settings: Settings;
  service: ServiceCoordinates;
}

export async function obtainWithFlags(options: TokenFlags, deps: Deps): Promise<GotToken> {
  assertOneStdinReader([
    [options.passwordStdin, '--password-stdin'],
    [options.clientSecretStdin, '--client-secret-stdin'],
  ]);
  const minTtlSeconds = parseMinTtl(options.minTtl);
  // The first call fixes the session of this run: `--email` is one of its settings.
  const session = deps.session({ email: options.email });
  const settings = await session.settings();
  const service = await session.service();
  const obtained = await getToken(
    session,
    {
      minTtlSeconds,
      force: options.force === true,
      save: options.store,
      endOtherSessions: options.endOtherSessions === true,
    },
    deps.secrets(options),
  ).catch((error: unknown) => {
    throw withOverrideHint(error, settings);
  });
  return { ...obtained, settings, service };
}
