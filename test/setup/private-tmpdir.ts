/**
 * vitest globalSetup: the run gets a temporary directory of its own, and fails if the run leaves
 * anything in it. Test files, the CLIs they spawn and the services those start all inherit TMPDIR,
 * and TEMP and TMP for Windows (os.tmpdir() reads them on every call), so a leaked directory,
 * socket or packed install lands here rather than among the files of other programs on the
 * machine, and is named in the failure.
 *
 * Node 22 and later keep a module compile cache that programs turn on themselves (npm 11 does, for
 * every `npm pack`/`npm install` a test runs, and so does the CLI for its full path); it defaults
 * to `node-compile-cache` in the temporary directory and is written as each process exits, a
 * vitest worker's included, sometimes after the last test. The run turns it off for every process
 * it starts (NODE_DISABLE_COMPILE_CACHE, inherited like TMPDIR); the one test of it turns it back
 * on in a directory of its own. The CLI's own code cache (bin/tokencli.js; in the user's cache
 * directory, never under TMPDIR) goes to a directory beside the checked one (XDG_CACHE_HOME), so
 * the CLIs the tests start use it, as users' do, without writing into the developer's home; it is
 * removed at the end.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { unregisteredTempDir } from '../helpers/temp-dirs.js';

export default function setup(): () => void {
  const systemTemp = tmpdir();
  const runTemp = unregisteredTempDir(systemTemp, 'tokencli-test-run-');
  const userCache = unregisteredTempDir(systemTemp, 'tokencli-test-cache-');
  const previousDisable = process.env.NODE_DISABLE_COMPILE_CACHE;
  const previousUserCache = process.env.XDG_CACHE_HOME;
  // Windows' os.tmpdir() reads TEMP and TMP, not TMPDIR; POSIX reads TMPDIR first.
  const previousTemp = { TEMP: process.env.TEMP, TMP: process.env.TMP };
  process.env.TMPDIR = runTemp;
  process.env.TEMP = runTemp;
  process.env.TMP = runTemp;
  process.env.NODE_DISABLE_COMPILE_CACHE = '1';
  process.env.XDG_CACHE_HOME = userCache;
  return () => {
    const left = readdirSync(runTemp);
    rmSync(runTemp, { recursive: true, force: true });
    // A CLI that is still exiting may write its code cache after the last test: retried for a
    // while (ENOTEMPTY is one of the errors rmSync retries), then left with a note.
    try {
      rmSync(userCache, { recursive: true, force: true, maxRetries: 8, retryDelay: 100 });
    } catch (error) {
      console.warn(`note: could not remove the test run's cache ${userCache}: ${(error as Error).message}`);
      // Which process still writes there: the next person to look wants to know.
      const ps = spawnSync('ps', ['-eo', 'pid,ppid,etimes,args'], { encoding: 'utf8' }).stdout ?? '';
      console.warn(
        ps
          .split('\n')
          .filter((line) => /node/.test(line))
          .join('\n'),
      );
    }
    process.env.TMPDIR = systemTemp;
    for (const [name, value] of Object.entries(previousTemp)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    if (previousUserCache === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = previousUserCache;
    if (previousDisable === undefined) delete process.env.NODE_DISABLE_COMPILE_CACHE;
    else process.env.NODE_DISABLE_COMPILE_CACHE = previousDisable;
    if (left.length > 0) {
      // vitest reports an error thrown here but would still exit 0: fail the run explicitly.
      process.exitCode = 1;
      throw new Error(
        `the test run left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temporary directory: ${left.sort().join(', ')}`,
      );
    }
  };
}
