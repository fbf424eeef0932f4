/**
 * The single executable carries the code cache of each bundle its build made
 * (scripts/release/train-code-cache.mjs): its runs start from it in a fresh home, as in a CI job,
 * and write nothing to the user's cache directory on the paths the build ran. Only meaningful
 * against the executable (TOKENCLI_BINARY, which .ci/run sets for one run of test/e2e).
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { VERSION } from '../../src/version.js';
import { BINARY, runCli, tempDir } from '../helpers/cli.js';
import { serveForFile } from '../helpers/serve.js';
import { demoEnv } from './env.js';

const title = `the executable’s own code cache${BINARY ? '' : ' (skipped: no TOKENCLI_BINARY, the npm package has none)'}`;
const serve = serveForFile({ skip: !BINARY });

/** A cache home outside the child's TMPDIR (the launcher keeps no cache under it), and the files there. */
function cacheHome(): { env: Record<string, string>; files: () => string[] } {
  const root = tempDir('tokencli-exe-cache-');
  const tmp = join(root, 'tmp');
  mkdirSync(tmp);
  const home = join(root, 'cache');
  const codeCache = join(home, 'tokencli', 'code-cache');
  return {
    env: { XDG_CACHE_HOME: home, TMPDIR: tmp },
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
});
