/**
 * `tokencli profile`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/profile/profile-command.ts → the typed options and operands).
 */
import { describe, expect, test } from 'vitest';
import { NO_GLOBALS, recordRun } from '../record-run.js';

describe('profile: options', () => {
  test("['profile', 'list']", async () => {
    expect(await recordRun(['profile', 'list'])).toEqual({
      path: 'profile list',
      globals: NO_GLOBALS,
      options: {},
      operands: [],
    });
  });

  test("['profile', 'list', '--json']", async () => {
    expect(await recordRun(['profile', 'list', '--json'])).toEqual({
      path: 'profile list',
      globals: NO_GLOBALS,
      options: { json: true },
      operands: [],
    });
  });

  test("['profile', 'show']", async () => {
    expect(await recordRun(['profile', 'show'])).toEqual({
      path: 'profile show',
      globals: NO_GLOBALS,
      options: {},
      operands: [undefined],
    });
  });

  test("['profile', 'show', 'work', '--json']", async () => {
    expect(await recordRun(['profile', 'show', 'work', '--json'])).toEqual({
      path: 'profile show',
      globals: NO_GLOBALS,
      options: { json: true },
      operands: ['work'],
    });
  });

  test("['profile', 'use', 'work']", async () => {
    expect(await recordRun(['profile', 'use', 'work'])).toEqual({
      path: 'profile use',
      globals: NO_GLOBALS,
      options: {},
      operands: ['work'],
    });
  });

  test("['profile', 'remove', 'old', '--yes']", async () => {
    expect(await recordRun(['profile', 'remove', 'old', '--yes'])).toEqual({
      path: 'profile remove',
      globals: NO_GLOBALS,
      options: { yes: true },
      operands: ['old'],
    });
  });
});
