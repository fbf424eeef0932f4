/**
 * `tokencli configure`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/configure/configure-command.ts → the typed options and operands).
 */
import { describe, expect, test } from 'vitest';
import { NO_GLOBALS, recordRun } from '../record-run.js';

describe('configure: options', () => {
  test("['configure']", async () => {
    expect(await recordRun(['configure'])).toEqual({
      path: 'configure',
      globals: NO_GLOBALS,
      options: { secret: true },
      operands: [],
    });
  });

  test("['configure', '--no-secret', '--redirect-uri', 'http://127.0.0.1:1/cb', '--email', 'a@example.com']", async () => {
    expect(
      await recordRun([
        'configure',
        '--no-secret',
        '--redirect-uri',
        'http://127.0.0.1:1/cb',
        '--email',
        'a@example.com',
      ]),
    ).toEqual({
      path: 'configure',
      globals: NO_GLOBALS,
      options: { secret: false, redirectUri: 'http://127.0.0.1:1/cb', email: 'a@example.com' },
      operands: [],
    });
  });

  test("['configure', '--client-secret-stdin', '--timeout', '10']", async () => {
    expect(await recordRun(['configure', '--client-secret-stdin', '--timeout', '10'])).toEqual({
      path: 'configure',
      globals: { ...NO_GLOBALS, ...{ timeout: '10' } },
      options: { secret: true, clientSecretStdin: true },
      operands: [],
    });
  });
});
