/**
 * `tokencli logout`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/logout/logout-command.ts → the typed options and operands).
 */
import { describe, expect, test } from 'vitest';
import { NO_GLOBALS, recordRun } from '../record-run.js';

describe('logout: options', () => {
  test("['logout']", async () => {
    expect(await recordRun(['logout'])).toEqual({
      path: 'logout',
      globals: NO_GLOBALS,
      options: {},
      operands: [],
    });
  });

  test("['logout', '--purge']", async () => {
    expect(await recordRun(['logout', '--purge'])).toEqual({
      path: 'logout',
      globals: NO_GLOBALS,
      options: { purge: true },
      operands: [],
    });
  });
});
