/**
 * The whole command model: the global flags and every command, in the order help lists them.
 * Plain data (types.ts); each command's part is declared beside its run function in commands/.
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
import type { CommandDef, FlagDef, ProgramDef } from './types.js';

/** `--version`: answered by commander (or the launcher), never given to a command. */
export const VERSION_FLAG: FlagDef = { long: '--version', description: 'print the version' };
export const HELP_FLAG: FlagDef = { long: '--help', short: '-h', description: 'show help' };

/** Global flags only the client commands read (CommandDef.clientGlobals). */
export const CLIENT_GLOBAL_FLAGS: readonly FlagDef[] = [
  {
    long: '--profile',
    value: '<name>',
    description: 'profile to use (env TOKENCLI_PROFILE, then the active profile; default: default)',
    complete: 'profile',
  },
  { long: '--base-url', value: '<url>', description: 'token service base URL (env TOKENCLI_BASE_URL)' },
  { long: '--client-id', value: '<id>', description: 'client id (env TOKENCLI_CLIENT_ID)' },
  {
    long: '--store',
    value: '<kind>',
    description: 'credential store (env TOKENCLI_STORE)',
    choices: ['keychain', 'file', 'none'],
  },
  {
    long: '--timeout',
    value: '<seconds>',
    description: 'HTTP timeout in seconds (env TOKENCLI_TIMEOUT; default: 30)',
  },
  {
    long: '--ca-file',
    value: '<file>',
    description: 'extra CA certificates (PEM) to trust besides the system ones',
  },
  { long: '--quiet', description: 'print only results and errors', default: false },
  {
    long: '--no-color',
    description: 'no colours (also NO_COLOR; none on a TERM=dumb terminal unless FORCE_COLOR)',
  },
];

const CLIENT_ONLY = new Set(CLIENT_GLOBAL_FLAGS.map((flag) => flag.long));

/** Whether a global flag is one a command with `clientGlobals: false` does not take. */
export const isClientGlobal = (flag: FlagDef): boolean => CLIENT_ONLY.has(flag.long);

export const takesClientGlobals = (command: CommandDef): boolean => command.clientGlobals !== false;

/** In the order help has always listed them: --verbose sits between --ca-file and --quiet. */
const GLOBAL_FLAGS: readonly FlagDef[] = [
  VERSION_FLAG,
  ...CLIENT_GLOBAL_FLAGS.slice(0, 6),
  {
    long: '--verbose',
    description: 'HTTP trace on stderr, secrets redacted; stack traces on errors',
    default: false,
  },
  ...CLIENT_GLOBAL_FLAGS.slice(6),
];

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
  ],
};
