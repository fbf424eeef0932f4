/**
 * The single executable carries the code cache of each bundle its build made
 * (scripts/release/train-code-cache.mjs): its runs start from it in a fresh home, as in a CI job,
 * and write nothing to the user's cache directory on the paths the build ran. Only meaningful
 * against the executable (TOKENCLI_BINARY, which .ci/run sets for one run of test/e2e).
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { SEA_NODE_MAJOR } from '../../scripts/release/node26.mjs';
import { VERSION } from '../../src/version.js';
import { BINARY, runCli, tempDir } from '../helpers/cli.js';
import { expectMode, keepsPosixModes } from '../helpers/file-modes.js';
import { lightBundleBuild } from '../helpers/light-bundles.js';
import { serveForFile } from '../helpers/serve.js';
import { demoEnv } from './env.js';

const title = `the executable’s own code cache${BINARY ? '' : ' (skipped: no TOKENCLI_BINARY, the npm package has none)'}`;
const serve = serveForFile({ skip: !BINARY });

const mode = (path: string) => statSync(path).mode & 0o777;

/**
 * A cache home outside the child's temporary directory (the launcher keeps no cache under it:
 * TMPDIR, or TEMP and TMP on Windows), and the files there.
 */
function cacheHome(): { env: Record<string, string>; home: string; files: () => string[] } {
  const root = tempDir('tokencli-exe-cache-');
  const tmp = join(root, 'tmp');
  mkdirSync(tmp);
  const home = join(root, 'cache');
  const codeCache = join(home, 'tokencli', 'code-cache');
  return {
    env: { XDG_CACHE_HOME: home, TMPDIR: tmp, TEMP: tmp, TMP: tmp },
    home,
    files: () =>
      existsSync(codeCache) ? readdirSync(codeCache).flatMap((dir) => readdirSync(join(codeCache, dir))) : [],
  };
}

describe.skipIf(!BINARY)(title, () => {
  test('--version and a cached token start from it: nothing is written to the cache directory', async () => {
    const { env: cacheEnv, files } = cacheHome();
    expect(await runCli(['--version'], { env: cacheEnv })).toMatchObject({
      code: 0,
      stdout: `${VERSION}\n`,
      stderr: '',
    });
    const env = { ...demoEnv(serve.baseUrl), ...cacheEnv };
    const filled = await runCli(['token'], { env });
    expect(filled.code).toBe(0);
    const cached = await runCli(['token'], { env });
    expect(cached).toMatchObject({ code: 0, stdout: filled.stdout, stderr: '' });
    expect(await runCli(['status'], { env })).toMatchObject({ code: 0, stderr: '' });
    // A run that compiled a light bundle from source would have left its cache here.
    expect(files().filter((name) => name.startsWith('light-'))).toEqual([]);
  });

  test('a cache file of the user’s that is refused (damaged, or open to others) is written anew', async () => {
    const { node, build } = executableCacheName();
    const { env, home } = cacheHome();
    const dir = join(home, 'tokencli', 'code-cache', `${node}-${process.arch}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, `light-argv-${build}`);
    const version = async () =>
      expect(await runCli(['--version'], { env })).toMatchObject({
        code: 0,
        stdout: `${VERSION}\n`,
        stderr: '',
      });

    // Damaged: not a cache at all.
    writeFileSync(file, 'not a cache', { mode: 0o600 });
    await version();
    expectMode(file, 0o600);
    expect(readFileSync(file, 'latin1').startsWith('tokencli code cache 1:')).toBe(true);

    // Windows keeps no modes to open the file to others with: the profile's ACL guards it there.
    if (!keepsPosixModes()) return;
    // Open to others: the very file just written, which V8 would take, is refused by its mode alone.
    chmodSync(file, 0o666);
    const before = statSync(file).ino;
    await version();
    expect(mode(file)).toBe(0o600);
    expect(statSync(file).ino).not.toBe(before);
  });
});

/**
 * Where the executable keeps its code cache of light-argv: the version of the node inside it (the
 * one version string of that line in its bytes) and the bundle's build (dist/cli-bundle's, which
 * `npm run build:release` embedded; checked to be in the executable).
 */
function executableCacheName(): { node: string; build: string } {
  const bytes = readFileSync(BINARY ?? '').toString('latin1');
  const { build, header } = lightBundleBuild('light-argv');
  if (!bytes.includes(`${header}\n`))
    throw new Error(
      `${BINARY} was not built from this dist/ (run npm run build:release and test its executable)`,
    );
  const versions = new Set(bytes.match(new RegExp(`v${SEA_NODE_MAJOR}\\.\\d+\\.\\d+`, 'g')));
  if (versions.size !== 1)
    throw new Error(`${BINARY} names node versions ${[...versions].join(', ') || 'none'}`);
  return { node: [...versions][0] ?? '', build };
}
