/** How `serve` names the binary in its paste-ready lines. */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
  writeFileSync(join(dir, 'pkg', 'tokencli.js'), '');
  symlinkSync(join(dir, 'pkg', 'tokencli.js'), join(dir, 'bin', 'tokencli'));
  const argv = ['node', join(dir, 'bin', 'tokencli')];
  expect(invocation({ argv, env: { PATH: `/nonexistent:${join(dir, 'bin')}` }, cwd: '/' })).toBe('tokencli');
  expect(invocation({ argv, env: { PATH: '/usr/bin' }, cwd: '/elsewhere' })).toBe(
    `node ${join(dir, 'bin', 'tokencli')}`,
  );
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

test('the single executable by its own path (it runs itself: argv[1] is argv[0]), never through node', () => {
  const exe = '/opt/tools/tokencli';
  expect(invocation({ argv: [exe, exe], env: {}, cwd: '/work' })).toBe('/opt/tools/tokencli');
  expect(invocation({ argv: [exe, exe], env: {}, cwd: '/opt' })).toBe('./tools/tokencli');
  expect(invocation({ argv: ['/my dir/tokencli', '/my dir/tokencli'], env: {}, cwd: '/' })).toBe(
    `'./my dir/tokencli'`,
  );
});
