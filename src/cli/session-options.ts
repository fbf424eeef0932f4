/** The session options the global flags and a command's own setting flags give (src/session). */
import type { SettingOptions } from '../session/settings.js';
import type { CommandContext } from './context.js';
import { rememberRun } from './paste-command.js';

/** Flags of the running command that are settings too (`--email`, `--redirect-uri`). */
export interface LocalOverrides {
  redirectUri?: string | undefined;
  email?: string | undefined;
}

export function sessionOptions(ctx: CommandContext, local: LocalOverrides = {}): SettingOptions {
  // The flags that chose this session's profile and service, for the hints said when it ends.
  rememberRun(ctx);
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
