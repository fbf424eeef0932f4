/**
 * A command's own run function, run without commander: for the launcher's light answers to the
 * commands that only read and report (`info`, `status`, `profile list` and `show`), whose argv
 * light-argv.ts has already read exactly as commander would (test/cli/option-parsing.test.ts
 * compares the two). The run function gets
 * the options, dependencies (deps.ts) and operands commander would give it, and runReported
 * (run-reported.ts) ends the run as the full CLI does: so every output, message and exit code is
 * the full CLI's, decided by the same code; only commander and the command table are not loaded.
 */

import type { CommandDef } from '../command-model/types.js';
import type { GlobalOptions } from '../context.js';
import { createDeps, type Deps } from '../deps.js';
import { type IO, processIO } from '../input/io.js';
import { runReported } from '../run-reported.js';
import type { ParsedCommand } from './parse-argv.js';

// biome-ignore lint/suspicious/noExplicitAny: each run function has its own typed options.
export type RunFunction = (options: any, deps: Deps, ...positional: any[]) => Promise<void>;

/** The operands as commander passes them: one per declared argument, a variadic one as a list. */
function positional(parsed: ParsedCommand, def: CommandDef): unknown[] {
  return (def.arguments ?? []).map((argument, index) =>
    argument.variadic ? parsed.operands.slice(index) : parsed.operands[index],
  );
}

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
        ...positional(parsed, def),
      ),
  );
}
