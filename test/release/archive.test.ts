/**
 * The release archive as `tar -x` meets it (needs release/ from `npm run build:release` on
 * linux-x64, which CI runs): the executable, LICENSE and the man page at its top, owned by root,
 * modes 0755 and 0644 whatever the builder's umask, dated at the commit, so that a root user's
 * `tar -xzf` (which keeps the owner it reads) makes nothing the build runner's user owns or that
 * others may write.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const archive = join(root, 'release', `tokencli-${version}-linux-x64.tar.gz`);
const gnuTar = spawnSync('tar', ['--version'], { encoding: 'utf8' }).stdout?.includes('GNU tar') === true;
const ready = process.platform === 'linux' && process.arch === 'x64' && existsSync(archive) && gnuTar;

test.runIf(ready)('the archive holds three files, root-owned, 0755 and 0644, dated at the commit', () => {
  const listing = spawnSync('tar', ['--numeric-owner', '--utc', '--full-time', '-tvzf', archive], {
    encoding: 'utf8',
  });
  expect(listing.status, listing.stderr).toBe(0);
  const entries = listing.stdout
    .trim()
    .split('\n')
    .map((line) => line.split(/\s+/))
    .map(([mode, owner, , day, time, name]) => ({ mode, owner, date: `${day}T${time}Z`, name }));
  expect(entries.map(({ mode, owner, name }) => ({ mode, owner, name }))).toEqual([
    { mode: '-rwxr-xr-x', owner: '0/0', name: 'tokencli' },
    { mode: '-rw-r--r--', owner: '0/0', name: 'LICENSE' },
    { mode: '-rw-r--r--', owner: '0/0', name: 'tokencli.1' },
  ]);
  const commit = spawnSync('git', ['log', '-1', '--format=%ct'], {
    cwd: root,
    encoding: 'utf8',
  }).stdout.trim();
  if (commit)
    for (const entry of entries) expect(Date.parse(entry.date) / 1000, entry.name).toBe(Number(commit));
});
test.skipIf(ready)(
  'the release archive (skipped: needs release/ from `npm run build:release` on linux-x64, and GNU tar)',
  () => {},
);
