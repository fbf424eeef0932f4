/**
 * The release's npm tarball (scripts/release/pack-package.mjs) is the same bytes from a checkout
 * and build made under umask 077 as from one made under 022: every file 0644, the launcher 0755,
 * where `npm pack` alone records the 0600 and 0700 it finds. The checkouts are clones of this
 * one's commit, each with a copy of the dist/ that `npm test` built, made under that umask.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { packPackage } from '../../scripts/release/pack-package.mjs';
import { otherNpms } from '../helpers/other-npms.js';
import { tempDir } from '../helpers/temp-dirs.js';

const root = resolve(import.meta.dirname, '../..');

/** A clone of this checkout's commit, with this checkout's dist/, every file made under UMASK. */
function checkout(umask: string): string {
  const dir = join(tempDir('tokencli-checkout-'), 'tokencli');
  const made = spawnSync(
    'sh',
    ['-c', `umask ${umask} && git clone -q "$1" "$2" && cp -R "$1/dist" "$2/dist"`, 'sh', root, dir],
    {
      encoding: 'utf8',
    },
  );
  expect(made.status, made.stderr).toBe(0);
  return dir;
}

/** The tarball's entries as `tar -tv` lists them: the mode and the path of each. */
function entries(tarball: string): string[] {
  const listed = spawnSync('tar', ['-tvzf', tarball], { encoding: 'utf8' });
  expect(listed.status, listed.stderr).toBe(0);
  return listed.stdout
    .trim()
    .split('\n')
    .map((line) => {
      const fields = line.split(/\s+/);
      return `${fields[0]} ${fields[fields.length - 1]}`;
    });
}

function pack(dir: string): string {
  const destination = join(dir, '..', 'packed');
  mkdirSync(destination);
  const tarball = packPackage(dir, destination, join(dir, '..', 'stage'));
  expect(existsSync(join(dir, '..', 'stage')), 'the stage is removed').toBe(false);
  return tarball;
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe.skipIf(process.platform === 'win32')('pack-package.mjs (umask is POSIX)', () => {
  test('a checkout and build under umask 077 pack the same tarball as under 022', () => {
    const open = checkout('022');
    const closed = checkout('077');
    // What the test is about: npm would pack these as they are.
    expect(statSync(join(closed, 'dist', 'index.js')).mode & 0o777).toBe(0o600);
    expect(statSync(join(closed, 'bin', 'tokencli.js')).mode & 0o777).toBe(0o700);

    const fromClosed = pack(closed);
    const listed = entries(fromClosed);
    expect(listed).toContain('-rwxr-xr-x package/bin/tokencli.js');
    expect(listed).toContain('-rw-r--r-- package/dist/index.js');
    expect(listed).toContain('-rw-r--r-- package/docs/contract.md');
    expect(
      listed.filter(
        (entry) => !entry.startsWith('-rw-r--r-- ') && !entry.endsWith(' package/bin/tokencli.js'),
      ),
    ).toEqual([]);
    expect(sha256(fromClosed)).toBe(sha256(pack(open)));
  });

  // The release's runner has whatever npm its Node ships: npm 12 prints `pack --json` in another
  // shape (an object by the package's name, not an array).
  for (const npm of otherNpms)
    test.skipIf(!npm.cli || npm.nodeTooOld !== undefined)(
      `npm ${npm.major} packs the same bytes (skipped ${npm.nodeTooOld ?? `without ${npm.variable}, which .ci/run sets`})`,
      () => {
        const dir = checkout('022');
        const destination = join(dir, '..', `packed-by-npm${npm.major}`);
        mkdirSync(destination);
        const script = `import(${JSON.stringify(join(root, 'scripts/release/pack-package.mjs'))}).then((m) => console.log(m.packPackage(...process.argv.slice(1))))`;
        const run = spawnSync(process.execPath, ['-e', script, dir, destination, join(dir, '..', 'stage')], {
          // npmCommand runs the npm whose npm-cli.js npm_execpath names, as `npm run` sets it.
          env: { ...process.env, npm_execpath: npm.cli },
          encoding: 'utf8',
        });
        expect(run.status, run.stderr).toBe(0);
        expect(sha256(run.stdout.trim())).toBe(sha256(pack(dir)));
      },
    );
});
