/**
 * Which command lines the launcher hands to a light answer (src/cli/launcher/light-argv.ts), all
 * derived from the command definitions: the commands that name one, and for the cached-token
 * answers (`token`, `exec`) the flags that say they decline it. A flag that does not say so — a
 * new one, with a default or not — keeps every call on the light path; these tests fail if a
 * default, or any flag not marked, would send the calls to the full CLI.
 */
import { describe, expect, test } from 'vitest';
import { PROGRAM } from '../../../src/cli/command-model/program.js';
import { commandPaths, type FlagDef, type ProgramDef } from '../../../src/cli/command-model/types.js';
import { lightAnswers, lightPlan } from '../../../src/cli/launcher/light-argv.js';

/** The words that give a flag on the command line, with a value it accepts. */
function give(flag: FlagDef): string[] {
  if (flag.value === undefined) return [flag.long];
  return [flag.long, flag.choices?.[0] ?? (flag.long === '--min-ttl' ? '300' : 'x')];
}

const CACHED = ['token', 'exec'] as const;
const line = (path: string, ...words: string[]) =>
  path === 'exec' ? [path, ...words, '--', 'true'] : [path, ...words];
const flagsOf = (path: string) => PROGRAM.commands.find((command) => command.name === path)?.flags ?? [];
const globals = PROGRAM.globals.filter((flag) => flag.long !== '--version');

describe('the light answers come from the definitions', () => {
  test('each command that names one, by its path', () => {
    expect(Object.fromEntries(lightAnswers())).toEqual({
      token: 'light-token',
      exec: 'light-exec',
      info: 'light-info',
      status: 'light-status',
      'profile list': 'light-profile',
      'profile show': 'light-profile',
    });
    for (const [path, def] of commandPaths(PROGRAM)) expect(lightAnswers().get(path)).toBe(def.light);
  });

  test('--version is answered, a command without a light answer goes to the full CLI', () => {
    expect(lightPlan(['--version'])).toMatchObject({ kind: 'version' });
    expect(lightPlan(['login'])).toBeUndefined();
    expect(lightPlan(['profile', 'use', 'x'])).toBeUndefined();
  });
});

describe.each(CACHED)('%s: the flags decide whether a cached answer may be given', (path) => {
  test('no flag given: defaults never count as given', () => {
    expect(lightPlan(line(path))).toMatchObject({ kind: 'command', path, declinesCachedAnswer: false });
  });

  test.each([...flagsOf(path), ...globals].map((flag) => [flag.long, flag] as const))('%s', (_long, flag) => {
    const plan = lightPlan(line(path, ...give(flag)));
    expect(plan).toMatchObject({ kind: 'command', path });
    expect(plan?.kind === 'command' && plan.declinesCachedAnswer).toBe(flag.declinesCachedAnswer === true);
  });

  test('a new flag with a default stays on the light path unless it says otherwise', () => {
    const extra: FlagDef = { long: '--new-flag', value: '<x>', description: 'new', default: 'a' };
    const program: ProgramDef = {
      ...PROGRAM,
      commands: PROGRAM.commands.map((c) => (c.name === path ? { ...c, flags: [...c.flags, extra] } : c)),
    };
    expect(lightPlan(line(path), program)).toMatchObject({ declinesCachedAnswer: false });
    expect(lightPlan(line(path, '--new-flag', 'b'), program)).toMatchObject({ declinesCachedAnswer: false });
  });
});

test('the flags that decline a cached answer are the ones that may renew, read stdin or trace', () => {
  const declining = [...flagsOf('token'), ...globals].filter((flag) => flag.declinesCachedAnswer);
  expect(declining.map((flag) => flag.long).sort()).toEqual([
    '--client-secret-stdin',
    '--email',
    '--end-other-sessions',
    '--force',
    '--no-store',
    '--password-stdin',
    '--verbose',
  ]);
});
