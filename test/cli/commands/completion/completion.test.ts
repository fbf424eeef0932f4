/**
 * `tokencli completion`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/completion/completion-command.ts → the typed options and operands).
 */
import { describe, expect, test } from 'vitest';
import { runChecked, testRecordedRuns } from '../record-run.js';

describe('completion: options', () => {
  testRecordedRuns([
    [['completion', 'fish'], { path: 'completion', options: {}, operands: ['fish'] }],
    [['completion', 'bash'], { path: 'completion', options: {}, operands: ['bash'] }],
  ]);
});

describe('completion: checks', () => {
  test('the shell is one of its choices', async () => {
    const result = await runChecked(['completion', 'tcsh']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "error: command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.",
    );
  });
});
