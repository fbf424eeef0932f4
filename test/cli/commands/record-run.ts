/**
 * A command line parsed in-process by the real program (commander, built from the command
 * definitions), with every run function replaced by one that records what it was given (gh's
 * `runF`): the command's path, the global options, its typed options and operands.
 */
import type { Command } from 'commander';
import { expect, test } from 'vitest';
import { buildProgram } from '../../../src/cli/commander/build-program.js';
import type { Deps } from '../../../src/cli/deps.js';
import { main } from '../../../src/cli/main.js';
import { tempDir } from '../../helpers/temp-dirs.js';
import { createTestIO } from '../../helpers/test-io.js';

export interface Recorded {
  path: string;
  globals: Record<string, unknown>;
  options: Record<string, unknown>;
  operands: unknown[];
}

/** The global options commander gives a command when none is given. */
export const NO_GLOBALS = { verbose: false, quiet: false, color: true };

const rootOf = (command: Command): Command => (command.parent ? rootOf(command.parent) : command);

/** Parses argv with the real program; the run function only records what it was given. */
export async function recordRun(argv: string[]): Promise<Recorded> {
  let globals: Record<string, unknown> = {};
  let recorded: Recorded | undefined;
  const program = buildProgram(
    (command) => {
      globals = rootOf(command).opts();
      return {} as Deps;
    },
    { writeOut: () => {}, writeErr: () => {} },
    (path) =>
      async (options, _deps, ...operands) => {
        recorded = { path, globals, options: { ...options }, operands };
      },
  );
  await program.parseAsync(argv, { from: 'user' });
  if (!recorded) throw new Error(`nothing ran for ${argv.join(' ')}`);
  return recorded;
}

/** Runs the real CLI in-process on argv with no service configured: for the checks made before any. */
export async function runChecked(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = createTestIO({ env: { TOKENCLI_CONFIG_DIR: tempDir('tokencli-checks-') } });
  const code = await main(argv, io);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

/** What one command line gives the run function; the globals beyond their defaults. */
export type Expected = Omit<Recorded, 'globals'> & { globals?: Record<string, unknown> };

/** One test per command line: the real program gives the run function exactly `expected`. */
export function testRecordedRuns(rows: [string[], Expected][]): void {
  test.each(rows)('%j', async (argv, expected) => {
    expect(await recordRun(argv)).toEqual({ ...expected, globals: { ...NO_GLOBALS, ...expected.globals } });
  });
}
