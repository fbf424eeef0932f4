/**
 * One build at a time in a checkout. `npm run build` empties dist/ before it writes it again, and
 * build:release reads dist/ for a minute after that (the executable, the tarball): a second build
 * started meanwhile (`npm test`'s pretest in another terminal, a second `npm run bench`) failed the
 * first one, or itself, with a stack trace ("Cannot read asset …", "Couldn't write output
 * executable").
 *
 * The lock is a file, .tmp/build.lock, holding its holder's pid. It is made whole under another
 * name and then linked to its own (a link fails where the name is taken), so that of two builds
 * one wins and neither reads a lock half-written. Its holder touches it every second and removes
 * it as it ends. A build that finds it waits, saying for whom. A lock whose holder is gone (a build
 * killed by SIGKILL, a machine restarted) is taken over: at once where no process has its pid,
 * else once it has gone untouched for ten seconds (a pid lives on in a zombie, or is given again).
 * Two builds that find such a lock at the same moment could both take it over; that needs a killed
 * build and two more started together, and costs what having no lock did. So does a lock shared
 * between pid namespaces (two containers building in one mounted checkout), whose holder the other
 * side cannot see.
 */
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BuildFailure } from './release/failure.mjs';

const POLL_MS = 200;
/** How often the holder touches the lock, and how long a lock nobody touched is left alone. */
const BEAT_MS = 1000;
const STALE_MS = 10_000;

/** The lock file of the checkout at `root`. */
function buildLockPath(root) {
  return join(root, '.tmp', 'build.lock');
}

/**
 * The lock as it is: the pid in it (undefined where it holds none) and when it was last touched,
 * or undefined where there is no lock (removed meanwhile).
 */
function held(lock) {
  let text;
  let touched;
  try {
    text = readFileSync(lock, 'utf8');
    touched = statSync(lock).mtimeMs;
  } catch (error) {
    if (error.code === 'ENOENT') return undefined;
    throw new BuildFailure(`cannot read the build lock ${lock}: ${error.message}`);
  }
  return { pid: /^[1-9][0-9]*\n$/.test(text) ? Number(text) : undefined, touched };
}

/**
 * Whether nobody holds the lock any more: it holds no pid (take() links it whole, so no live
 * build's lock is ever empty), or its holder has not touched it for STALE_MS (a pid can outlive
 * its build: a zombie nobody reaps, or the pid given again to another process — in a container,
 * whose pids start from 1 each run, even to this build's own npm), or no process has its pid
 * (EPERM: one does, as another user), or it is this very build's.
 */
function abandoned({ pid, touched }) {
  if (pid === undefined || pid === process.pid || Math.abs(Date.now() - touched) > STALE_MS) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return error.code !== 'EPERM';
  }
}

/** Makes the lock this process's, if nobody holds it; true if it did. */
function take(lock) {
  const mine = `${lock}.${process.pid}`;
  writeFileSync(mine, `${process.pid}\n`);
  touch(mine);
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

/** Dates the file now, by this machine's clock (a network file system's server may have another). */
function touch(file) {
  const now = new Date();
  utimesSync(file, now, now);
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
 * Runs `work()` holding the build lock of the checkout at `root`, touching it every BEAT_MS, and
 * removes the lock however it ends. While another build holds it, waits: `onWait(pid)` is called
 * for each build it waits for, and `signal` (an AbortSignal) ends the wait (an AbortError).
 */
export async function withBuildLock(root, work, { onWait, signal } = {}) {
  const lock = buildLockPath(root);
  let waitingFor;
  while (!takeOrSay(lock)) {
    const now = held(lock);
    if (now === undefined) continue;
    if (abandoned(now)) {
      // Read again just before it is removed, so that a lock another waiter took over in between
      // is left alone.
      const again = held(lock);
      if (again?.pid === now.pid && again.touched === now.touched) {
        try {
          rmSync(lock, { force: true });
        } catch (error) {
          throw new BuildFailure(
            `cannot remove the build lock ${lock} that no build holds: ${error.message}`,
          );
        }
      }
      continue;
    }
    if (now.pid !== waitingFor) onWait?.(now.pid);
    waitingFor = now.pid;
    await sleep(POLL_MS, undefined, { signal });
  }
  const beat = setInterval(() => {
    try {
      if (held(lock)?.pid === process.pid) touch(lock);
    } catch {
      // A beat missed is made up by the next; one that keeps failing lets the lock go stale, and
      // costs what having no lock did.
    }
  }, BEAT_MS);
  beat.unref();
  try {
    return await work();
  } finally {
    clearInterval(beat);
    if (held(lock)?.pid === process.pid) rmSync(lock, { force: true });
  }
}
