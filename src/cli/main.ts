/**
 * Parses the command line, runs the command, and maps every outcome to an exit code and the
 * `error: … / hint: …` lines of docs/contract.md §2.6 (the exit codes by code and reason: exit-codes.ts).
 */
import { type Command, CommanderError } from 'commander';
import { ExitCode, InterruptedError, TokencliError } from '../errors.js';
import { CommandExit } from './command-exit.js';
import type { GlobalOptions } from './context.js';
import { createDeps, type DepsOverrides } from './deps.js';
import { type IO, processIO } from './io.js';
import { buildProgram } from './program.js';

function rootOf(command: Command): Command {
  let c = command;
  while (c.parent) c = c.parent;
  return c;
}

/**
 * Runs one command line. `overrides` lets in-process tests replace the clock, the browser opener,
 * the prompt or the HTTP transport (see deps.ts); the CLI passes none.
 */
export async function main(
  argv: string[],
  io: IO = processIO(),
  overrides: DepsOverrides = {},
): Promise<number> {
  const controller = new AbortController();
  let verbose = argv.includes('--verbose');
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(ExitCode.interrupted);
    controller.abort(new InterruptedError());
  };
  process.on('SIGINT', onSigint);

  const program = buildProgram(
    (command, def) => {
      const globals = rootOf(command).opts() as GlobalOptions;
      verbose = globals.verbose;
      const readOnly = def.readOnly === true;
      return createDeps({ io, globals, signal: controller.signal, readOnly }, overrides);
    },
    {
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    },
  );

  try {
    await program.parseAsync(argv, { from: 'user' });
    // A command that returns normally handled any interrupt itself (`serve` shuts down cleanly).
    return ExitCode.ok;
  } catch (error) {
    return await reportError(error, io, verbose, controller.signal);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

async function reportError(error: unknown, io: IO, verbose: boolean, signal: AbortSignal): Promise<number> {
  if (error instanceof CommandExit) return error.exitCode;
  if (error instanceof CommanderError) {
    // commander already printed its message. `--help`, `help [CMD]` and `--version` succeed
    // (commander gives them exit code 0); help shown because no command was given is a usage error.
    return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  if (signal.aborted && !(error instanceof TokencliError && error.code !== 'interrupted')) {
    // A terminal echoed "^C" where the cursor was (ECHOCTL): start the error on a line of its own.
    io.stderr.write(`${io.stderrIsTTY ? '\n' : ''}error: interrupted\n`);
    return ExitCode.interrupted;
  }
  // Loaded only on failure: the wording table is not on the path of a successful `token`.
  const [{ describeError }, { sanitizeText }, { exitCodeOf }] = await Promise.all([
    import('./error-hints.js'),
    import('../text/sanitize.js'),
    import('./exit-codes.js'),
  ]);
  if (error instanceof TokencliError) {
    const { message, hint } = describeError(error);
    io.stderr.write(`error: ${sanitizeText(message)}\n`);
    if (hint) io.stderr.write(`hint: ${sanitizeText(hint)}\n`);
    if (verbose && error.stack) io.stderr.write(`${error.stack}\n`);
    return exitCodeOf(error);
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`error: internal error: ${sanitizeText(message)}\n`);
  if (verbose && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  else io.stderr.write('hint: run again with --verbose for details, and report it if it persists\n');
  return ExitCode.internal;
}
