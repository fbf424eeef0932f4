/**
 * `tokencli info`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/info/info-command.ts → the typed options and operands).
 */
import { describe, expect, test } from 'vitest';
import { NO_GLOBALS, recordRun } from '../record-run.js';

describe('info: options', () => {
  test("['info']", async () => {
    expect(await recordRun(['info'])).toEqual({
      path: 'info',
      globals: NO_GLOBALS,
      options: {},
      operands: [],
    });
  });

  test("['info', '--json', '--show-tokens', '--token-stdin']", async () => {
    expect(await recordRun(['info', '--json', '--show-tokens', '--token-stdin'])).toEqual({
      path: 'info',
      globals: NO_GLOBALS,
      options: { json: true, showTokens: true, tokenStdin: true },
      operands: [],
    });
  });

  test("['info', '--base-url', 'http://127.0.0.1:1']", async () => {
    expect(await recordRun(['info', '--base-url', 'http://127.0.0.1:1'])).toEqual({
      path: 'info',
      globals: { ...NO_GLOBALS, ...{ baseUrl: 'http://127.0.0.1:1' } },
      options: {},
      operands: [],
    });
  });
});
