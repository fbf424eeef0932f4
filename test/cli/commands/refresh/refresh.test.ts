/**
 * `tokencli refresh`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/refresh/refresh-command.ts → the typed options and operands).
 */
import { describe } from 'vitest';
import { testRecordedRuns } from '../record-run.js';

describe('refresh: options', () => {
  testRecordedRuns([
    [['refresh'], { path: 'refresh', options: {}, operands: [] }],
    [
      ['refresh', '--json', '--show-tokens', '--end-other-sessions', '--client-secret-stdin'],
      {
        path: 'refresh',
        options: { json: true, showTokens: true, endOtherSessions: true, clientSecretStdin: true },
        operands: [],
      },
    ],
  ]);
});
