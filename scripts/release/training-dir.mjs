/**
 * Where the code-cache training runs (train-code-cache.mjs): a fresh private directory under the
 * system's temporary directory, named by the building process's id, so that a build that could
 * not clean up after itself (SIGKILL, a power cut) has its directory removed by the next one,
 * and a build still running beside it keeps its own.
 */
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PREFIX = 'tokencli-training-';

/** A new training directory, after removing those of builds that no longer run. */
export function makeTrainingDir(parent = tmpdir()) {
  removeLeftTrainingDirs(parent);
  return mkdtempSync(join(parent, `${PREFIX}${process.pid}-`));
}

/**
 * Removes this user's training directories whose build's process has ended. Another user's, or
 * one whose process still runs (or whose id a new process took since), are left: at worst a
 * directory waits for a later build.
 */
export function removeLeftTrainingDirs(parent) {
  let names;
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = builderOf(name);
    if (pid === undefined || pid === process.pid || runs(pid)) continue;
    const path = join(parent, name);
    try {
      const stats = lstatSync(path);
      if (!stats.isDirectory() || (process.getuid && stats.uid !== process.getuid())) continue;
      rmSync(path, { recursive: true, force: true, maxRetries: 5 });
    } catch {
      // Gone meanwhile, or not ours to remove: left.
    }
  }
}

/** The process id in `tokencli-training-PID-XXXXXX`, or undefined for any other name. */
function builderOf(name) {
  if (!name.startsWith(PREFIX)) return undefined;
  const rest = name.slice(PREFIX.length);
  const dash = rest.indexOf('-');
  const digits = rest.slice(0, dash);
  if (dash < 1 || ![...digits].every((c) => c >= '0' && c <= '9')) return undefined;
  return Number(digits);
}

/** Whether a process with this id runs (EPERM: it does, as another user's). */
function runs(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
