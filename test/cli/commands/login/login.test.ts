/**
 * `tokencli login`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/login/login-command.ts → the typed options and operands).
 */
import { describe, expect, test } from 'vitest';
import { NO_GLOBALS, recordRun } from '../record-run.js';

describe('login: options', () => {
  test("['login']", async () => {
    expect(await recordRun(['login'])).toEqual({
      path: 'login',
      globals: NO_GLOBALS,
      options: { timeoutLogin: '300', browser: true },
      operands: [],
    });
  });

  test("['login', '--no-browser', '--scope', 'openid', '--redirect-uri', 'http://127.0.0.1:0/cb', '--timeout-login', '5', '--end-other-sessions', '--client-secret-stdin', '--json', '--show-tokens']", async () => {
    expect(
      await recordRun([
        'login',
        '--no-browser',
        '--scope',
        'openid',
        '--redirect-uri',
        'http://127.0.0.1:0/cb',
        '--timeout-login',
        '5',
        '--end-other-sessions',
        '--client-secret-stdin',
        '--json',
        '--show-tokens',
      ]),
    ).toEqual({
      path: 'login',
      globals: NO_GLOBALS,
      options: {
        browser: false,
        scope: 'openid',
        redirectUri: 'http://127.0.0.1:0/cb',
        timeoutLogin: '5',
        endOtherSessions: true,
        clientSecretStdin: true,
        json: true,
        showTokens: true,
      },
      operands: [],
    });
  });
});
