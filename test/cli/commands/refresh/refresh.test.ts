/**
 * `tokencli refresh`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/refresh/refresh-command.ts → the typed options and operands).
 */
import { describe, expect, test } from 'vitest';
import { NO_GLOBALS, recordRun } from '../record-run.js';

describe('refresh: options', () => {
  test("['refresh']", async () => {
    expect(await recordRun(['refresh'])).toEqual({
      path: 'refresh',
      globals: NO_GLOBALS,
      options: {},
      operands: [],
    });
  });

  test("['refresh', '--json', '--show-tokens', '--end-other-sessions', '--client-secret-stdin']", async () => {
    expect(
      await recordRun([
        'refresh',
        '--json',
        '--show-tokens',
        '--end-other-sessions',
        '--client-secret-stdin',
      ]),
    ).toEqual({
      path: 'refresh',
      globals: NO_GLOBALS,
      options: { json: true, showTokens: true, endOtherSessions: true, clientSecretStdin: true },
      operands: [],
    });
  });
});
