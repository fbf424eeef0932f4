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
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../../helpers/cli.js';

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
