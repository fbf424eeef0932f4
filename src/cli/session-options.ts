/** The session options the global flags and a command's own setting flags give (src/session). */
import type { SettingOptions } from '../session/settings.js';
import type { CommandContext } from './context.js';

/** Flags of the running command that are settings too (`--email`, `--redirect-uri`). */
export interface LocalOverrides {
  redirectUri?: string | undefined;
  email?: string | undefined;
}

export function sessionOptions(ctx: CommandContext, local: LocalOverrides = {}): SettingOptions {
  const { globals } = ctx;
  return {
    profile: globals.profile,
    baseUrl: globals.baseUrl,
    clientId: globals.clientId,
    store: globals.store,
    timeoutSeconds: globals.timeout,
    caFile: globals.caFile,
    email: local.email,
    redirectUri: local.redirectUri,
  };
}
