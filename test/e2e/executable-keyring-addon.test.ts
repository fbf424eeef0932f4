/**
 * The executable's keychain addon, end to end: on macOS and Windows the release's executable
 * carries `@napi-rs/keyring` as an asset, writes it to `<cache>/tokencli/native/` under its
 * SHA-256 and loads it with `process.dlopen` (src/sea/native-addon.ts), only where no one else can
 * write on the way to that directory (bin/tokencli.js `trustedCacheRoot`); elsewhere from a private
 * temporary directory, removed at once.
 *
 * The Linux executable carries no addon (its keychain is JavaScript over D-Bus), so this builds a
 * test executable the release's way (scripts/release/sea-executable.mjs, from the same stripped
 * Node 26) that does carry Linux's addon, with a stand-in for the full CLI that imports it as
 * src/store/open-store.ts does on macOS and Windows (fixtures/keyring-addon-main.ts). The
 * launcher, the executable's own bundle and the addon are the real ones; so is the keychain,
 * gnome-keyring in a private D-Bus session. What only a macOS or Windows runner proves (that
 * platform's addon and signing) the release workflow's smoke test does.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { installedSeaNode, SEA_NODE_MAJOR } from '../../scripts/release/node26.mjs';
import { buildSeaExecutable, keyringAddon } from '../../scripts/release/sea-executable.mjs';
import { requiredInCi } from '../helpers/ci-required.js';
import { BINARY, tempDir } from '../helpers/cli.js';
import { expectMode } from '../helpers/file-modes.js';
import { missingSecretServiceTools, runSession, sandbox } from '../store/store-child.js';

/** What this machine lacks to build and run the test executable, or undefined. */
function missingParts(): string | undefined {
  if (installedSeaNode() === undefined)
    return `no Node ${SEA_NODE_MAJOR} here to build an executable with (.ci/run caches one; TOKENCLI_SEA_NODE names one)`;
  return missingSecretServiceTools();
}
const why = BINARY
  ? 'it builds an executable of its own, so it runs with the package’s suite'
  : process.platform !== 'linux'
    ? 'there the release’s own executable carries the addon, and the release workflow’s smoke test runs it'
    : missingParts();
if (!BINARY) requiredInCi(why, '.ci/run caches Node 26 and installs dbus and gnome-keyring');

const root = process.getuid?.() === 0;
// Compared by hash: vitest compares two buffers of a few megabytes byte by byte, for seconds.
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
/** What a run of the test executable prints when the entry made its round trip. */
const ROUND_TRIP = '{"read":true,"listed":true,"gone":true}\n';

describe.skipIf(why !== undefined)(
  `the executable’s keychain addon, staged and loaded${why ? ` (skipped: ${why})` : ''}`,
  () => {
    let exe = '';
    let addonName = '';
    beforeAll(async () => {
      exe = await buildSeaExecutable({
        out: join(tempDir('tokencli-addon-exe-'), 'sea'),
        codeCaches: false,
        keyringAddon: true,
        mainEntry: resolve(import.meta.dirname, 'fixtures/keyring-addon-main.ts'),
      });
      addonName = `${sha256(keyringAddon())}.node`;
    }, 120_000);

    /** A fresh home with a cache home (made by `prepare`) and a TMPDIR of its own. */
    function place(prepare: (cacheHome: string) => void = (dir) => mkdirSync(dir, { mode: 0o700 })) {
      const { env, configDir, home } = sandbox();
      const tmp = join(home, 'tmp');
      mkdirSync(tmp);
      const cacheHome = join(home, 'cache-home');
      prepare(cacheHome);
      return { env: { ...env, XDG_CACHE_HOME: cacheHome, TMPDIR: tmp }, configDir, tmp, cacheHome };
    }

    /** Runs the test executable `times` times in one keyring session: each must make the round trip. */
    async function roundTrips(where: ReturnType<typeof place>, times = 1) {
      const body = Array.from({ length: times }, () => `'${exe}' keyring-round-trip`).join(' && ');
      const result = await runSession({ keyring: 'unlocked', body }, where.env, where.configDir);
      // The session's own bus may complain (dbus-daemon cannot raise its descriptor limit here).
      expect(
        result.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('dbus-daemon[')),
      ).toEqual([]);
      expect(result.stdout).toBe(ROUND_TRIP.repeat(times));
      expect(result.code).toBe(0);
    }

    test('kept in the user’s cache directory under its SHA-256, 0600 in 0700, written once', async () => {
      const where = place();
      await roundTrips(where);
      const native = join(where.cacheHome, 'tokencli', 'native');
      expect(readdirSync(native)).toEqual([addonName]);
      expect(`${sha256(join(native, addonName))}.node`).toBe(addonName);
      expectMode(native, 0o700);
      expectMode(join(native, addonName), 0o600);
      const first = statSync(join(native, addonName));
      await roundTrips(where, 2);
      const later = statSync(join(native, addonName));
      expect([later.ino, later.mtimeMs]).toEqual([first.ino, first.mtimeMs]);
      expect(readdirSync(where.tmp)).toEqual([]);
    });

    test('a copy under its name with other bytes is never loaded: it is written anew', async () => {
      const where = place();
      const native = join(where.cacheHome, 'tokencli', 'native');
      mkdirSync(native, { recursive: true, mode: 0o700 });
      writeFileSync(join(native, addonName), 'not the addon', { mode: 0o600 });
      await roundTrips(where);
      expect(readdirSync(native)).toEqual([addonName]);
      expect(`${sha256(join(native, addonName))}.node`).toBe(addonName);
    });

    test('other releases’ copies: the one written last stays beside it, older ones go', async () => {
      const where = place();
      const native = join(where.cacheHome, 'tokencli', 'native');
      mkdirSync(native, { recursive: true, mode: 0o700 });
      const copies = { older: 'a'.repeat(64), newer: 'b'.repeat(64), oldest: 'c'.repeat(64) };
      for (const [copy, written] of [
        [copies.oldest, 1_000_000],
        [copies.older, 2_000_000],
        [copies.newer, 3_000_000],
      ] as const) {
        writeFileSync(join(native, `${copy}.node`), 'another release’s addon', { mode: 0o600 });
        utimesSync(join(native, `${copy}.node`), written, written);
      }
      await roundTrips(where);
      expect(readdirSync(native).sort()).toEqual([addonName, `${copies.newer}.node`].sort());
    });

    test('a cache home open to others gets nothing; the addon is loaded from a private temporary directory, removed at once', async () => {
      const where = place((dir) => {
        mkdirSync(dir);
        chmodSync(dir, 0o777);
      });
      await roundTrips(where);
      expect(readdirSync(where.cacheHome)).toEqual([]);
      expect(readdirSync(where.tmp)).toEqual([]);
    });

    test.runIf(root)(
      `a cache home that is another user’s (a sudo run with the user’s HOME) gets nothing${root ? '' : ' (skipped: only root can give a directory away)'}`,
      async () => {
        const where = place((dir) => {
          mkdirSync(dir, { mode: 0o700 });
          chownSync(dir, 4242, 4242);
        });
        await roundTrips(where);
        expect(readdirSync(where.cacheHome)).toEqual([]);
        expect(readdirSync(where.tmp)).toEqual([]);
      },
    );
  },
);
