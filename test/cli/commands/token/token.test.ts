/**
 * `tokencli token`'s option parsing, defaults and checks, in-process against a recorded run
 * function (argv → commander, built from commands/token/token-command.ts → the typed options).
 */
import { describe, expect, test } from 'vitest';
import { runChecked, testRecordedRuns } from '../record-run.js';

const DEFAULTS = { minTtl: '60', store: true };

describe('token: options', () => {
  testRecordedRuns([
    [['token'], { path: 'token', options: DEFAULTS, operands: [] }],
    [
      ['token', '--min-ttl=300', '--format', 'header'],
      { path: 'token', options: { ...DEFAULTS, minTtl: '300', format: 'header' }, operands: [] },
    ],
    [
      ['token', '--json', '--show-tokens', '--no-store'],
      {
        path: 'token',
        options: { ...DEFAULTS, store: false, json: true, showTokens: true },
        operands: [],
        globals: { store: 'none' },
      },
    ],
    // --no-store is an alias of the global --store none: the run gets the same store.
    [
      ['--store', 'none', 'token'],
      { path: 'token', options: DEFAULTS, operands: [], globals: { store: 'none' } },
    ],
    [
      ['--store', 'none', 'token', '--no-store'],
      { path: 'token', options: { ...DEFAULTS, store: false }, operands: [], globals: { store: 'none' } },
    ],
    [
      ['token', '--email', 'ci@example.com', '--password-stdin', '--force', '--end-other-sessions'],
      {
        path: 'token',
        options: {
          ...DEFAULTS,
          email: 'ci@example.com',
          passwordStdin: true,
          force: true,
          endOtherSessions: true,
        },
        operands: [],
      },
    ],
    [
      ['token', '--client-secret-stdin'],
      { path: 'token', options: { ...DEFAULTS, clientSecretStdin: true }, operands: [] },
    ],
    [
      ['--profile', 'ci', 'token', '--quiet', '--no-color'],
      {
        path: 'token',
        options: DEFAULTS,
        operands: [],
        globals: { profile: 'ci', quiet: true, color: false },
      },
    ],
  ]);
});

describe('token: checks', () => {
  test.each([
    [
      ['token', '--min-ttl', 'abc'],
      'error: --min-ttl: "abc" is not a whole number of seconds\nhint: e.g. --min-ttl 300\n',
    ],
    [
      ['token', '--min-ttl', '1e3'],
      'error: --min-ttl: "1e3" is not a whole number of seconds\nhint: e.g. --min-ttl 300\n',
    ],
    [
      ['token', '--json', '--format', 'env'],
      'error: --json and --format env contradict each other\nhint: give one of them\n',
    ],
  ])('%j is a usage error before any store or network', async (argv, stderr) => {
    expect(await runChecked(argv)).toEqual({ code: 2, stdout: '', stderr });
  });

  test('--no-store with another --store is a contradiction', async () => {
    expect(await runChecked(['--store', 'file', 'token', '--no-store'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --no-store (an alias of --store none) contradicts --store file\n',
    });
  });

  test('--format takes only its choices', async () => {
    const result = await runChecked(['token', '--format', 'xml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "argument 'xml' is invalid. Allowed choices are token, header, json, env.",
    );
  });
});
