/**
 * `tokencli profile`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/profile/profile-command.ts → the typed options and operands).
 */
import { describe } from 'vitest';
import { testRecordedRuns } from '../record-run.js';

describe('profile: options', () => {
  testRecordedRuns([
    [['profile', 'list'], { path: 'profile list', options: {}, operands: [] }],
    [['profile', 'list', '--json'], { path: 'profile list', options: { json: true }, operands: [] }],
    [['profile', 'show'], { path: 'profile show', options: {}, operands: [undefined] }],
    [
      ['profile', 'show', 'work', '--json'],
      { path: 'profile show', options: { json: true }, operands: ['work'] },
    ],
    [['profile', 'use', 'work'], { path: 'profile use', options: {}, operands: ['work'] }],
    [
      ['profile', 'remove', 'old', '--yes'],
      { path: 'profile remove', options: { yes: true }, operands: ['old'] },
    ],
  ]);
});
