/**
 * How `tokencli exec` runs CMD once it holds a token: without a shell, with the token in its
 * environment, signals passed on, and the exit status a shell would report. Shared by the full
 * command (commands/exec.ts) and the launcher's light answer for a cached token (fast-exec.ts),
 * so both run CMD alike.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { ExitCode } from '../errors.js';
import type { ServiceCoordinates } from '../session/settings.js';
import type { TokenRecord } from '../store/types.js';
import { sanitizeText } from '../text/sanitize.js';
import { CommandExit } from './command-exit.js';
import type { CommandContext } from './context.js';
import { writeStderr } from './prefixes.js';

/** Secrets that obtained the token; CMD has no need of them. */
const WITHHELD_VARIABLES = ['TOKENCLI_PASSWORD', 'TOKENCLI_CLIENT_SECRET'];

/** Signals passed on to CMD while it runs; its exit status then tells what it made of them. */
const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2'];

/** CMD's environment: tokencli's own, with the token and the service, without the secrets. */
export function commandEnvironment(
  env: NodeJS.ProcessEnv,
  record: TokenRecord,
  service: ServiceCoordinates,
): NodeJS.ProcessEnv {
  const commandEnv: NodeJS.ProcessEnv = {
    ...env,
    TOKENCLI_ACCESS_TOKEN: record.access_token,
    TOKENCLI_TOKEN_EXPIRES_AT: record.expires_at,
    TOKENCLI_BASE_URL: service.baseUrl,
    // tokeninfo and other calls of the platform want the client id beside the token.
    TOKENCLI_CLIENT_ID: service.clientId,
  };
  // CMD gets the token, not what obtained it: the password and client secret stay with tokencli.
  for (const name of WITHHELD_VARIABLES) delete commandEnv[name];
  return commandEnv;
}

/**
 * Runs CMD with the token and resolves with its exit status; rejects with a CommandExit (127,
 * 126) when it cannot be started, having said why on stderr.
 */
export function runWithToken(
  command: string,
  args: string[],
  record: TokenRecord,
  service: ServiceCoordinates,
  ctx: CommandContext,
): Promise<number> {
  return runCommand(command, args, commandEnvironment(ctx.io.env, record, service), ctx);
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
    writeStderr(
      ctx,
      `error: command not found: ${name}\nhint: give a path or a name on PATH; exec runs the command without a shell\n`,
    );
    return new CommandExit(127);
  }
  writeStderr(ctx, `error: cannot run ${name}: ${sanitizeText(error.code ?? error.message)}\n`);
  return new CommandExit(error.code === 'EACCES' || error.code === 'ENOEXEC' ? 126 : ExitCode.internal);
}
