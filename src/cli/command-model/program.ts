/**
 * The whole command model: the global flags and every command, in the order help lists them.
 * The program's data view (types.ts) that commander, help, completion, the launcher and the docs
 * are derived from; each command is defined once, in commands/<verb>/<verb>-command.ts.
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

const PROFILE_FLAG: FlagDef = {
  long: '--profile',
  value: '<name>',
  description: 'profile to use (env TOKENCLI_PROFILE, then the active profile; default: default)',
  complete: 'profile',
};
const BASE_URL_FLAG: FlagDef = {
  long: '--base-url',
  value: '<url>',
  description: 'token service base URL (env TOKENCLI_BASE_URL)',
};
const CLIENT_ID_FLAG: FlagDef = {
  long: '--client-id',
  value: '<id>',
  description: 'client id (env TOKENCLI_CLIENT_ID)',
};
const STORE_FLAG: FlagDef = {
  long: '--store',
  value: '<kind>',
  description: 'credential store (env TOKENCLI_STORE)',
  choices: ['keychain', 'file', 'none'],
};
const TIMEOUT_FLAG: FlagDef = {
  long: '--timeout',
  value: '<seconds>',
  description: 'HTTP timeout in seconds (env TOKENCLI_TIMEOUT; default: 30)',
};
const CA_FILE_FLAG: FlagDef = {
  long: '--ca-file',
  value: '<file>',
  description: 'extra CA certificates (PEM) to trust besides the system ones',
};
const VERBOSE_FLAG: FlagDef = {
  long: '--verbose',
  description: 'HTTP trace on stderr, secrets redacted; stack traces on errors',
  default: false,
  // A cached answer makes no request to trace; the full CLI says what --verbose asks for.
  declinesCachedAnswer: true,
};
const QUIET_FLAG: FlagDef = { long: '--quiet', description: 'print only results and errors', default: false };
const NO_COLOR_FLAG: FlagDef = {
  long: '--no-color',
  description: 'no colours (also NO_COLOR; none on a TERM=dumb terminal unless FORCE_COLOR)',
};

/** Global flags only the client commands read (CommandDef.clientGlobals). */
export const CLIENT_GLOBAL_FLAGS: readonly FlagDef[] = [
  PROFILE_FLAG,
  BASE_URL_FLAG,
  CLIENT_ID_FLAG,
  STORE_FLAG,
  TIMEOUT_FLAG,
  CA_FILE_FLAG,
  QUIET_FLAG,
  NO_COLOR_FLAG,
];

const CLIENT_ONLY = new Set(CLIENT_GLOBAL_FLAGS.map((flag) => flag.long));

/** Whether a global flag is one a command with `clientGlobals: false` does not take. */
export const isClientGlobal = (flag: FlagDef): boolean => CLIENT_ONLY.has(flag.long);

export const takesClientGlobals = (command: CommandDef): boolean => command.clientGlobals !== false;

/** In the order help lists them. */
const GLOBAL_FLAGS: readonly FlagDef[] = [
  VERSION_FLAG,
  PROFILE_FLAG,
  BASE_URL_FLAG,
  CLIENT_ID_FLAG,
  STORE_FLAG,
  TIMEOUT_FLAG,
  CA_FILE_FLAG,
  VERBOSE_FLAG,
  QUIET_FLAG,
  NO_COLOR_FLAG,
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
