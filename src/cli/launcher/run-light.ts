/**
 * A command's own run function, run without commander: for the launcher's light answers to the
 * commands that only read and report (`info`, `status`, `profile list` and `show`), whose argv
 * light-argv.ts has already read exactly as commander would (test/cli/launcher/parse-argv.test.ts
 * compares the two). The run function gets the options, dependencies (deps.ts) and operands
 * commander would give it, and runReported (run-reported.ts) ends the run as the full CLI does: so
 * every output, message and exit code is the full CLI's, decided by the same code; only commander
 * and the command table are not loaded.
 */
import type { CommandDef, RunFunction } from '../command-model/types.js';
import type { GlobalOptions } from '../context.js';
import { createDeps } from '../deps.js';
import { type IO, processIO } from '../input/io.js';
import { runReported } from '../run-reported.js';
import type { ParsedCommand } from './parse-argv.js';

/**
 * Runs `run` for the parsed command line of the command `def` declares and returns the process's
 * exit code. The dependencies are made as main.ts makes them, read-only where `def` says so.
 */
export function runLight(
  parsed: ParsedCommand,
  run: RunFunction,
  def: CommandDef,
  io: IO = processIO(),
): Promise<number> {
  const globals = parsed.globals as unknown as GlobalOptions;
  return runReported(
    io,
    () => globals.verbose,
    (signal) =>
      run(
        { ...parsed.options },
        createDeps({ io, globals, signal, readOnly: def.readOnly === true }),
        ...parsed.operands,
      ),
  );
}
