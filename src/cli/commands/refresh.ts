/** `tokencli refresh`: exchanges the stored refresh token now (refresh_token grant). */
import { refreshNow } from '../../session/refresh.js';
import type { Deps } from '../deps.js';
import { expirySummary, note, printTokenJson } from '../token-output.js';

export interface RefreshOptions {
  clientSecretStdin?: boolean;
  endOtherSessions?: boolean;
  json?: boolean;
  /** Refresh tokens unmasked in the JSON (docs/contract.md §2.6). */
  showTokens?: boolean;
}

export async function run(options: RefreshOptions, deps: Deps): Promise<void> {
  const session = deps.session();
  const record = await refreshNow(
    session,
    { endOtherSessions: options.endOtherSessions === true },
    deps.secrets(options),
  );
  const { profile } = await session.settings();
  if (options.json) printTokenJson(deps, record, profile, 'refresh_token', options.showTokens);
  note(deps, `Refreshed profile "${profile}". ${expirySummary(record)}`);
}
