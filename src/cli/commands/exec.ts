/**
 * `tokencli exec [--min-ttl S] -- CMD [ARGS…]`: obtains a token exactly as `tokencli token` does
 * (token-flags.ts), then runs CMD without a shell with the token in its environment, like
 * `aws-vault exec` and `op run`. tokencli's exit code is CMD's, so `exec` can wrap any step of a
 * script; its own failures print `error:` and keep their codes (docs/contract.md §2.6), and a CMD that
 * cannot be started gets the shells' 127 (not found) or 126 (not executable).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { ExitCode, UsageError } from '../../errors.js';
import { sanitizeText } from '../../text/sanitize.js';
import { CommandExit } from '../command-exit.js';
import type { CommandContext } from '../context.js';
import type { Deps } from '../deps.js';
import { obtainWithFlags, type TokenFlags } from '../token-flags.js';

export type ExecOptions = TokenFlags;

/** Secrets that obtained the token; CMD has no need of them. */
const WITHHELD_VARIABLES = ['TOKENCLI_PASSWORD', 'TOKENCLI_CLIENT_SECRET'];

/** Signals passed on to CMD while it runs; its exit status then tells what it made of them. */
const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2'];

export async function run(options: ExecOptions, ctx: Deps, argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (command === undefined || command === '') {
    throw new UsageError('no command to run', 'e.g. tokencli exec -- curl https://api.example.com/v2/…');
  }
  const { record, service } = await obtainWithFlags(options, ctx);
  const env: NodeJS.ProcessEnv = {
    ...ctx.io.env,
    TOKENCLI_ACCESS_TOKEN: record.access_token,
    TOKENCLI_TOKEN_EXPIRES_AT: record.expires_at,
    TOKENCLI_BASE_URL: service.baseUrl,
    // tokeninfo and other calls of the platform want the client id beside the token.
    TOKENCLI_CLIENT_ID: service.clientId,
  };
  // CMD gets the token, not what obtained it: the password and client secret stay with tokencli.
  for (const name of WITHHELD_VARIABLES) delete env[name];
  throw new CommandExit(await runCommand(command, args, env, ctx));
}

/** Resolves with the exit status a shell would report: the code, or 128 + the signal's number. */
function runCommand(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ctx: CommandContext,
): Promise<number> {
  // While CMD runs, signals are CMD's business: tokencli's own handlers (main.ts aborts on the
  // first Ctrl-C and exits on the second) are set aside, so tokencli outlives CMD and reports
  // its status instead of leaving it orphaned.
  const saved = FORWARDED_SIGNALS.map((signal) => [signal, process.listeners(signal)] as const);
  let child: ChildProcess | undefined;
  const forward = (signal: NodeJS.Signals) => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const [signal] of saved) {
    process.removeAllListeners(signal);
    process.on(signal, forward);
  }
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    for (const [signal, listeners] of saved) {
      process.off(signal, forward);
      for (const listener of listeners) process.on(signal, listener);
    }
  };
  return new Promise<number>((resolve, reject) => {
    child = spawn(command, args, { stdio: 'inherit', env, shell: false });
    child.once('error', (error: NodeJS.ErrnoException) => {
      restore();
      reject(startFailure(error, command, ctx));
    });
    child.once('exit', (code, signal) => {
      restore();
      if (signal !== null) resolve(128 + (constants.signals[signal] ?? 0));
      else resolve(code ?? ExitCode.internal);
    });
  });
}

/** CMD could not be started: said like any tokencli error, with the status a shell would give. */
function startFailure(error: NodeJS.ErrnoException, command: string, ctx: CommandContext): CommandExit {
  const name = sanitizeText(command);
  if (error.code === 'ENOENT') {
    ctx.io.stderr.write(`error: command not found: ${name}\n`);
    ctx.io.stderr.write('hint: give a path or a name on PATH; exec runs the command without a shell\n');
    return new CommandExit(127);
  }
  ctx.io.stderr.write(`error: cannot run ${name}: ${sanitizeText(error.code ?? error.message)}\n`);
  return new CommandExit(error.code === 'EACCES' || error.code === 'ENOEXEC' ? 126 : ExitCode.internal);
}
