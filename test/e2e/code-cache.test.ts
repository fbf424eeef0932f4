/**
 * The launcher's code cache of the light bundles (bin/tokencli.js): kept in the user's cache
 * directory, private, named after each bundle's build, rewritten when V8 refuses it, never under
 * TMPDIR, and never a reason for a run to fail or to print anything.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { VERSION } from '../../src/version.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { expectMode } from '../helpers/file-modes.js';
import { BUNDLES, lightBundleBuild } from '../helpers/light-bundles.js';
import { serveForFile } from '../helpers/serve.js';
import { demoEnv } from './env.js';

const serve = serveForFile();
const buildOf = (bundle: string) => lightBundleBuild(bundle).build;

/**
 * A cache home outside the child's temporary directory (TMPDIR; TEMP and TMP on Windows, where
 * os.tmpdir() reads those), and the directory the launcher keeps its code cache in.
 */
function cacheHome(): { env: Record<string, string>; dir: string } {
  const root = tempDir('tokencli-code-cache-');
  const tmp = join(root, 'tmp');
  mkdirSync(tmp);
  const home = join(root, 'cache');
  return {
    env: { XDG_CACHE_HOME: home, TMPDIR: tmp, TEMP: tmp, TMP: tmp },
    dir: join(home, 'tokencli', 'code-cache', `${process.version}-${process.arch}`),
  };
}

const mode = (path: string) => statSync(path).mode & 0o777;

/** Whether this node has a module compile cache (Node ≥ 22; not in the Node 20 types this project compiles against). */
const hasCompileCache =
  typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';

/**
 * `tokencli --help` (the full CLI) in a fresh cache home, with node's compile cache on as users
 * have it (the test run turns it off: test/setup/private-tmpdir.ts); `prepare` gets the
 * compile-cache directory, made beforehand, when given.
 */
async function fullCliRun(prepare?: (compileCache: string) => void, umask?: string) {
  const { env, dir } = cacheHome();
  const compileCache = join(dir, '..', '..', 'compile-cache');
  if (prepare) {
    mkdirSync(compileCache, { recursive: true, mode: 0o700 });
    prepare(compileCache);
  }
  const run = await runCli(['--help'], {
    env: { ...env, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined },
    ...(umask ? { umask } : {}),
  });
  return { code: run.code, compileCache };
}

describe('the light bundles’ code cache', () => {
  test('is written once, private, named after the build, and used as it is by the next runs', async () => {
    const { env, dir } = cacheHome();
    const first = await runCli(['--version'], { env });
    expect(first).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    const file = join(dir, `light-argv-${buildOf('light-argv')}`);
    expect(readdirSync(dir)).toEqual([`light-argv-${buildOf('light-argv')}`]);
    expectMode(file, 0o600);
    expectMode(dir, 0o700);
    expectMode(join(dir, '..'), 0o700);
    const written = statSync(file);

    const second = await runCli(['--version'], { env });
    expect(second).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    // Accepted by V8, so not written again.
    expect(statSync(file).mtimeMs).toBe(written.mtimeMs);
    expect(statSync(file).ino).toBe(written.ino);
  });

  test('a cached token is answered the same with the cache as without, and each bundle gets its own', async () => {
    const { env: cacheEnv, dir } = cacheHome();
    const env = { ...demoEnv(serve.baseUrl), ...cacheEnv };
    const filled = await runCli(['token'], { env });
    expect(filled.code).toBe(0);
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await runCli(['token', '--format', 'header'], { env }));
    for (const run of runs) {
      expect(run).toMatchObject({
        code: 0,
        stdout: `Authorization: Bearer ${filled.stdout.trim()}\n`,
        stderr: '',
      });
    }
    expect(readdirSync(dir).sort()).toEqual(
      [`light-token-${buildOf('light-token')}`, `light-argv-${buildOf('light-argv')}`].sort(),
    );
  });

  test('a run that takes a path its cache has not seen makes it again with that path added, once', async () => {
    const { env: cacheEnv, dir } = cacheHome();
    const env = { ...demoEnv(serve.baseUrl), ...cacheEnv };
    expect((await runCli(['token'], { env })).code).toBe(0);
    expect((await runCli(['token'], { env })).code).toBe(0);
    const file = join(dir, `light-token-${buildOf('light-token')}`);
    const firstLine = (bytes: Buffer) => bytes.subarray(0, bytes.indexOf(10)).toString('latin1');
    // The builtins a cached file-store answer reads.
    expect(firstLine(readFileSync(file))).toBe('tokencli code cache 1:node:fs,node:path');

    // As a cache made on a path that never read node:path would say (a keychain user's first
    // run, say, and then a file-store run): V8's data is whole, the list lacks this path's builtin.
    const written = readFileSync(file);
    const v8Data = written.subarray(written.indexOf(10) + 1);
    writeFileSync(file, Buffer.concat([Buffer.from('tokencli code cache 1:node:fs\n'), v8Data]));
    const run = await runCli(['token'], { env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const remade = readFileSync(file);
    expect(firstLine(remade)).toBe('tokencli code cache 1:node:fs,node:path');
    expect(remade.length).toBeGreaterThan(1000);

    // Seen now: the next runs on this path leave it alone.
    const { mtimeMs, ino } = statSync(file);
    expect((await runCli(['token'], { env })).stdout).toBe(run.stdout);
    expect(statSync(file)).toMatchObject({ mtimeMs, ino });
  });

  test('a cache file without the line naming its paths (an older launcher’s) is made again', async () => {
    const { env, dir } = cacheHome();
    expect((await runCli(['--version'], { env })).code).toBe(0);
    const file = join(dir, `light-argv-${buildOf('light-argv')}`);
    const written = readFileSync(file);
    writeFileSync(file, written.subarray(written.indexOf(10) + 1));
    expect(await runCli(['--version'], { env })).toMatchObject({
      code: 0,
      stdout: `${VERSION}\n`,
      stderr: '',
    });
    expect(readFileSync(file).equals(written)).toBe(false);
    expect(readFileSync(file).subarray(0, 22).toString('latin1')).toBe('tokencli code cache 1:');
  });

  test('an answer that declines to the full CLI leaves its bundle uncached, for a run that answers to cache', async () => {
    const { env: cacheEnv, dir } = cacheHome();
    const env = { ...demoEnv(serve.baseUrl), ...cacheEnv };
    // Nothing cached yet: the light answer declines and the full CLI obtains the token.
    const filled = await runCli(['token'], { env });
    expect(filled.code).toBe(0);
    expect(readdirSync(dir)).toEqual([`light-argv-${buildOf('light-argv')}`]);
    expect((await runCli(['token'], { env })).stdout).toBe(filled.stdout);
    expect(readdirSync(dir)).toContain(`light-token-${buildOf('light-token')}`);
  });

  test.each([
    ['not a code cache at all', () => Buffer.from('not a V8 code cache\n'.repeat(50))],
    ['cut short', (valid: Buffer) => valid.subarray(0, valid.length >> 1)],
    ['empty', () => Buffer.alloc(0)],
  ])('one that is %s is refused, the run is unaffected, and it is written anew', async (_name, damage) => {
    const { env, dir } = cacheHome();
    expect((await runCli(['--version'], { env })).code).toBe(0);
    const file = join(dir, `light-argv-${buildOf('light-argv')}`);
    const valid = readFileSync(file);
    writeFileSync(file, damage(valid));

    const run = await runCli(['--version'], { env });
    expect(run).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    const rewritten = readFileSync(file);
    expect(rewritten.length).toBeGreaterThan(1000);
    expect(rewritten.equals(damage(valid))).toBe(false);
    // The new one is accepted: the next run leaves it alone.
    const { mtimeMs } = statSync(file);
    expect((await runCli(['--version'], { env })).code).toBe(0);
    expect(statSync(file).mtimeMs).toBe(mtimeMs);
  });

  test('of other builds of a bundle the two last written stay when it is written; older ones and a killed writer’s file go, other bundles’ files stay', async () => {
    const { env, dir } = cacheHome();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Two releases in use side by side keep each other's caches; a third, older one goes.
    // Other builds, named as the bundler names them (a 16-character hash).
    const written = { OLDEST00OLDEST00: 1_000_000, OLDER000OLDER000: 2_000_000, OLD00000OLD00000: 3_000_000 };
    for (const [other, seconds] of Object.entries(written)) {
      writeFileSync(join(dir, `light-argv-${other}`), 'old');
      utimesSync(join(dir, `light-argv-${other}`), seconds, seconds);
    }
    const build = buildOf('light-argv');
    // A killed writer's partial file goes once a minute old; a writer at work keeps its own.
    writeFileSync(join(dir, `light-argv-${build}.12345-killed.partial`), 'half');
    utimesSync(join(dir, `light-argv-${build}.12345-killed.partial`), 1_000_000, 1_000_000);
    writeFileSync(join(dir, `light-argv-${build}.12346-atwork.partial`), 'half');
    writeFileSync(join(dir, 'light-token-OLDBUILD'), 'another bundle’s, kept until that one is written');
    // A bundle whose name begins with this one's: not one of its builds, however old.
    const longer = `light-argv-x-${build}`;
    writeFileSync(join(dir, longer), 'another bundle’s');
    utimesSync(join(dir, longer), 1_000, 1_000);

    expect((await runCli(['--version'], { env })).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(
      [
        'light-argv-OLD00000OLD00000',
        'light-argv-OLDER000OLDER000',
        `light-argv-${build}`,
        `light-argv-${build}.12346-atwork.partial`,
        longer,
        'light-token-OLDBUILD',
      ].sort(),
    );
  });

  test('of other nodes’ directories the three last written stay when this node makes its own; older ones go', async () => {
    const { env, dir } = cacheHome();
    const versions = join(dir, '..');
    // Four other nodes: the oldest goes when this one writes its first cache.
    const written = {
      'v18.0.0-x64': 1_000_000,
      'v19.0.0-x64': 2_000_000,
      'v21.0.0-x64': 3_000_000,
      'v23.0.0-x64': 4_000_000,
    };
    for (const [other, seconds] of Object.entries(written)) {
      mkdirSync(join(versions, other), { recursive: true, mode: 0o700 });
      writeFileSync(join(versions, other, 'light-argv-OLDBUILD0OLDBUILD'), 'old');
      utimesSync(join(versions, other), seconds, seconds);
    }
    expect((await runCli(['--version'], { env })).code).toBe(0);
    const kept = ['v19.0.0-x64', 'v21.0.0-x64', 'v23.0.0-x64', `${process.version}-${process.arch}`];
    expect(readdirSync(versions).sort()).toEqual(kept.sort());
    // Only when its own is made: a run that writes into it leaves the others alone.
    mkdirSync(join(versions, 'v17.0.0-x64'));
    utimesSync(join(versions, 'v17.0.0-x64'), 1_000, 1_000);
    rmSync(join(dir, `light-argv-${buildOf('light-argv')}`));
    expect((await runCli(['--version'], { env })).code).toBe(0);
    expect(readdirSync(versions)).toContain('v17.0.0-x64');
  });

  test('a directory at the cache file’s name costs speed only: no partial file is left at any run', async () => {
    const { env, dir } = cacheHome();
    const name = `light-argv-${buildOf('light-argv')}`;
    mkdirSync(join(dir, name), { recursive: true });
    chmodSync(dir, 0o700);
    for (let run = 0; run < 2; run++)
      expect(await runCli(['--version'], { env })).toMatchObject({
        code: 0,
        stdout: `${VERSION}\n`,
        stderr: '',
      });
    expect(readdirSync(dir)).toEqual([name]);
  });

  test('runs that start together on no cache all answer, and leave one whole cache file', async () => {
    const { env, dir } = cacheHome();
    const runs = await Promise.all(Array.from({ length: 8 }, () => runCli(['--version'], { env })));
    for (const run of runs) expect(run).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    const name = `light-argv-${buildOf('light-argv')}`;
    expect(readdirSync(dir)).toEqual([name]);
    // Whole: V8 accepts it, so the next run does not write it again.
    const { mtimeMs } = statSync(join(dir, name));
    expect((await runCli(['--version'], { env })).code).toBe(0);
    expect(statSync(join(dir, name)).mtimeMs).toBe(mtimeMs);
  });

  test('the full CLI keeps node’s compile cache (Node ≥ 22) beside it, in a private directory', async () => {
    const { code, compileCache } = await fullCliRun();
    expect(code).toBe(0);
    if (hasCompileCache) {
      expectMode(compileCache, 0o700);
      expect(readdirSync(compileCache).length).toBeGreaterThan(0);
    } else {
      expect(existsSync(compileCache)).toBe(false);
    }
  });

  test.skipIf(process.platform === 'win32')(
    'node’s compile cache: one that others may write is not used, one they may enter is closed first (skipped on Windows: no POSIX modes or umask; the profile’s ACL guards it)',
    async () => {
      // Node would run what it finds there.
      const open = await fullCliRun((dir) => chmodSync(dir, 0o777));
      expect(open.code).toBe(0);
      expect(readdirSync(open.compileCache)).toEqual([]);

      // One inside a cache directory (~/.cache/tokencli) that others may write: they could swap it.
      const insideOpen = await fullCliRun((dir) => chmodSync(join(dir, '..'), 0o777));
      expect(insideOpen.code).toBe(0);
      expect(readdirSync(insideOpen.compileCache)).toEqual([]);

      // Node makes its own directories inside by the umask: what others could reach there is
      // emptied, as they may have put something into it.
      const planted = join('v22.0.0-x64-0', 'planted');
      const readable = await fullCliRun((dir) => {
        mkdirSync(join(dir, 'v22.0.0-x64-0'), { mode: 0o777 });
        writeFileSync(join(dir, planted), 'not ours');
        chmodSync(dir, 0o755);
      }, '000');
      expect(readable.code).toBe(0);
      expect(mode(readable.compileCache)).toBe(hasCompileCache ? 0o700 : 0o755);
      expect(existsSync(join(readable.compileCache, planted))).toBe(!hasCompileCache);
      if (hasCompileCache) expect(readdirSync(readable.compileCache).length).toBeGreaterThan(0);
    },
  );

  test('node’s compile cache is kept per build: when this one’s is made, other builds’ but the two last made go', async () => {
    // Their chunks' entries, named anew by each build, would otherwise stay forever in one directory.
    const written = { OLDEST: 1_000_000, OLDER: 2_000_000, OLD: 3_000_000 };
    const { code, compileCache } = await fullCliRun((dir) => {
      for (const [other, seconds] of Object.entries(written)) {
        mkdirSync(join(dir, other, 'v22.0.0-x64-0'), { recursive: true, mode: 0o700 });
        utimesSync(join(dir, other), seconds, seconds);
      }
      // Node's own directory straight inside, as an earlier launcher left it (every build's
      // entries in one place): it goes however recent.
      mkdirSync(join(dir, 'v22.23.3-x64-9de703df-0'), { mode: 0o700 });
    });
    expect(code).toBe(0);
    if (hasCompileCache) {
      // The full CLI's first line names its build, last (scripts/bundle.mjs).
      const build = readFileSync(join(BUNDLES, 'main.js'), 'latin1').split('\n')[0]?.split(' ').at(-1);
      expect(readdirSync(compileCache).sort()).toEqual(['OLD', 'OLDER', build].sort());
      expect(readdirSync(join(compileCache, build ?? '')).length).toBeGreaterThan(0);
    } else {
      expect(readdirSync(compileCache).sort()).toEqual(['OLD', 'OLDER', 'OLDEST', 'v22.23.3-x64-9de703df-0']);
    }
  });

  test.skipIf(process.platform === 'win32')(
    'a cache file another user wrote, or could rewrite, is never run (skipped on Windows: no POSIX owner or modes; the profile’s ACL guards the cache)',
    async () => {
      const { env, dir } = cacheHome();
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, `light-argv-${buildOf('light-argv')}`);
      // A cache V8 accepts for the real light-argv (same length), of a source printing another version.
      const forge = () => {
        const source = readFileSync(join(BUNDLES, 'light-argv.cjs'), 'utf8');
        const forged = source.replace(
          `var VERSION = "${VERSION}";`,
          `var VERSION = "${'X'.repeat(VERSION.length)}";`,
        );
        expect(forged).not.toBe(source);
        const script = [
          "const vm = require('node:vm');",
          'const [source] = process.argv.slice(1);',
          "const s = new vm.Script('(function (exports, require, module, __import) {' + source + '\\n})');",
          "process.stdout.write(Buffer.concat([Buffer.from('tokencli code cache 1:\\n'), s.createCachedData()]).toString('base64'));",
        ].join('\n');
        const data = execFileSync(process.execPath, ['-e', script, forged], { encoding: 'utf8' });
        writeFileSync(file, Buffer.from(data, 'base64'), { mode: 0o600 });
      };
      const forgedVersion = `${'X'.repeat(VERSION.length)}\n`;
      // The control: the forged file, private and the user's own, is run (only this user could write it).
      forge();
      expect((await runCli(['--version'], { env })).stdout).toBe(forgedVersion);
      // Writable by others: not read, and made again by this run.
      forge();
      chmodSync(file, 0o666);
      expect(await runCli(['--version'], { env })).toMatchObject({
        code: 0,
        stdout: `${VERSION}\n`,
        stderr: '',
      });
      expect(mode(file)).toBe(0o600);
      expect((await runCli(['--version'], { env })).stdout).toBe(`${VERSION}\n`);
      // Another user's (only root can make one here).
      if (process.getuid?.() === 0) {
        forge();
        chownSync(file, 65534, 65534);
        expect((await runCli(['--version'], { env })).stdout).toBe(`${VERSION}\n`);
      }
    },
  );

  test('nothing is cached under TMPDIR (a throw-away home)', async () => {
    const root = tempDir('tokencli-code-cache-');
    const env = {
      XDG_CACHE_HOME: join(root, 'cache'),
      ...{ TMPDIR: root, TEMP: root, TMP: root },
      HOME: join(root, 'home'),
    };
    expect(await runCli(['--version'], { env })).toMatchObject({
      code: 0,
      stdout: `${VERSION}\n`,
      stderr: '',
    });
    expect(existsSync(join(root, 'cache'))).toBe(false);
    expect(existsSync(join(root, 'home'))).toBe(false);
  });

  test('a cache directory that cannot be made or written costs nothing but speed', async () => {
    const { env, dir } = cacheHome();
    // A file where the cache directory's parent should be.
    mkdirSync(join(dir, '..', '..'), { recursive: true });
    writeFileSync(join(dir, '..'), 'in the way');
    expect(await runCli(['--version'], { env })).toMatchObject({
      code: 0,
      stdout: `${VERSION}\n`,
      stderr: '',
    });

    const other = cacheHome();
    mkdirSync(other.dir, { recursive: true });
    chmodSync(other.dir, 0o500);
    try {
      const run = await runCli(['--version'], { env: other.env });
      expect(run).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
      // Root may write there anyway; anyone else may not. On Windows a directory's mode only
      // sets its read-only attribute, which keeps no one from writing inside.
      if (process.platform !== 'win32' && process.getuid?.() !== 0)
        expect(readdirSync(other.dir)).toEqual([]);
    } finally {
      chmodSync(other.dir, 0o700);
    }
  });
});
