/**
 * The release workflow's version check (scripts/release/version-check.mjs): a tag is released only
 * when every file that names the release it comes with names the tag's version.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { versionMismatches } from '../../scripts/release/version-check.mjs';
import { tempDir } from '../helpers/temp-dirs.js';

const root = resolve(import.meta.dirname, '../..');
const script = join(root, 'scripts/release/version-check.mjs');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

/** A copy of the four files that name the version. */
function copyOfVersionFiles(): string {
  const dir = tempDir('tokencli-version-check-');
  mkdirSync(join(dir, 'man'));
  for (const file of ['package.json', 'install.sh', 'action.yml', 'man/tokencli.1'])
    copyFileSync(join(root, file), join(dir, file));
  return dir;
}

test('this checkout names one version everywhere: its tag passes', () => {
  expect(versionMismatches(root, `v${version}`)).toEqual([]);
  const run = spawnSync(process.execPath, [script, `v${version}`], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
});

test('another tag is refused, each file that disagrees named in one line', () => {
  const run = spawnSync(process.execPath, [script, 'v99.0.0'], { encoding: 'utf8' });
  expect(run.status).toBe(1);
  expect(run.stderr.split('\n').filter(Boolean)).toEqual([
    `version-check: package.json's version is ${version}, not the tag's 99.0.0`,
    `version-check: install.sh's RELEASED_VERSION is ${version}, not the tag's 99.0.0`,
    `version-check: action.yml's version default is ${version}, not the tag's 99.0.0`,
    `version-check: the man page's .TH version (npm run docs) is ${version}, not the tag's 99.0.0`,
    'version-check: bump them together (CONTRIBUTING.md, Releases)',
  ]);
});

test('package.json bumped alone: the files left behind are named', () => {
  const dir = copyOfVersionFiles();
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...pkg, version: '99.0.0' }));
  expect(versionMismatches(dir, 'v99.0.0')).toEqual([
    `install.sh's RELEASED_VERSION is ${version}, not the tag's 99.0.0`,
    `action.yml's version default is ${version}, not the tag's 99.0.0`,
    `the man page's .TH version (npm run docs) is ${version}, not the tag's 99.0.0`,
  ]);
});
