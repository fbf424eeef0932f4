/** How `serve` names the binary in its paste-ready lines. */
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { invocation } from '../../../../src/cli/commands/serve/invocation.js';
import { VERSION } from '../../../../src/version.js';
import { tempDir } from '../../../helpers/cli.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

test('node with the script relative to the working directory when inside it', () => {
  expect(invocation({ argv: ['node', '/repo/bin/tokencli.js'], env: {}, cwd: '/repo' })).toBe(
    'node bin/tokencli.js',
  );
  expect(invocation({ argv: ['node', '/repo/bin/tokencli.js'], env: {}, cwd: '/elsewhere' })).toBe(
    'node /repo/bin/tokencli.js',
  );
  expect(invocation({ argv: ['node', "/my repo/it's/tokencli.js"], env: {}, cwd: '/' })).toBe(
    `node 'my repo/it'\\''s/tokencli.js'`,
  );
});

test('npx (a bin link in node_modules/.bin), even with npm_command from a parent npx', () => {
  const argv = ['node', '/home/u/.npm/_npx/1a2b/node_modules/.bin/tokencli'];
  expect(invocation({ argv, env: {}, cwd: '/work' })).toBe(`npx --yes tokencli@${VERSION}`);
  expect(
    invocation({ argv: ['node', '/repo/bin/tokencli.js'], env: { npm_command: 'exec' }, cwd: '/repo' }),
  ).toBe('node bin/tokencli.js');
});

test('the bare name when the bin link on PATH is this script', () => {
  const dir = tempDir();
  dirs.push(dir);
  mkdirSync(join(dir, 'pkg'));
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'pkg', 'tokencli.js'), '', { mode: 0o755 });
  symlinkSync(join(dir, 'pkg', 'tokencli.js'), join(dir, 'bin', 'tokencli'));
  const argv = ['node', join(dir, 'bin', 'tokencli')];
  expect(invocation({ argv, env: { PATH: `/nonexistent:${join(dir, 'bin')}` }, cwd: '/' })).toBe('tokencli');
  expect(invocation({ argv, env: { PATH: '/usr/bin' }, cwd: '/elsewhere' })).toBe(
    `node ${join(dir, 'bin', 'tokencli')}`,
  );
  // Another tokencli earlier on PATH is the one the bare name would run.
  mkdirSync(join(dir, 'other'));
  writeFileSync(join(dir, 'other', 'tokencli'), '', { mode: 0o755 });
  const shadowed = { PATH: `${join(dir, 'other')}:${join(dir, 'bin')}` };
  expect(invocation({ argv, env: shadowed, cwd: '/elsewhere' })).toBe(`node ${join(dir, 'bin', 'tokencli')}`);
  // A file there that is not a program is passed over, as a shell passes it over.
  chmodSync(join(dir, 'other', 'tokencli'), 0o644);
  expect(invocation({ argv, env: shadowed, cwd: '/elsewhere' })).toBe('tokencli');
});

test('npx of a tarball or directory names it again; of the registry, pinned to this version', () => {
  const cache = tempDir();
  dirs.push(cache);
  const entry = join(cache, '_npx', '1a2b');
  mkdirSync(join(entry, 'node_modules', '.bin'), { recursive: true });
  const argv = ['node', join(entry, 'node_modules', '.bin', 'tokencli')];
  writeFileSync(
    join(entry, 'package.json'),
    JSON.stringify({ dependencies: { tokencli: 'file:../../../work/tokencli-0.1.0.tgz' } }),
  );
  expect(invocation({ argv, env: {}, cwd: '/' })).toBe(
    `npx --yes --package=${join(cache, '..', 'work', 'tokencli-0.1.0.tgz')} tokencli`,
  );
  writeFileSync(join(entry, 'package.json'), JSON.stringify({ dependencies: { tokencli: '^0.1.0' } }));
  expect(invocation({ argv, env: {}, cwd: '/' })).toBe(`npx --yes tokencli@${VERSION}`);
});

/** A file standing in for the single executable, and the directory around it. */
function fakeExecutable(): { root: string; exe: string } {
  const root = tempDir();
  dirs.push(root);
  mkdirSync(join(root, 'tools'));
  const exe = join(root, 'tools', 'tokencli');
  writeFileSync(exe, '', { mode: 0o755 });
  return { root, exe };
}

test('the single executable as it was typed: a path from here, or a bare name PATH finds', () => {
  const { root, exe } = fakeExecutable();
  const tools = join(root, 'tools');
  // node puts the command as typed in argv[1] and the executable's path in argv[0].
  const typed = (word: string, env: Record<string, string> = {}, cwd = root) =>
    invocation({ argv: [exe, word], env, cwd, executable: exe });
  expect(typed('tools/tokencli')).toBe('tools/tokencli');
  expect(typed('./tokencli', {}, tools)).toBe('./tokencli');
  expect(typed('../tools/tokencli', {}, join(root, 'tools'))).toBe('../tools/tokencli');
  expect(typed(exe, {}, tools)).toBe(exe);
  expect(typed('tokencli', { PATH: `relative:${tools}` }, '/')).toBe('tokencli');
  // A link on PATH by another name is that name.
  mkdirSync(join(root, 'bin'));
  symlinkSync(exe, join(root, 'bin', 'tkn'));
  expect(typed('tkn', { PATH: join(root, 'bin') }, '/')).toBe('tkn');
});

test('the single executable where the typed word no longer reaches it: its name on PATH, else its path', () => {
  const { root, exe } = fakeExecutable();
  const tools = join(root, 'tools');
  const run = (word: string | undefined, env: Record<string, string>, cwd: string) =>
    invocation({ argv: word === undefined ? [exe] : [exe, word], env, cwd, executable: exe });
  // A relative path typed elsewhere, a bare name PATH does not find (a program may start it so).
  const elsewhere = join(root, 'elsewhere');
  expect(run('tools/tokencli', { PATH: tools }, elsewhere)).toBe('tokencli');
  expect(run('tokencli', {}, root)).toBe('./tools/tokencli');
  expect(run('tokencli', {}, elsewhere)).toBe(exe);
  expect(run(undefined, {}, elsewhere)).toBe(exe);
  expect(run('', { PATH: tools }, elsewhere)).toBe('tokencli');
  // Never through node, and quoted for the shell.
  const spaced = join(root, 'my tools');
  mkdirSync(spaced);
  writeFileSync(join(spaced, 'tokencli'), '', { mode: 0o755 });
  const quoted = invocation({
    argv: [join(spaced, 'tokencli'), 'tokencli'],
    env: {},
    cwd: root,
    executable: join(spaced, 'tokencli'),
  });
  expect(quoted).toBe(`'./my tools/tokencli'`);
});

test('the single executable typed by a path holding `=` is quoted: first on a line it would be an assignment', () => {
  const { root } = fakeExecutable();
  const odd = join(root, 'dist=linux');
  mkdirSync(odd);
  const exe = join(odd, 'tokencli');
  writeFileSync(exe, '', { mode: 0o755 });
  const typed = (word: string, env: Record<string, string> = {}) =>
    invocation({ argv: [exe, word], env, cwd: root, executable: exe });
  expect(typed('dist=linux/tokencli')).toBe(`'dist=linux/tokencli'`);
  expect(typed('./dist=linux/tokencli')).toBe(`'./dist=linux/tokencli'`);
  expect(typed('tokencli', { PATH: odd })).toBe('tokencli');
});

test('a working directory that is gone: the script and the executable by their full paths', () => {
  expect(invocation({ argv: ['node', '/repo/bin/tokencli.js'], env: {}, cwd: undefined })).toBe(
    'node /repo/bin/tokencli.js',
  );
  const dir = tempDir();
  dirs.push(dir);
  const executable = join(dir, 'tokencli');
  writeFileSync(executable, '', { mode: 0o755 });
  // Typed as ./tokencli in the directory since removed: named by the path that still reaches it.
  expect(invocation({ argv: [executable, './tokencli'], env: {}, cwd: undefined, executable })).toBe(
    executable,
  );
  expect(invocation({ argv: [executable, executable], env: {}, cwd: undefined, executable })).toBe(
    executable,
  );
});
