/**
 * `tokencli status`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/status/status-command.ts → the typed options and operands).
 */
import { describe, expect, test } from 'vitest';
import { NO_GLOBALS, recordRun } from '../record-run.js';

describe('status: options', () => {
  test("['status']", async () => {
    expect(await recordRun(['status'])).toEqual({
      path: 'status',
      globals: NO_GLOBALS,
      options: {},
      operands: [],
    });
  });

  test("['status', '--check', '--json']", async () => {
    expect(await recordRun(['status', '--check', '--json'])).toEqual({
      path: 'status',
      globals: NO_GLOBALS,
      options: { check: true, json: true },
      operands: [],
    });
  });
});
