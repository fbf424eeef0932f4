/**
 * Where the launcher writes what later runs will trust (bin/tokencli.js `trustedCacheRoot`): the
 * light bundles' code caches, node's compile cache and, in the executable, the keychain's native
 * module go into the user's cache directory only when no one else can write it or any directory
 * above it (a sticky one excepted); otherwise nothing is written or removed there, and the run
 * answers as ever. Run here with `node bin/tokencli.js`; the executable runs the same launcher.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BIN, cleanEnv, runCli, tempDir } from '../../helpers/cli.js';
import { BUNDLES, lightBundleBuild } from '../../helpers/light-bundles.js';

const posix = process.platform !== 'win32';
/** Root may give a directory to another user, as a `sudo` run with the user's HOME finds it. */
const root = process.getuid?.() === 0;
const hasMkfifo = posix && spawnSync('mkfifo', ['--version'], { stdio: 'ignore' }).error === undefined;
const hasCompileCache =
  typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';

/** A cache home (XDG_CACHE_HOME) in a directory of its own, outside the child's TMPDIR. */
function cacheHome() {
  const base = tempDir('tokencli-trusted-cache-');
  const tmp = join(base, 'tmp');
  mkdirSync(tmp);
  const home = join(base, 'home');
  const xdg = join(home, 'cache');
  mkdirSync(xdg, { recursive: true, mode: 0o700 });
  return { base, home, xdg, env: { XDG_CACHE_HOME: xdg, TMPDIR: tmp, TEMP: tmp, TMP: tmp } };
}

/** `--version` (light-argv's code cache) and `--help` (the full CLI: node's compile cache, Node ≥ 22). */
async function runBoth(env: Record<string, string>) {
  const version = await runCli(['--version'], { env });
  expect(version.code, version.stderr).toBe(0);
  const help = await runCli(['--help'], {
    env: { ...env, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined },
  });
  expect(help.code, help.stderr).toBe(0);
  expect(help.stderr).toBe('');
}

const codeCaches = (xdg: string) => join(xdg, 'tokencli', 'code-cache', `${process.version}-${process.arch}`);

/**
 * A code cache of light-argv whose top level, unlike the bundle's, writes CACHE-READ to stderr:
 * what another user could make of a file the user owns (a checkout's, say). V8 takes it for the
 * bundle, since it checks only the source's length.
 */
function craftedLightArgvCache(): Buffer {
  const source = readFileSync(join(BUNDLES, 'light-argv.cjs'), 'latin1');
  const comment = '// src/cli/commands/completion/completion-command.ts';
  const statement = 'process.stderr.write("CACHE-READ\\n");';
  expect(source).toContain(comment);
  const wrapped = `(function (exports, require, module, __import) {${source.replace(comment, statement.padEnd(comment.length))}\n})`;
  const data = execFileSync(
    process.execPath,
    [
      '-e',
      "process.stdout.write(new (require('node:vm').Script)(require('node:fs').readFileSync(0, 'latin1')).createCachedData())",
    ],
    { input: wrapped },
  );
  return Buffer.concat([Buffer.from('tokencli code cache 1:\n', 'latin1'), data]);
}

/** Puts the crafted cache where `--version` reads light-argv's, in `dir`; returns its bytes. */
function plantCrafted(dir: string): Buffer {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const bytes = craftedLightArgvCache();
  writeFileSync(join(dir, `light-argv-${lightBundleBuild('light-argv').build}`), bytes, { mode: 0o600 });
  return bytes;
}

describe.skipIf(!posix)(
  `caches are written only where no one else can write${posix ? '' : ' (skipped on Windows: no POSIX owners or modes)'}`,
  () => {
    test('a cache home of the user’s alone gets both caches (what the cases below leave out)', async () => {
      const { xdg, env } = cacheHome();
      await runBoth(env);
      expect(readdirSync(codeCaches(xdg)).some((name) => name.startsWith('light-argv-'))).toBe(true);
      if (hasCompileCache) expect(existsSync(join(xdg, 'tokencli', 'compile-cache'))).toBe(true);
    });

    test.each([
      ['the cache home open to others', (home: string) => chmodSync(join(home, 'cache'), 0o777)],
      ['a directory above it open to others', (home: string) => chmodSync(home, 0o777)],
      ['a directory above it open to its group', (home: string) => chmodSync(home, 0o770)],
    ])('%s: nothing is made there', async (_, open) => {
      const { home, xdg, env } = cacheHome();
      open(home);
      await runBoth(env);
      expect(readdirSync(xdg)).toEqual([]);
    });

    test('the tokencli directory open to others: nothing is written in it', async () => {
      const { xdg, env } = cacheHome();
      mkdirSync(join(xdg, 'tokencli'), { mode: 0o700 });
      chmodSync(join(xdg, 'tokencli'), 0o777);
      await runBoth(env);
      expect(readdirSync(join(xdg, 'tokencli'))).toEqual([]);
    });

    test('a code-cache directory open to others gets no cache file, and one there is not read', async () => {
      const { xdg, env } = cacheHome();
      const planted = plantCrafted(codeCaches(xdg));
      chmodSync(join(xdg, 'tokencli', 'code-cache'), 0o777);
      const run = await runCli(['--version'], { env });
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      // The planted file alone, as it was: neither written anew nor joined by another.
      const name = `light-argv-${lightBundleBuild('light-argv').build}`;
      expect(readdirSync(codeCaches(xdg))).toEqual([name]);
      expect(readFileSync(join(codeCaches(xdg), name)).equals(planted)).toBe(true);
    });

    test('a sticky directory open to all above it (/tmp, a shared cache home) is no reason to refuse', async () => {
      const { home, xdg, env } = cacheHome();
      chmodSync(home, 0o1777);
      await runBoth(env);
      expect(readdirSync(codeCaches(xdg)).some((name) => name.startsWith('light-argv-'))).toBe(true);
    });

    test('a link another user planted in an open cache directory makes no clean-up remove what it points to', async () => {
      const { base, xdg, env } = cacheHome();
      // Directories a clean-up of other nodes' caches would remove, but for the last three written.
      const victim = join(base, 'victim');
      for (const name of ['a', 'b', 'c', 'd', 'e']) mkdirSync(join(victim, name), { recursive: true });
      mkdirSync(join(xdg, 'tokencli'), { mode: 0o700 });
      chmodSync(join(xdg, 'tokencli'), 0o777);
      symlinkSync(victim, join(xdg, 'tokencli', 'code-cache'));
      await runBoth(env);
      expect(readdirSync(victim).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(lstatSync(join(xdg, 'tokencli', 'code-cache')).isSymbolicLink()).toBe(true);
    });

    test('a cache home reached through a link is written at its real path when that is safe', async () => {
      const { base, env } = cacheHome();
      const real = join(base, 'real-cache');
      mkdirSync(real, { mode: 0o700 });
      const linked = join(base, 'linked-cache');
      symlinkSync(real, linked);
      await runBoth({ ...env, XDG_CACHE_HOME: linked });
      expect(readdirSync(codeCaches(real)).some((name) => name.startsWith('light-argv-'))).toBe(true);
    });

    test.runIf(root)(
      `a directory above it that is another user’s (a sudo run with the user’s HOME): nothing is made there${root ? '' : ' (skipped: only root can give a directory away)'}`,
      async () => {
        const { home, xdg, env } = cacheHome();
        chownSync(home, 4242, 4242);
        await runBoth(env);
        expect(readdirSync(xdg)).toEqual([]);
      },
    );

    test.runIf(root)(
      `a link another user put at the tokencli directory's name, in a shared sticky cache home, leads nowhere${root ? '' : ' (skipped: only root can give a link away)'}`,
      async () => {
        const { base, xdg, env } = cacheHome();
        // Sticky and open to a group: a shared cache home the kernel's protected_symlinks leaves alone.
        chmodSync(xdg, 0o1770);
        const victim = join(base, 'victim');
        for (const name of ['a', 'b', 'c', 'd', 'e'])
          mkdirSync(join(victim, 'code-cache', name), { recursive: true });
        symlinkSync(victim, join(xdg, 'tokencli'));
        lchownSync(join(xdg, 'tokencli'), 4242, 4242);
        await runBoth(env);
        expect(readdirSync(victim)).toEqual(['code-cache']);
        expect(readdirSync(join(victim, 'code-cache')).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
      },
    );

    test.runIf(hasMkfifo)(
      `a FIFO at a cache file's name holds no run up${hasMkfifo ? '' : ' (skipped: no mkfifo)'}`,
      async () => {
        const { xdg, env } = cacheHome();
        const dir = codeCaches(xdg);
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        expect((await runCli(['--version'], { env })).code).toBe(0);
        const [cache] = readdirSync(dir).filter((name) => name.startsWith('light-argv-'));
        expect(cache).toBeDefined();
        rmSync(join(dir, cache as string));
        execFileSync('mkfifo', [join(dir, cache as string)]);
        const run = await runCli(['--version'], { env, timeoutMs: 10_000 });
        expect(run.code, run.stderr).toBe(0);
        // Refused, and written anew in its place.
        expect(lstatSync(join(dir, cache as string)).isFile()).toBe(true);
      },
    );

    test('a cache file is read only through directories of the user’s alone', async () => {
      // Where the user's own tree holds it, it is read: the crafted code runs (what the cases
      // below rule out shows here).
      const own = cacheHome();
      plantCrafted(codeCaches(own.xdg));
      const read = await runCli(['--version'], { env: own.env });
      expect(read.code).toBe(0);
      expect(read.stderr).toContain('CACHE-READ');
      // The same file, with tokencli/ open to others in a shared sticky cache home: not read.
      const shared = cacheHome();
      chmodSync(shared.xdg, 0o1777);
      plantCrafted(codeCaches(shared.xdg));
      chmodSync(join(shared.xdg, 'tokencli'), 0o777);
      const refused = await runCli(['--version'], { env: shared.env });
      expect(refused.code).toBe(0);
      expect(refused.stderr).toBe('');
    });

    test.runIf(root)(
      `a cache file of the user's is not read through another user's directory or link${root ? '' : ' (skipped: only root can give them away)'}`,
      async () => {
        // Another user's tokencli/ in a shared sticky cache home, holding a file of the user's.
        const theirs = cacheHome();
        chmodSync(theirs.xdg, 0o1777);
        plantCrafted(codeCaches(theirs.xdg));
        for (const dir of [
          codeCaches(theirs.xdg),
          join(theirs.xdg, 'tokencli', 'code-cache'),
          join(theirs.xdg, 'tokencli'),
        ])
          chownSync(dir, 4242, 4242);
        const throughDirectory = await runCli(['--version'], { env: theirs.env });
        expect(throughDirectory.code).toBe(0);
        expect(throughDirectory.stderr).toBe('');
        // Their link, as this node's directory, to one of the user's that holds the file.
        const linked = cacheHome();
        chmodSync(linked.xdg, 0o1777);
        const users = join(linked.base, 'checkout');
        plantCrafted(users);
        mkdirSync(join(linked.xdg, 'tokencli', 'code-cache'), { recursive: true, mode: 0o700 });
        symlinkSync(users, codeCaches(linked.xdg));
        lchownSync(codeCaches(linked.xdg), 4242, 4242);
        const throughLink = await runCli(['--version'], { env: linked.env });
        expect(throughLink.code).toBe(0);
        expect(throughLink.stderr).toBe('');
      },
    );

    test('a cache write that fails midway (a file-size limit, as a full disk) leaves no partial file', () => {
      const { xdg, env } = cacheHome();
      // Node ignores SIGXFSZ, so the limit makes the write fail with EFBIG after its first 512 bytes.
      const run = spawnSync(
        '/bin/sh',
        ['-c', 'ulimit -f 1 && exec "$0" "$@"', process.execPath, BIN, '--version'],
        {
          env: cleanEnv(env),
          encoding: 'utf8',
        },
      );
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toBe('');
      expect(readdirSync(codeCaches(xdg))).toEqual([]);
    });

    test('a cache file refused before (damaged) is left as it is where the directory is open to others', async () => {
      const { xdg, env } = cacheHome();
      const dir = codeCaches(xdg);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const version = await runCli(['--version'], { env });
      expect(version.code).toBe(0);
      const [cache] = readdirSync(dir).filter((name) => name.startsWith('light-argv-'));
      expect(cache).toBeDefined();
      writeFileSync(join(dir, cache as string), 'damaged');
      chmodSync(join(xdg, 'tokencli'), 0o777);
      expect((await runCli(['--version'], { env })).code).toBe(0);
      expect(readdirSync(dir)).toEqual([cache]);
      expect(lstatSync(join(dir, cache as string)).size).toBe('damaged'.length);
    });
  },
);
