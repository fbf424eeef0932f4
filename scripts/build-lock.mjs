/**
 * One build at a time in a checkout. `npm run build` empties dist/ before it writes it again, and
 * build:release reads dist/ for a minute after that (the executable, the tarball): a second build
 * started meanwhile (`npm test`'s pretest in another terminal, a second `npm run bench`) failed the
 * first one, or itself, with a stack trace ("Cannot read asset …", "Couldn't write output
 * executable").
 *
 * The lock is a file, .tmp/build.lock, holding its holder's pid. It is made whole under another
 * name and then linked to its own (a link fails where the name is taken), so that of two builds
 * one wins and neither reads a lock half-written. Its holder removes it as it ends. A build that
 * finds it waits, saying so once. A lock whose holder is gone (a build killed by SIGKILL, a machine
 * restarted) is taken over: its pid names no running process, or this build or its parent. A pid
 * another process has taken since is waited for, and the waiting line names the lock file to
 * remove. Two builds that find such a lock at
 * the same moment could both take it over; that needs a killed build and two more started
 * together, and costs what having no lock did.
 */
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BuildFailure } from './release/failure.mjs';

const POLL_MS = 200;

/** The lock file of the checkout at `root`. */
export function buildLockPath(root) {
  return join(root, '.tmp', 'build.lock');
}

/** The pid in the lock file, or undefined where there is none (removed meanwhile) or it is not one. */
function holder(lock) {
  let text;
  try {
    text = readFileSync(lock, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return undefined;
    throw new BuildFailure(`cannot read the build lock ${lock}: ${error.message}`);
  }
  return /^[1-9][0-9]*\n$/.test(text) ? Number(text) : undefined;
}

/**
 * Whether the build the lock names may still run: a process with its pid runs (EPERM: as another
 * user), and it is neither this build nor the one that started it. A build killed in a container
 * leaves a pid that the next container's build, or its npm, is likely to get again (their pids
 * start from 1 each time): this build waiting for itself would wait for ever.
 */
function running(pid) {
  if (pid === process.pid || pid === process.ppid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Makes the lock this process's, if nobody holds it; true if it did. */
function take(lock) {
  const mine = `${lock}.${process.pid}`;
  writeFileSync(mine, `${process.pid}\n`);
  try {
    linkSync(mine, lock);
    return true;
  } catch (error) {
    if (error.code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(mine, { force: true });
  }
}

/** take(), its directory made first; a failure of either said in one line (a BuildFailure). */
function takeOrSay(lock) {
  try {
    mkdirSync(dirname(lock), { recursive: true });
    return take(lock);
  } catch (error) {
    throw new BuildFailure(`cannot take the build lock ${lock}: ${error.message}`);
  }
}

/**
 * Runs `work()` holding the build lock of the checkout at `root`, and removes the lock however it
 * ends. While another build holds it, waits: `onWait(pid, lock)` is called once, and `signal` (an
 * AbortSignal) ends the wait, rejecting with its reason.
 */
export async function withBuildLock(root, work, { onWait, signal } = {}) {
  const lock = buildLockPath(root);
  let told = false;
  while (!takeOrSay(lock)) {
    const pid = holder(lock);
    if (pid === undefined || !running(pid)) {
      // Gone, or left by a build that is gone (a lock with no pid in it is never a live one's:
      // take() links it whole). Read again just before removing it, so that a lock another
      // waiter took over in between is left alone.
      if (holder(lock) === pid) rmSync(lock, { force: true });
      continue;
    }
    if (!told) onWait?.(pid, lock);
    told = true;
    await sleep(POLL_MS, undefined, { signal });
  }
  try {
    return await work();
  } finally {
    if (holder(lock) === process.pid) rmSync(lock, { force: true });
  }
}
