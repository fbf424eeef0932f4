/**
 * Parses the command line with commander and runs the command (run-reported.ts maps every
 * outcome to an exit code and the `error: … / hint: …` lines of docs/contract.md §2.6).
 */
import { type Command, CommanderError } from 'commander';
import { ExitCode } from '../errors.js';
import { buildProgram } from './commander/build-program.js';
import type { GlobalOptions } from './context.js';
import { createDeps, type DepsOverrides } from './deps.js';
import { type IO, processIO } from './input/io.js';
import { CommandExit } from './output/command-exit.js';
import { runReported } from './run-reported.js';

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
  let verbose = argv.includes('--verbose');
  return runReported(
    io,
    () => verbose,
    async (signal) => {
      const program = buildProgram(
        (command, def) => {
          const globals = rootOf(command).opts() as GlobalOptions;
          verbose = globals.verbose;
          const readOnly = def.readOnly === true;
          return createDeps({ io, globals, signal, readOnly }, overrides);
        },
        {
          writeOut: (s) => io.stdout.write(s),
          writeErr: (s) => io.stderr.write(s),
        },
      );
      try {
        await program.parseAsync(argv, { from: 'user' });
      } catch (error) {
        if (!(error instanceof CommanderError)) throw error;
        // commander already printed its message. `--help`, `help [CMD]` and `--version` succeed
        // (commander gives them exit code 0); help shown because no command was given is a usage error.
        throw new CommandExit(error.exitCode === 0 ? ExitCode.ok : ExitCode.usage);
      }
    },
  );
}
