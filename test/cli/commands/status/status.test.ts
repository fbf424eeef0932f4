/**
 * `tokencli status`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/status/status-command.ts → the typed options and operands).
 */
import { describe } from 'vitest';
import { testRecordedRuns } from '../record-run.js';

describe('status: options', () => {
  testRecordedRuns([
    [['status'], { path: 'status', options: {}, operands: [] }],
    [['status', '--check', '--json'], { path: 'status', options: { check: true, json: true }, operands: [] }],
  ]);
});
