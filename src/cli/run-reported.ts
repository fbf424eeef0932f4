/**
 * How every command runs and ends, with or without commander: Ctrl-C aborts the run's signal (a
 * second one exits at once), and whatever the command throws becomes the `error: … / hint: …`
 * lines and the exit code of docs/contract.md §2.6 (exit-codes.ts). The full CLI (main.ts) runs
 * commander inside it; the launcher's light answers (launcher/run-light.ts) run a command's own run
 * function inside it, so both end every run alike.
 */
import { ExitCode, InterruptedError, TokencliError } from '../errors.js';
import type { IO } from './input/io.js';
import { CommandExit } from './output/command-exit.js';
import { runTarget } from './output/paste-command.js';
import { interruptedLine, paintPrefixes, stderrColor } from './output/prefixes.js';

/**
 * Runs `body` with the run's abort signal and returns the exit code: 0 when it returns, a
 * CommandExit's own code, or the code of the error it reported. `verbose()` says, once the
 * error is known, whether stack traces are wanted.
 */
export async function runReported(
  io: IO,
  verbose: () => boolean,
  body: (signal: AbortSignal) => Promise<void>,
): Promise<number> {
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(ExitCode.interrupted);
    controller.abort(new InterruptedError());
  };
  process.on('SIGINT', onSigint);
  try {
    await body(controller.signal);
    // A command that returns normally handled any interrupt itself (`serve` shuts down cleanly).
    return ExitCode.ok;
  } catch (error) {
    return await reportError(error, io, verbose(), controller.signal);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

async function reportError(error: unknown, io: IO, verbose: boolean, signal: AbortSignal): Promise<number> {
  if (error instanceof CommandExit) return error.exitCode;
  const target = runTarget(signal);
  const write = (lines: string) =>
    io.stderr.write(paintPrefixes(lines, stderrColor(io, target.noColor === true)));
  if (signal.aborted && !(error instanceof TokencliError && error.code !== 'interrupted')) {
    write(interruptedLine(io));
    return ExitCode.interrupted;
  }
  // Loaded only on failure: the wording table is not on the path of a successful `token`.
  const [{ describeError }, { sanitizeText }, { exitCodeOf }] = await Promise.all([
    import('./output/error-hints.js'),
    import('../text/sanitize.js'),
    import('./output/exit-codes.js'),
  ]);
  if (error instanceof TokencliError) {
    const { message, hint } = describeError(error, target);
    write(`error: ${sanitizeText(message)}\n${hint ? `hint: ${sanitizeText(hint)}\n` : ''}`);
    if (verbose && error.stack) io.stderr.write(`${error.stack}\n`);
    return exitCodeOf(error);
  }
  const message = error instanceof Error ? error.message : String(error);
  write(`error: internal error: ${sanitizeText(message)}\n`);
  if (verbose && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  else write('hint: run again with --verbose for details, and report it if it persists\n');
  return ExitCode.internal;
}
