/**
 * A cross-process exclusive lock on a lock file, for read-modify-write of the credentials file and
 * for the read-refresh-write of `tokencli token`, so that parallel invocations make one network
 * exchange between them (docs/contract.md §2.3 last paragraph, §2.7).
 *
 * The lock file is created with O_EXCL and holds the holder's pid, host and a random token. It is
 * stale when its holder is a dead process on this host, or when it has not been touched for
 * `staleMs` (a live holder touches it every `staleMs / 3`). Stale locks are broken under a short
 * "breaker" lock so two waiters never both break one lock and then delete each other's.
 */
// Synchronous calls on purpose: each is a single quick syscall, and node:fs/promises would add its
// module load and a thread-pool round trip per call to the start-up of every `tokencli token`.
import { closeSync, openSync, readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { TokencliError } from '../errors.js';
import { formatSeconds } from '../text/seconds.js';
import { ensurePrivateDir } from './private-files.js';
import { uniqueSuffix } from './unique-name.js';

export interface FileLockOptions {
  /** Give up waiting after this long (default 60 s). */
  timeoutMs?: number;
  /** A lock untouched for this long is stale even if its pid looks alive (default 30 s). */
  staleMs?: number;
  /** Stops waiting (rejects with the signal's reason), e.g. on Ctrl-C. */
  signal?: AbortSignal;
}

interface LockOwner {
  pid: number;
  host: string;
  token: string;
  /** Epoch ms when the lock was taken. */
  since: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_STALE_MS = 30_000;
const FIRST_DELAY_MS = 5;
const MAX_DELAY_MS = 100;

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Runs `fn` while holding the exclusive lock at `lockPath` (created, with its 0700 directory, if
 * absent) and releases it afterwards, whether `fn` resolves or throws.
 *
 * @throws TokencliError (exit 1) when the lock could not be taken within `timeoutMs`, naming the
 *   lock file and its holder; the signal's reason when `signal` aborts while waiting.
 */
export async function withFileLock<T>(
  lockPath: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  let owner: LockOwner;
  try {
    await ensurePrivateDir(dirname(lockPath));
    owner = await acquire(lockPath, { timeoutMs, staleMs, signal: options.signal });
  } catch (error) {
    const code = errnoCode(error);
    // Only file-system failures (EACCES, ENOTDIR, EROFS…); timeouts and aborts pass through as they are.
    if (typeof code !== 'string' || !code.startsWith('E')) throw error;
    throw new TokencliError(`cannot create the lock file ${lockPath}: ${code}`, {
      code: 'lock',
      reason: 'lock_unwritable',
      details: { path: lockPath, systemCode: code },
      cause: error,
    });
  }
  // Keep the lock fresh while a long holder (a slow token exchange) works, so nobody breaks it.
  const heartbeat = setInterval(
    () => {
      const now = new Date();
      try {
        utimesSync(lockPath, now, now);
      } catch {
        // released or broken meanwhile; the next acquire notices
      }
    },
    Math.max(10, Math.floor(staleMs / 3)),
  );
  heartbeat.unref();
  try {
    return await fn();
  } finally {
    clearInterval(heartbeat);
    await releaseIfOwned(lockPath, owner.token);
  }
}

/** Creates the lock file exclusively; true when this process now holds it. */
async function tryCreate(path: string, owner: LockOwner): Promise<boolean> {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    writeFileSync(fd, JSON.stringify(owner), 'utf8');
  } finally {
    closeSync(fd);
  }
  return true;
}

async function acquire(
  path: string,
  options: { timeoutMs: number; staleMs: number; signal: AbortSignal | undefined },
): Promise<LockOwner> {
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    token: uniqueSuffix(),
    since: Date.now(),
  };
  const deadline = Date.now() + options.timeoutMs;
  let delay = FIRST_DELAY_MS;
  for (;;) {
    options.signal?.throwIfAborted();
    owner.since = Date.now();
    if (await tryCreate(path, owner)) return owner;
    const holder = await readHolder(path);
    if (holder && (await isStale(holder, options.staleMs))) {
      await breakStaleLock(path, holder.owner?.token, options.staleMs);
      continue;
    }
    if (Date.now() >= deadline) throw timeoutError(path, holder?.owner, options.timeoutMs);
    // Jitter keeps waiters that started together from polling in lock step.
    await sleep(Math.min(delay * (0.5 + Math.random()), deadline - Date.now()), options.signal);
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  }
}

interface Holder {
  /** Undefined when the file is empty or garbled (a holder that died between create and write). */
  owner: LockOwner | undefined;
  mtimeMs: number;
}

async function readHolder(path: string): Promise<Holder | undefined> {
  try {
    const text = readFileSync(path, 'utf8');
    const stats = statSync(path);
    return { owner: parseOwner(text), mtimeMs: stats.mtimeMs };
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined; // released meanwhile: try again at once
    throw error;
  }
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (
      typeof value.pid === 'number' &&
      typeof value.host === 'string' &&
      typeof value.token === 'string' &&
      typeof value.since === 'number'
    ) {
      return value as LockOwner;
    }
  } catch {
    // fall through: garbled
  }
  return undefined;
}

async function isStale(holder: Holder, staleMs: number): Promise<boolean> {
  if (Date.now() - holder.mtimeMs > staleMs) return true;
  const owner = holder.owner;
  // A pid only means something on the host that wrote it (the config dir may be on NFS).
  if (owner && owner.host === hostname()) return !isProcessAlive(owner.pid);
  return false;
}

function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return errnoCode(error) !== 'ESRCH';
  }
}

/**
 * Removes the lock at `path` if it still is the stale one that was judged (same token, or still
 * garbled), under a breaker lock: without it, waiter A could judge lock 1 stale, waiter B break it
 * and take lock 2, and A then delete lock 2.
 */
async function breakStaleLock(path: string, staleToken: string | undefined, staleMs: number): Promise<void> {
  const breaker = `${path}.break`;
  const me: LockOwner = {
    pid: process.pid,
    host: hostname(),
    token: uniqueSuffix(),
    since: Date.now(),
  };
  if (!(await tryCreate(breaker, me))) {
    // Another waiter is breaking it (held for a moment only); unless that waiter died doing so.
    const other = await readHolder(breaker);
    if (other && (await isStale(other, Math.min(staleMs, 5_000)))) removeQuietly(breaker);
    return;
  }
  try {
    const current = await readHolder(path);
    if (current && current.owner?.token === staleToken) removeQuietly(path);
  } finally {
    removeQuietly(breaker);
  }
}

/** Deletes the lock only if it is still ours (it may have been broken as stale and retaken). */
async function releaseIfOwned(path: string, token: string): Promise<void> {
  const holder = await readHolder(path).catch(() => undefined);
  if (holder?.owner?.token === token) removeQuietly(path);
}

function timeoutError(path: string, owner: LockOwner | undefined, timeoutMs: number): TokencliError {
  const seconds = formatSeconds(timeoutMs);
  const held = owner
    ? ` (held by pid ${owner.pid} on ${owner.host} since ${new Date(owner.since).toISOString()})`
    : '';
  return new TokencliError(`timed out after ${seconds}s waiting for the lock ${path}${held}`, {
    code: 'lock',
    reason: 'lock_timeout',
    details: { path },
    hint: `if no tokencli is running, remove ${path}`,
  });
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Removes a file, ignoring its absence (another process may have removed it first). */
function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
