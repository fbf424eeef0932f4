/**
 * `tokencli login`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/login/login-command.ts → the typed options and operands).
 */
import { describe } from 'vitest';
import { testRecordedRuns } from '../record-run.js';

describe('login: options', () => {
  testRecordedRuns([
    [['login'], { path: 'login', options: { timeoutLogin: '300', browser: true }, operands: [] }],
    [
      [
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
      ],
      {
        path: 'login',
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
      },
    ],
  ]);
});
