/**
 * Directories a process makes in a temporary directory others share (/tmp), named by the process's
 * id, so that those it could not remove (SIGKILL, a power cut, a second Ctrl-C, a cancelled CI run)
 * are removed by a later one: the release build's code-cache training (release/train-code-cache.mjs)
 * and the tests' directories in /tmp itself, for what they run as another user
 * (test/helpers/temp-dirs.ts, tempDirInSystemTmp).
 */
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The library's own rules (built by `npm run build`, which `npm run build:release` and `npm test`
// run first): the one the file store's sweep of dead writers' files keeps, and ASCII digits.
import { processAlive } from '../dist/fs/process-alive.js';
import { isAsciiDigits } from '../dist/text/ascii-digits.js';

/**
 * How old a directory must be to be taken for a leftover. Its maker may run unseen (a container
 * with a process namespace of its own that shares /tmp), so that no process of its id here proves
 * nothing; but each maker is done with its directory within minutes.
 */
const LEFT_AFTER_MS = 60 * 60 * 1000;

/** A new directory `<parent>/<prefix><pid>-XXXXXX`, after removing those earlier processes left. */
export function makeDirOfThisProcess(prefix, parent = tmpdir()) {
  removeLeftDirs(prefix, parent);
  return mkdtempSync(join(parent, `${prefix}${process.pid}-`));
}

/**
 * Removes this user's `<prefix>…` directories made over an hour ago whose process no longer runs
 * here (or, from before the names held the id, whatever their process). Another user's, a newer
 * one, or one whose process id is taken (by its maker, or a new process since) are left: at worst
 * a directory waits for a later run.
 */
export function removeLeftDirs(prefix, parent, now = Date.now()) {
  let names;
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = makerOf(name.slice(prefix.length));
    // Its own maker's (this process's, too) while it runs.
    if (pid !== undefined && processAlive(pid)) continue;
    const path = join(parent, name);
    try {
      const stats = lstatSync(path);
      if (!stats.isDirectory() || (process.getuid && stats.uid !== process.getuid())) continue;
      // Its time of change: set when its maker last added or removed an entry in it.
      if (now - stats.mtimeMs < LEFT_AFTER_MS) continue;
      rmSync(path, { recursive: true, force: true, maxRetries: 5 });
    } catch {
      // Gone meanwhile, or not ours to remove: left.
    }
  }
}

/** The process id in `PID-XXXXXX`; undefined in the older `XXXXXX`. */
function makerOf(rest) {
  const dash = rest.indexOf('-');
  const digits = rest.slice(0, dash);
  return dash > 0 && isAsciiDigits(digits) ? Number(digits) : undefined;
}
