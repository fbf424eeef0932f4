/**
 * Each command's option parsing, in-process against a recorded run function (gh's `runF`): argv
 * → commander → the typed options and operands the run function receives. The launcher's parser
 * over the same command model (command-model/parse-argv.ts) must read every argv it accepts the
 * same way, and give up on the ones it does not understand.
 */
import type { Command } from 'commander';
import { describe, expect, test } from 'vitest';
import { PROGRAM } from '../../../src/cli/command-model/program.js';
import { buildProgram } from '../../../src/cli/commander/build-program.js';
import type { Deps } from '../../../src/cli/deps.js';
import { parseArgv } from '../../../src/cli/launcher/parse-argv.js';

interface Recorded {
  path: string;
  globals: Record<string, unknown>;
  options: Record<string, unknown>;
  operands: unknown[];
}

const rootOf = (command: Command): Command => (command.parent ? rootOf(command.parent) : command);

/** Parses argv with the real program; the run function only records what it was given. */
async function recordRun(argv: string[]): Promise<Recorded> {
  let globals: Record<string, unknown> = {};
  let recorded: Recorded | undefined;
  const program = buildProgram(
    (command) => {
      globals = rootOf(command).opts();
      return {} as Deps;
    },
    { writeOut: () => {}, writeErr: () => {} },
    (path) =>
      async (options, _deps, ...operands) => {
        recorded = { path, globals, options: { ...options }, operands };
      },
  );
  await program.parseAsync(argv, { from: 'user' });
  if (!recorded) throw new Error(`nothing ran for ${argv.join(' ')}`);
  return recorded;
}

const NO_GLOBALS = { verbose: false, quiet: false, color: true };

describe('each command receives its typed options', () => {
  test.each<[string[], Omit<Recorded, 'globals'> & { globals?: Record<string, unknown> }]>([
    [['token'], { path: 'token', options: { minTtl: '60', store: true }, operands: [] }],
    [
      ['--profile', 'ci', 'token', '--format', 'header', '--min-ttl=300'],
      {
        path: 'token',
        globals: { profile: 'ci' },
        options: { minTtl: '300', store: true, format: 'header' },
        operands: [],
      },
    ],
    [
      ['token', '--profile=ci', '--json', '--show-tokens', '--no-store', '--quiet', '--no-color'],
      {
        path: 'token',
        globals: { profile: 'ci', quiet: true, color: false },
        options: { minTtl: '60', store: false, json: true, showTokens: true },
        operands: [],
      },
    ],
    [
      ['exec', '--min-ttl', '3600', '--', 'env', '-0'],
      { path: 'exec', options: { minTtl: '3600', store: true }, operands: [['env', '-0']] },
    ],
    [
      ['info', '--json', '--base-url', 'http://127.0.0.1:1'],
      { path: 'info', globals: { baseUrl: 'http://127.0.0.1:1' }, options: { json: true }, operands: [] },
    ],
    [['status', '--check'], { path: 'status', options: { check: true }, operands: [] }],
    [
      ['login', '--no-browser'],
      { path: 'login', options: { browser: false, timeoutLogin: '300' }, operands: [] },
    ],
    [['configure', '--no-secret'], { path: 'configure', options: { secret: false }, operands: [] }],
    [['profile', 'list', '--json'], { path: 'profile list', options: { json: true }, operands: [] }],
    [['profile', 'show'], { path: 'profile show', options: {}, operands: [undefined] }],
    [['profile', 'use', 'work'], { path: 'profile use', options: {}, operands: ['work'] }],
    [
      ['profile', 'remove', 'old', '--yes'],
      { path: 'profile remove', options: { yes: true }, operands: ['old'] },
    ],
    [
      ['serve', '--port', '0', '--allow-host', 'a', 'b'],
      { path: 'serve', options: { host: '127.0.0.1', port: '0', allowHost: ['a', 'b'] }, operands: [] },
    ],
    [['completion', 'fish'], { path: 'completion', options: {}, operands: ['fish'] }],
  ])('%j', async (argv, expected) => {
    const recorded = await recordRun(argv);
    expect(recorded).toEqual({ ...expected, globals: { ...NO_GLOBALS, ...expected.globals } });
  });
});

describe("the launcher's parser reads the model as commander does", () => {
  test.each([
    ['token'],
    ['--profile', 'ci', 'token'],
    ['token', '--profile', 'ci', '--format', 'header'],
    ['token', '--profile=ci', '--min-ttl', '300', '--format=env', '--no-store'],
    ['--store', 'file', 'token', '--json', '--show-tokens', '--quiet', '--no-color'],
    ['--timeout', '5', 'token', '--force', '--email', 'ci@example.com'],
    ['info', '--json'],
    ['status'],
    ['profile', 'list', '--json'],
    ['profile', 'show', 'work', '--json'],
    ['profile', 'use', 'work'],
    ['completion', 'zsh'],
    ['exec', '--', 'env', '-0', '--profile', 'x', '--'],
    ['--profile', 'ci', 'exec', '--min-ttl=300', '--no-store', '--', 'node', '--help'],
    ['exec', 'env', '--min-ttl', '5', '--', 'x', '-y'],
  ])('%j', async (...argv) => {
    const recorded = await recordRun(argv);
    const parsed = parseArgv(PROGRAM, argv);
    if (parsed?.kind !== 'command') throw new Error(`not read: ${argv.join(' ')}`);
    const { given: _given, ...read } = parsed;
    expect(read).toEqual({
      kind: 'command',
      path: recorded.path,
      globals: recorded.globals,
      options: recorded.options,
      operands: recorded.operands,
    });
  });

  test.each([
    [[]],
    [['--help']],
    [['token', '-h']],
    [['help', 'token']],
    [['-V']],
    [['token', '--nope']],
    [['token', '--format', 'xml']],
    [['token', '--format']],
    [['token', '--profile', '--json']],
    [['token', '--force=yes']],
    [['token', 'extra']],
    [['--json', 'token']],
    [['nope']],
    [['profile']],
    [['profile', 'use']],
    [['completion', 'tcsh']],
    [['exec', '--']],
    [['exec']],
    [['token', '--', 'x']],
    [['--', 'token']],
    [['serve', '--allow-host', 'a']],
    [['serve', '--control-token', 'x']],
  ])('gives up on %j', (argv) => {
    expect(parseArgv(PROGRAM, argv)).toBeUndefined();
  });

  test('answers --version alone', () => {
    expect(parseArgv(PROGRAM, ['--version'])).toEqual({ kind: 'version' });
  });
});
