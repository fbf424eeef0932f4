/**
 * vitest globalSetup: the run gets a temporary directory of its own, and fails if the run leaves
 * anything in it. Test files, the CLIs they spawn and the services those start all inherit TMPDIR
 * (os.tmpdir() reads it on every call), so a leaked directory, socket or packed install lands
 * here rather than among the files of other programs on the machine, and is named in the failure.
 */
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { unregisteredTempDir } from '../fs/temp-dirs.js';

export default function setup(): () => void {
  const systemTemp = tmpdir();
  const runTemp = unregisteredTempDir(systemTemp, 'tokencli-test-run-');
  process.env.TMPDIR = runTemp;
  return () => {
    const left = readdirSync(runTemp);
    rmSync(runTemp, { recursive: true, force: true });
    process.env.TMPDIR = systemTemp;
    if (left.length > 0) {
      // vitest reports an error thrown here but would still exit 0: fail the run explicitly.
      process.exitCode = 1;
      throw new Error(
        `the test run left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temporary directory: ${left.sort().join(', ')}`,
      );
    }
  };
}
