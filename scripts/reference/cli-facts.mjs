/**
 * The one place the documentation generator reads the CLI: its command model and its exit codes,
 * from the built modules (`npm run build` first). After src/cli/ moves, only these imports change.
 *
 * The exit codes' meanings live here because src/cli/output/exit-codes.ts does not describe them yet;
 * they belong beside the codes there, and this table should move into it.
 */
import { isClientGlobal, PROGRAM } from '../../dist/cli/command-model/program.js';
import { REPOSITORY_URL } from '../../dist/cli/output/doc-location.js';
import { exitCodeOf } from '../../dist/cli/output/exit-codes.js';
import { ExitCode } from '../../dist/errors.js';
import { SETTING_VARIABLES } from '../../dist/session/environment.js';
import { VERSION } from '../../dist/version.js';

export { isClientGlobal, PROGRAM, REPOSITORY_URL, SETTING_VARIABLES, VERSION };

/** What each exit code means, keyed as `ExitCode` names them. */
const MEANINGS = {
  ok: 'success (`info`: the token is approved and unexpired)',
  internal: 'unexpected internal error',
  usage:
    'usage error: bad flag, missing or malformed input, refused plain-http base URL, port taken, an explicit `--store keychain` that cannot be had',
  refused:
    'the service refused: bad client or user credentials, grant not enabled, invalid code, invalid or revoked token',
  notLoggedIn:
    "nothing usable stored: not logged in, no refresh token, refresh token expired, the profile's recorded keychain out of reach",
  unavailable:
    'the service could not be reached or failed: connection error, timeout, 5xx, a response that is not the JSON expected',
  loginIncomplete: 'login did not complete: timed out waiting for the browser, or the user denied access',
  interrupted: 'interrupted',
};

/** The claims the meanings make about a reason whose code differs from its error code's. */
const CLAIMS = [
  { error: { code: 'store', reason: 'keychain_unavailable' }, exit: 'usage' },
  { error: { code: 'store', reason: 'profile_store_unreachable' }, exit: 'notLoggedIn' },
];

/** `[{ code, name, meaning }]` in ascending order; throws where the table and the code disagree. */
export function exitCodes() {
  const names = Object.keys(ExitCode);
  const undescribed = names.filter((name) => !(name in MEANINGS));
  const unknown = Object.keys(MEANINGS).filter((name) => !(name in ExitCode));
  if (undescribed.length || unknown.length)
    throw new Error(`exit codes without a meaning: ${undescribed}; meanings without a code: ${unknown}`);
  for (const { error, exit } of CLAIMS) {
    const actual = exitCodeOf(error);
    if (actual !== ExitCode[exit])
      throw new Error(`${error.reason} exits ${actual}, the table says ${ExitCode[exit]}`);
  }
  return names
    .map((name) => ({ code: ExitCode[name], name, meaning: MEANINGS[name] }))
    .sort((a, b) => a.code - b.code);
}

/** The grant or endpoint each command uses (the contract's table). */
export const GRANTS = {
  configure: '—',
  login: 'authorization_code',
  token: 'client_credentials (and the cache)',
  exec: 'as `token`',
  refresh: 'refresh_token',
  sso: 'saml2-bearer',
  info: 'tokeninfo',
  status: '— (`--check`: tokeninfo)',
  logout: '—',
  profile: '—',
  serve: '—',
  completion: '—',
  version: '—',
};

/** `help` is commander's own command, not in the model. */
export const HELP_COMMAND = {
  name: 'help',
  description: 'help for tokencli or one command (same as `tokencli COMMAND --help`)',
  flags: [],
  arguments: [{ name: 'command', description: 'the command to describe', required: false }],
};
