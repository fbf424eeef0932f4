/**
 * Where the code-cache training runs (train-code-cache.mjs): a fresh private directory under the
 * system's temporary directory, named by the building process's id, so that a build that could
 * not clean up after itself (SIGKILL, a power cut, a second Ctrl-C) has its directory removed by
 * a later one.
 */
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The library's own rules (built by `npm run build`, which `npm run build:release` runs first): the
// one the file store's sweep of dead writers' files keeps, and ASCII digits.
import { processAlive } from '../../dist/fs/process-alive.js';
import { isAsciiDigits } from '../../dist/text/ascii-digits.js';

const PREFIX = 'tokencli-training-';

/**
 * How old a training directory must be to be taken for a leftover. A build's process may run
 * unseen (a container with a process namespace of its own that shares /tmp), so that no process
 * of its id here proves nothing; but a whole build takes under a minute.
 */
const LEFT_AFTER_MS = 60 * 60 * 1000;

/** A new training directory, after removing those that earlier builds left. */
export function makeTrainingDir(parent = tmpdir()) {
  removeLeftTrainingDirs(parent);
  return mkdtempSync(join(parent, `${PREFIX}${process.pid}-`));
}

/**
 * Removes this user's training directories made over an hour ago whose build no longer runs here
 * (or, from before the names held the id, whatever their build). Another user's, a newer one, or
 * one whose process id is taken (by its build, or a new process since) are left: at worst a
 * directory waits for a later build.
 */
export function removeLeftTrainingDirs(parent, now = Date.now()) {
  let names;
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(PREFIX)) continue;
    const pid = builderOf(name);
    // Its own build's (this one's, too) while it runs.
    if (pid !== undefined && processAlive(pid)) continue;
    const path = join(parent, name);
    try {
      const stats = lstatSync(path);
      if (!stats.isDirectory() || (process.getuid && stats.uid !== process.getuid())) continue;
      // Its time of change: set when the training made its three directories, and not since.
      if (now - stats.mtimeMs < LEFT_AFTER_MS) continue;
      rmSync(path, { recursive: true, force: true, maxRetries: 5 });
    } catch {
      // Gone meanwhile, or not ours to remove: left.
    }
  }
}

/** The process id in `tokencli-training-PID-XXXXXX`; undefined in the older `tokencli-training-XXXXXX`. */
function builderOf(name) {
  const rest = name.slice(PREFIX.length);
  const dash = rest.indexOf('-');
  const digits = rest.slice(0, dash);
  return dash > 0 && isAsciiDigits(digits) ? Number(digits) : undefined;
}
