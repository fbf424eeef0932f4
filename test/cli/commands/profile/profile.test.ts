/**
 * `tokencli profile`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/profile/profile-command.ts → the typed options and operands).
 */
import { describe, expect, test } from 'vitest';
import { runChecked, testRecordedRuns } from '../record-run.js';

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

describe('profile: help', () => {
  test.each(['list', 'use', 'show', 'remove'])('profile %s --help has examples of itself', async (sub) => {
    const help = await runChecked(['profile', sub, '--help']);
    expect(help.code).toBe(0);
    const examples = help.stdout.split('\nExamples:\n')[1] ?? '';
    expect(examples).toContain(`tokencli profile ${sub}`);
  });
});
