/**
 * `tokencli configure`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/configure/configure-command.ts → the typed options and operands).
 */
import { describe } from 'vitest';
import { testRecordedRuns } from '../record-run.js';

describe('configure: options', () => {
  testRecordedRuns([
    [['configure'], { path: 'configure', options: { secret: true }, operands: [] }],
    [
      ['configure', '--no-secret', '--redirect-uri', 'http://127.0.0.1:1/cb', '--email', 'a@example.com'],
      {
        path: 'configure',
        options: { secret: false, redirectUri: 'http://127.0.0.1:1/cb', email: 'a@example.com' },
        operands: [],
      },
    ],
    [
      ['configure', '--client-secret-stdin', '--timeout', '10'],
      {
        path: 'configure',
        options: { secret: true, clientSecretStdin: true },
        operands: [],
        globals: { timeout: '10' },
      },
    ],
  ]);
});
