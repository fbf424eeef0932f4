/**
 * `tokencli logout`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/logout/logout-command.ts → the typed options and operands).
 */
import { describe } from 'vitest';
import { testRecordedRuns } from '../record-run.js';

describe('logout: options', () => {
  testRecordedRuns([
    [['logout'], { path: 'logout', options: {}, operands: [] }],
    [['logout', '--purge'], { path: 'logout', options: { purge: true }, operands: [] }],
  ]);
});
