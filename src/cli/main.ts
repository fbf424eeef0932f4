/**
 * Parses the command line, runs the command, and maps every outcome to an exit code and the
 * `error: … / hint: …` lines of SPEC.md §2.6. The only place that decides exit codes.
 */
import { type Command, CommanderError } from 'commander';
import { ExitCode, TokencliError } from '../errors.js';
import { CommandExit } from './command-exit.js';
import type { GlobalOptions } from './context.js';
import { type IO, processIO } from './io.js';
import { buildProgram } from './program.js';
import { sanitizeText } from './sanitize.js';

class InterruptedError extends TokencliError {
  constructor() {
    super('interrupted', { exitCode: ExitCode.interrupted });
  }
}

function rootOf(command: Command): Command {
  let c = command;
  while (c.parent) c = c.parent;
  return c;
}

export async function main(argv: string[], io: IO = processIO()): Promise<number> {
  const controller = new AbortController();
  let verbose = argv.includes('--verbose');
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(ExitCode.interrupted);
    controller.abort(new InterruptedError());
  };
  process.on('SIGINT', onSigint);

  const program = buildProgram(
    (command) => {
      const globals = rootOf(command).opts() as GlobalOptions;
      verbose = globals.verbose;
      return { io, globals, signal: controller.signal };
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
    return reportError(error, io, verbose, controller.signal);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

function reportError(error: unknown, io: IO, verbose: boolean, signal: AbortSignal): number {
  if (error instanceof CommandExit) return error.exitCode;
  if (error instanceof CommanderError) {
    // commander already printed its message. `--help`, `help [CMD]` and `--version` succeed
    // (commander gives them exit code 0); help shown because no command was given is a usage error.
    return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  if (signal.aborted && !(error instanceof TokencliError && error.exitCode !== ExitCode.interrupted)) {
    // A terminal echoed "^C" where the cursor was (ECHOCTL): start the error on a line of its own.
    io.stderr.write(`${io.stderrIsTTY ? '\n' : ''}error: interrupted\n`);
    return ExitCode.interrupted;
  }
  if (error instanceof TokencliError) {
    io.stderr.write(`error: ${sanitizeText(error.message)}\n`);
    if (error.hint) io.stderr.write(`hint: ${sanitizeText(error.hint)}\n`);
    if (verbose && error.stack) io.stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`error: internal error: ${sanitizeText(message)}\n`);
  if (verbose && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  else io.stderr.write('hint: run again with --verbose for details, and report it if it persists\n');
  return ExitCode.internal;
}
