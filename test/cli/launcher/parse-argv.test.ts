/**
 * The launcher's parser over the command model (src/cli/launcher/parse-argv.ts) must read every
 * argv it accepts as commander does (in-process, against a recorded run function: each command's
 * own options are tested in test/cli/commands/), and give up on the ones it does not understand.
 */
import { describe, expect, test } from 'vitest';
import { PROGRAM } from '../../../src/cli/command-model/program.js';
import { commandPaths } from '../../../src/cli/command-model/types.js';
import { parseArgv } from '../../../src/cli/launcher/parse-argv.js';
import { recordRun } from '../commands/record-run.js';

describe("the launcher's parser reads the model as commander does", () => {
  test.each([
    ['token'],
    ['--profile', 'ci', 'token'],
    ['token', '--profile', 'ci', '--format', 'header'],
    // Not --no-store: commander makes it --store none, and it declines every light answer.
    ['token', '--profile=ci', '--min-ttl', '300', '--format=env'],
    ['--store', 'file', 'token', '--json', '--show-tokens', '--quiet', '--no-color'],
    ['--timeout', '5', 'token', '--force', '--email', 'ci@example.com'],
    ['info', '--json'],
    ['status'],
    ['profile', 'list', '--json'],
    ['profile', 'show', 'work', '--json'],
    ['profile', 'use', 'work'],
    ['completion', 'zsh'],
    ['exec', '--', 'env', '-0', '--profile', 'x', '--'],
    ['--profile', 'ci', 'exec', '--min-ttl=300', '--', 'node', '--help'],
    ['exec', 'env', '--min-ttl', '5', '--', 'x', '-y'],
  ])('%j', async (...argv) => {
    const recorded = await recordRun(argv);
    const parsed = parseArgv(PROGRAM, argv);
    if (parsed?.kind !== 'command') throw new Error(`not read: ${argv.join(' ')}`);
    const { given: _given, command, ...read } = parsed;
    // The definition found is the one at that path, which names the command's light answer.
    expect(command).toBe(new Map(commandPaths(PROGRAM)).get(recorded.path));
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
