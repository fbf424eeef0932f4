/**
 * The release archive as `tar -x` meets it (needs release/ from `npm run build:release` on
 * linux-x64, which CI runs): the executable, LICENSE and the man page at its top, owned by root,
 * modes 0755 and 0644 whatever the builder's umask, dated at a commit, so that a root user's
 * `tar -xzf` (which keeps the owner it reads) makes nothing the build runner's user owns or that
 * others may write; release/SHA256SUMS over it and the npm tarball alone. And what the executable
 * in it asks of a Linux system (binutils' readelf reads it): no glibc newer than the one the README
 * promises.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { requiredInCi } from '../helpers/ci-required.js';
import { tempDir } from '../helpers/cli.js';

const root = resolve(import.meta.dirname, '../..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const archive = join(root, 'release', `tokencli-${version}-linux-x64.tar.gz`);
const gnuTar = spawnSync('tar', ['--version'], { encoding: 'utf8' }).stdout?.includes('GNU tar') === true;
const ready = process.platform === 'linux' && process.arch === 'x64' && existsSync(archive) && gnuTar;
const readelfMissing =
  spawnSync('readelf', ['--version']).status === 0 ? undefined : "binutils' readelf is not installed";
if (process.platform === 'linux') requiredInCi(readelfMissing, "install Debian's binutils");

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

test.runIf(ready)('release/SHA256SUMS covers the archive and the npm tarball, and nothing else', () => {
  const names = readFileSync(join(root, 'release', 'SHA256SUMS'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.slice(line.indexOf('  ') + 2));
  expect(names).toEqual([`tokencli-${version}-linux-x64.tar.gz`, `tokencli-${version}.tgz`]);
});

/** Each version of `prefix` (GLIBC_, GLIBCXX_) the readelf output names, as numbers to compare. */
function versionsOf(readelf: string, prefix: string): number[][] {
  const found = readelf.match(new RegExp(`\\b${prefix}_[0-9.]+\\b`, 'g')) ?? [];
  return [...new Set(found)].map((name) =>
    name
      .slice(prefix.length + 1)
      .split('.')
      .map(Number),
  );
}

function atMost(version: number[], limit: number[]): boolean {
  for (let i = 0; i < Math.max(version.length, limit.length); i++) {
    const [a = 0, b = 0] = [version[i], limit[i]];
    if (a !== b) return a < b;
  }
  return true;
}

// What the README and docs/contract.md §5.1 promise a Linux system needs: glibc 2.28 (Debian 10,
// RHEL 8) with the libstdc++ such a system has (gcc 8's, GLIBCXX_3.4.25) and libatomic. The Node 26
// the release takes from npm sets that floor; a newer one that raised it would show here first.
test.runIf(ready && readelfMissing === undefined)(
  `the executable needs nothing newer than glibc 2.28, and no library but its own and libatomic${
    readelfMissing ? ` (skipped: ${readelfMissing})` : ''
  }`,
  () => {
    const dir = tempDir('tokencli-archive-elf-');
    const unpacked = spawnSync('tar', ['-xzf', archive, '-C', dir, 'tokencli'], { encoding: 'utf8' });
    expect(unpacked.status, unpacked.stderr).toBe(0);
    const symbols = spawnSync('readelf', ['-W', '--dyn-syms', join(dir, 'tokencli')], {
      encoding: 'utf8',
      maxBuffer: 64 * 2 ** 20,
    });
    expect(symbols.status, symbols.stderr).toBe(0);
    const glibc = versionsOf(symbols.stdout, 'GLIBC');
    expect(glibc.length).toBeGreaterThan(0);
    expect(glibc.filter((v) => !atMost(v, [2, 28])).map((v) => v.join('.'))).toEqual([]);
    expect(
      versionsOf(symbols.stdout, 'GLIBCXX')
        .filter((v) => !atMost(v, [3, 4, 25]))
        .map((v) => v.join('.')),
    ).toEqual([]);
    const dynamic = spawnSync('readelf', ['-d', join(dir, 'tokencli')], { encoding: 'utf8' });
    expect(dynamic.status, dynamic.stderr).toBe(0);
    const needed = [...dynamic.stdout.matchAll(/\(NEEDED\)\s+Shared library: \[([^\]]+)\]/g)].map(
      (m) => m[1],
    );
    expect(needed.length).toBeGreaterThan(0);
    const glibcOwn = ['libc.so.6', 'libm.so.6', 'libdl.so.2', 'libpthread.so.0', 'ld-linux-x86-64.so.2'];
    const compilerOwn = ['libstdc++.so.6', 'libgcc_s.so.1', 'libatomic.so.1'];
    expect(
      needed.filter((name) => !glibcOwn.includes(name ?? '') && !compilerOwn.includes(name ?? '')),
    ).toEqual([]);
  },
);

test.skipIf(ready)(
  'the release archive (skipped: needs release/ from `npm run build:release` on linux-x64, and GNU tar)',
  () => {},
);
