/** `tokencli refresh`: exchanges the stored refresh token now (refresh_token grant). */
import { refreshNow } from '../../../session/refresh.js';
import type { Deps } from '../../deps.js';
import { noteNotStoredHint, notStoredWhy, withOverrideHint } from '../../output/not-stored.js';
import { expirySummary, note, printTokenJson } from '../../output/token-output.js';

export interface RefreshOptions {
  clientSecretStdin?: boolean;
  endOtherSessions?: boolean;
  json?: boolean;
  /** Refresh tokens unmasked in the JSON (docs/contract.md §2.6). */
  showTokens?: boolean;
}

export async function run(options: RefreshOptions, deps: Deps): Promise<void> {
  const session = deps.session();
  const settings = await session.settings();
  const result = await refreshNow(
    session,
    { endOtherSessions: options.endOtherSessions === true },
    deps.secrets(options),
  ).catch((error: unknown) => {
    throw withOverrideHint(error, settings);
  });
  const { record } = result;
  const { profile } = settings;
  if (options.json) printTokenJson(deps, record, profile, 'refresh_token', options.showTokens);
  if (result.stored) {
    note(deps, `Refreshed profile "${profile}". ${expirySummary(record)}`);
    return;
  }
  note(
    deps,
    `Refreshed, but the new token was not stored: ${notStoredWhy(result.notStored, settings)}. ${expirySummary(record)}`,
  );
  noteNotStoredHint(deps, result.notStored, settings);
}
