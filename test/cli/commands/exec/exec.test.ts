/**
 * `tokencli exec`'s option parsing, defaults and checks, in-process against a recorded run
 * function (argv → commander, built from commands/exec/exec-command.ts → the typed options).
 */
import { describe, expect, test } from 'vitest';
import { runChecked, testRecordedRuns } from '../record-run.js';

const DEFAULTS = { minTtl: '60', store: true };

describe('exec: options and the command line', () => {
  testRecordedRuns([
    [['exec', '--', 'env', '-0'], { path: 'exec', options: DEFAULTS, operands: [['env', '-0']] }],
    [
      ['exec', '--min-ttl', '3600', '--no-store', '--', 'node', '--help'],
      {
        path: 'exec',
        options: { minTtl: '3600', store: false },
        operands: [['node', '--help']],
        globals: { store: 'none' },
      },
    ],
    [
      ['exec', '--force', '--', 'x', '--', 'y'],
      { path: 'exec', options: { ...DEFAULTS, force: true }, operands: [['x', '--', 'y']] },
    ],
  ]);
});

describe('exec: checks', () => {
  // commander finds no operand at all; exec's own check an empty one, and names the run's flags.
  test.each([
    [['exec'], 'e.g. tokencli exec -- curl https://api.example.com/v2/…'],
    [['exec', '--'], 'e.g. tokencli exec -- curl https://api.example.com/v2/…'],
    [['exec', '--', ''], 'e.g. `tokencli exec -- curl https://api.example.com/v2/…`'],
  ])('%j has no command to run', async (argv, hint) => {
    expect(await runChecked(argv)).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: no command to run\nhint: ${hint}\n`,
    });
  });

  test('--min-ttl is checked as token checks it', async () => {
    expect(await runChecked(['exec', '--min-ttl', 'x', '--', 'true'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --min-ttl: "x" is not a whole number of seconds\nhint: e.g. --min-ttl 300\n',
    });
  });
});
