/**
 * `tokencli version` and the habits of gh and kubectl users: `-v`, an unknown option, a command's
 * option given before the command — in-process, against the real program.
 */
import { describe, expect, test } from 'vitest';
import { VERSION } from '../../../../src/version.js';
import { runChecked, testRecordedRuns } from '../record-run.js';

describe('version: options', () => {
  testRecordedRuns([[['version'], { path: 'version', options: {}, operands: [] }]]);
});

describe('version and the conventions typed by habit', () => {
  test('`tokencli version` prints what --version prints', async () => {
    expect(await runChecked(['version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect((await runChecked(['--version'])).stdout).toBe(`${VERSION}\n`);
  });

  test('-v is a usage error naming --version and --verbose', async () => {
    const r = await runChecked(['-v']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(/^error: unknown option '-v'\nhint: .*--version.*--verbose/);
  });

  test.each([
    [['token', '--nope'], 'tokencli token --help'],
    [['profile', 'show', '--nope'], 'tokencli profile show --help'],
    [['--nope', 'status'], 'tokencli --help'],
  ])('%j: an unknown option points to its command help', async (argv, help) => {
    const r = await runChecked(argv);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe(`error: unknown option '--nope'\nhint: see ${help}\n`);
  });

  test.each([
    [['--email', 'a@b.c', 'token'], 'token', '`tokencli token --email a@b.c`'],
    [
      ['--profile', 'demo', '--email=a@b.c', '--quiet', 'token', '--json'],
      'token',
      '`tokencli --profile demo --quiet token --email=a@b.c --json`',
    ],
    [['--min-ttl', '5', 'exec', '--', 'ls', '-l'], 'exec', '`tokencli exec --min-ttl 5 -- ls -l`'],
    // A line that names a secret-looking flag is never echoed.
    [['--email', 'a@b.c', 'token', '--password=hunter2'], 'token', 'see tokencli token --help'],
  ])('%j: a command option before the command says whose it is', async (argv, command, hint) => {
    const r = await runChecked(argv);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe(
      `error: option '${argv.find((a) => a.startsWith('--e') || a.startsWith('--m'))?.split('=')[0]}' belongs to ${command}: give it after the command\nhint: ${hint}\n`,
    );
    expect(r.stderr).not.toContain('hunter2');
  });
});

describe('a secret given as a flag', () => {
  test("the hint's command carries the run's profile", async () => {
    const r = await runChecked(['--profile', 'ci', 'token', '--token', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pipe it to `tokencli --profile ci info --token-stdin`');
    const login = await runChecked(['--profile', 'ci', 'refresh', '--refresh-token=x']);
    expect(login.stderr).toContain('run `tokencli --profile ci login` once');
  });
});
