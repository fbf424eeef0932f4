/**
 * The completion scripts in the real shells: bash through its completion function with
 * COMP_WORDS set, zsh through its completion system on a pseudo-terminal (zsh/zpty, see
 * fixtures/zsh-complete.zsh), fish through `complete -C`. Where a shell is missing the tests
 * skip and say so; in CI (`CI` set) they run and fail instead.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { partsRequired } from '../helpers/ci-required.js';
import { cleanEnv, runCli, tempDir } from '../helpers/cli.js';

const ZSH_CAPTURE = resolve(import.meta.dirname, 'fixtures/zsh-complete.zsh');

// Sources the script, sets the words being completed, calls the function as bash would on TAB.
const BASH_COMPLETE =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter expansions, not a template
  'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; _tokencli; printf "%s\\n" "${COMPREPLY[@]}"';

const hasShell = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;

let dir: string;
const scripts: Record<string, string> = {};
beforeAll(async () => {
  dir = tempDir('tokencli-completion-');
  mkdirSync(join(dir, 'config'));
  // Formatted by hand, not as tokencli writes it: the shells must not depend on the layout.
  writeFileSync(
    join(dir, 'config', 'config.json'),
    '{"profiles":{"default":{"base_url":"https://a.example","client_id":"x"},\n "work" : { "client_id": "y" },"ci.prod-1":{}}}\n',
  );
  writeFileSync(join(dir, 'key.pem'), 'not really a key\n');
  writeFileSync(join(dir, 'service.json'), '{}\n');
  for (const shell of ['bash', 'zsh', 'fish']) {
    const r = await runCli(['completion', shell]);
    expect(r.code).toBe(0);
    scripts[shell] = join(dir, `tokencli.${shell}`);
    writeFileSync(scripts[shell], r.stdout);
  }
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const env = () => cleanEnv({ TOKENCLI_CONFIG_DIR: join(dir, 'config'), HOME: dir });

/** Splits a command line at spaces; a trailing space means an empty word being completed. */
const words = (line: string) => line.split(' ');

const completers: Record<string, (line: string) => string[]> = {
  bash(line) {
    const r = spawnSync('bash', ['--norc', '-c', BASH_COMPLETE, 'bash', scripts.bash ?? '', ...words(line)], {
      env: env(),
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter((l) => l !== '');
  },
  zsh(line) {
    const r = spawnSync('zsh', ['-f', ZSH_CAPTURE, scripts.zsh ?? '', line], {
      env: env(),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter((l) => l !== '');
  },
  fish(line) {
    const r = spawnSync(
      'fish',
      ['--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', scripts.fish ?? '', line],
      { env: env(), encoding: 'utf8', timeout: 10_000 },
    );
    expect(r.stderr).toBe('');
    // fish prints "candidate<TAB>description".
    return r.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.split('\t')[0] ?? '');
  },
};

const sorted = (list: string[]) => [...new Set(list)].sort();

describe.each(['bash', 'zsh', 'fish'])('%s completion', (shell) => {
  // A bash on Windows is Git's (or WSL's launcher), given Windows paths: not what these test.
  const windows = process.platform === 'win32';
  const available = !windows && hasShell(shell);
  const run = !available && !partsRequired() ? test.skip : test;
  const reason = windows
    ? ' (skipped on Windows: the scripts are for shells on POSIX systems)'
    : available
      ? ''
      : ` (skipped: ${shell} is not installed)`;
  const complete = (line: string) => completers[shell]?.(line) ?? [];

  run(`global flags before the command, the command's flags after it${reason}`, () => {
    expect(complete('tokencli --profile work token --js')).toEqual(['--json']);
    expect(complete('tokencli --store file token --for')).toEqual(['--force', '--format']);
  });

  run(`command names, also after global flags with values${reason}`, () => {
    const names = complete('tokencli --profile work ');
    for (const name of ['configure', 'login', 'token', 'exec', 'info', 'serve', 'completion', 'help'])
      expect(names).toContain(name);
    expect(names).not.toContain('work');
    expect(complete('tokencli help to')).toEqual(['token']);
  });

  run(`option values from their choices, before or after the command${reason}`, () => {
    expect(sorted(complete('tokencli --store '))).toEqual(['file', 'keychain', 'none']);
    expect(sorted(complete('tokencli token --store '))).toEqual(['file', 'keychain', 'none']);
    expect(sorted(complete('tokencli token --format '))).toEqual(['env', 'header', 'json', 'token']);
    expect(sorted(complete('tokencli completion '))).toEqual(['bash', 'fish', 'zsh']);
    expect(sorted(complete('tokencli profile '))).toEqual(['list', 'remove', 'show', 'use']);
  });

  run(`profile names from the config file${reason}`, () => {
    expect(sorted(complete('tokencli --profile '))).toEqual(['ci.prod-1', 'default', 'work']);
    expect(sorted(complete('tokencli info --profile w'))).toEqual(['work']);
  });

  run(`profile use|show|remove complete profile names, not the subcommands again${reason}`, () => {
    for (const sub of ['use', 'show', 'remove'])
      expect(sorted(complete(`tokencli profile ${sub} `)), sub).toEqual(['ci.prod-1', 'default', 'work']);
    expect(complete('tokencli --verbose profile show w')).toEqual(['work']);
    // zsh offers the flags where no operand is expected; no shell offers names or subcommands.
    const afterList = complete('tokencli profile list ');
    for (const word of ['work', 'default', 'list', 'use']) expect(afterList).not.toContain(word);
    expect(complete('tokencli profile remove work --y')).toEqual(['--yes']);
  });

  run(`serve and completion are not offered the client-only global flags${reason}`, () => {
    const serve = complete('tokencli serve --');
    expect(serve).toContain('--port');
    expect(serve).toContain('--verbose');
    for (const flag of [
      '--profile',
      '--base-url',
      '--client-id',
      '--store',
      '--timeout',
      '--ca-file',
      '--quiet',
    ])
      expect(serve).not.toContain(flag);
    expect(complete('tokencli completion --pro')).toEqual([]);
    expect(complete('tokencli token --pro')).toEqual(['--profile']);
  });

  run(`files for options that take a file${reason}`, () => {
    // zsh's _files offers the name within its directory, bash and fish the whole path.
    const name = (list: string[]) => list.map((c) => c.slice(c.lastIndexOf('/') + 1));
    expect(name(complete(`tokencli sso --sign-key ${dir}/ke`))).toEqual(['key.pem']);
    expect(name(complete(`tokencli serve --config ${dir}/serv`))).toEqual(['service.json']);
    expect(name(complete(`tokencli --ca-file ${dir}/ke`))).toEqual(['key.pem']);
  });

  run(`exec -- completes the command line after it (files stay on)${reason}`, () => {
    expect(complete('tokencli exec -- ech')).toContain('echo');
    const name = (list: string[]) => list.map((c) => c.slice(c.lastIndexOf('/') + 1));
    expect(name(complete(`tokencli --profile work exec -- cat ${dir}/ke`))).toEqual(['key.pem']);
  });
});
