/**
 * The whole command model: the global flags and every command, in the order help lists them.
 * The program's data view (types.ts) that commander, help, completion, the launcher and the docs
 * are derived from; each command is defined once, in its folder of commands/ (commands/token/token-command.ts, …).
 */
import { completionCommand } from '../commands/completion/completion-command.js';
import { configureCommand } from '../commands/configure/configure-command.js';
import { execCommand } from '../commands/exec/exec-command.js';
import { infoCommand } from '../commands/info/info-command.js';
import { loginCommand } from '../commands/login/login-command.js';
import { logoutCommand } from '../commands/logout/logout-command.js';
import { profileCommand } from '../commands/profile/profile-command.js';
import { refreshCommand } from '../commands/refresh/refresh-command.js';
import { serveCommand } from '../commands/serve/serve-command.js';
import { ssoCommand } from '../commands/sso/sso-command.js';
import { statusCommand } from '../commands/status/status-command.js';
import { tokenCommand } from '../commands/token/token-command.js';
import { versionCommand } from '../commands/version/version-command.js';
import { HELP_FLAG, isClientGlobal, takesClientGlobals, VERSION_FLAG } from './flags.js';
import type { FlagDef, ProgramDef } from './types.js';

export { HELP_FLAG, isClientGlobal, takesClientGlobals, VERSION_FLAG };

/** In the order help lists them; `clientOnly` marks those only the client commands read. */
const GLOBAL_FLAGS: readonly FlagDef[] = [
  VERSION_FLAG,
  {
    long: '--profile',
    value: '<name>',
    description: 'profile to use (env TOKENCLI_PROFILE, then the active profile; default: default)',
    complete: 'profile',
    clientOnly: true,
  },
  {
    long: '--base-url',
    value: '<url>',
    description: 'token service base URL (env TOKENCLI_BASE_URL)',
    clientOnly: true,
  },
  { long: '--client-id', value: '<id>', description: 'client id (env TOKENCLI_CLIENT_ID)', clientOnly: true },
  {
    long: '--store',
    value: '<kind>',
    description: 'credential store (env TOKENCLI_STORE)',
    choices: ['keychain', 'file', 'none'],
    clientOnly: true,
  },
  {
    long: '--timeout',
    value: '<seconds>',
    description: 'HTTP timeout in seconds (env TOKENCLI_TIMEOUT; default: 30)',
    clientOnly: true,
  },
  {
    long: '--ca-file',
    value: '<file>',
    description:
      "extra CA certificates (PEM) to trust besides node's bundled roots (Mozilla's, not the system store)",
    clientOnly: true,
  },
  {
    long: '--verbose',
    description: 'HTTP trace on stderr, secrets redacted; stack traces on errors',
    default: false,
    // A cached answer makes no request to trace; the full CLI says what --verbose asks for.
    declinesCachedAnswer: true,
  },
  { long: '--quiet', description: 'print only results and errors', default: false, clientOnly: true },
  {
    long: '--no-color',
    description: 'no colours (also NO_COLOR; none on a TERM=dumb terminal unless FORCE_COLOR)',
    clientOnly: true,
  },
];

/** Global flags only the client commands read (CommandDef.clientGlobals). */
export const CLIENT_GLOBAL_FLAGS: readonly FlagDef[] = GLOBAL_FLAGS.filter(isClientGlobal);

export const PROGRAM: ProgramDef = {
  name: 'tokencli',
  description: 'Obtain and inspect OAuth 2.0 access tokens from the token service',
  globals: GLOBAL_FLAGS,
  examples: [
    'tokencli configure --base-url https://api.example.com --client-id my-app',
    'tokencli login',
    'curl -H "Authorization: Bearer $(tokencli token)" https://api.example.com/v2/…',
    'tokencli info --json | jq .expires_in',
    'tokencli serve --port 0',
  ],
  commands: [
    configureCommand,
    loginCommand,
    tokenCommand,
    execCommand,
    refreshCommand,
    ssoCommand,
    infoCommand,
    statusCommand,
    logoutCommand,
    profileCommand,
    serveCommand,
    completionCommand,
    versionCommand,
  ],
};
