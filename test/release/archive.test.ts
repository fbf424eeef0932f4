/**
 * The release archive as `tar -x` meets it (needs release/ from `npm run build:release` on
 * linux-x64, which CI runs): the executable, LICENSE and the man page at its top, owned by root,
 * modes 0755 and 0644 whatever the builder's umask, dated at a commit, so that a root user's
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

test.runIf(ready)('the archive holds three files, root-owned, 0755 and 0644, dated at a commit', () => {
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
  // Dated at a commit's time (the one it was built from, which need not be the checkout's last)
  // or SOURCE_DATE_EPOCH, not at the time of the build.
  const commits = spawnSync('git', ['log', '--format=%ct'], { cwd: root, encoding: 'utf8' }).stdout ?? '';
  // In a checkout git must answer, or the date would go unchecked: a CI container running as root
  // is refused a checkout its runner's user owns ("dubious ownership") unless told it is safe.
  if (existsSync(join(root, '.git'))) expect(commits, 'git log in this checkout').not.toBe('');
  const times = new Set([...commits.split('\n'), process.env.SOURCE_DATE_EPOCH].filter(Boolean).map(Number));
  if (times.size > 0)
    for (const entry of entries) expect(times, entry.name).toContain(Date.parse(entry.date) / 1000);
});
test.skipIf(ready)(
  'the release archive (skipped: needs release/ from `npm run build:release` on linux-x64, and GNU tar)',
  () => {},
);
