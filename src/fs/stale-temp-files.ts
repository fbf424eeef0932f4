/**
 * Temporary files that `writePrivateFileAtomic` left behind. A writer killed between writing
 * `credentials.json.<pid>.<time>.<n>.<random>.tmp` and renaming it leaves a full copy of the
 * credentials under that name, which nothing would ever read or remove: `logout --purge` would
 * leave the secret on disk. The file store removes such files of dead writers on its next locked
 * write and on every delete.
 */
// Synchronous calls, like lock.ts: a directory listing and a few lstat/unlink calls.
import { lstatSync, readdirSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { processAlive } from './process-alive.js';

/**
 * A temp file older than this is an orphan whatever its pid says (the pid may have been reused,
 * or belong to another host sharing the directory). Writers hold the store's lock while they
 * write, which a live holder keeps fresh and which goes stale after 30 s, and a write takes
 * milliseconds; a minute leaves a wide margin.
 */
export const STALE_TEMP_MS = 60_000;

/** `<file>.<pid>.<base36 time>.<counter>.<random>.tmp`, as uniqueSuffix() names it. */
function tempPattern(file: string): RegExp {
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped}\\.(\\d+)\\.[0-9a-z]+\\.\\d+\\.[0-9a-z]*\\.tmp$`);
}

/** The temporary files of `path` in its directory, with the pid in their names. */
export function listTempFiles(path: string): Array<{ path: string; pid: number }> {
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return []; // no directory, nothing left behind
  }
  const pattern = tempPattern(basename(path));
  const found: Array<{ path: string; pid: number }> = [];
  for (const name of names) {
    const match = pattern.exec(name);
    if (match) found.push({ path: join(dirname(path), name), pid: Number(match[1]) });
  }
  return found;
}

/**
 * Removes the temporary files of `path` whose writer is dead (its pid names no process here) or
 * that are older than `STALE_TEMP_MS`; a live writer's fresh file is left alone. Only regular
 * files are removed, never followed. Returns the paths removed.
 */
export function removeStaleTempFiles(path: string, now: number = Date.now()): string[] {
  const removed: string[] = [];
  for (const temp of listTempFiles(path)) {
    try {
      const stats = lstatSync(temp.path);
      if (!stats.isFile()) continue;
      const old = now - stats.mtimeMs > STALE_TEMP_MS;
      const ownAndFresh = temp.pid === process.pid && !old;
      if (ownAndFresh || (!old && processAlive(temp.pid))) continue;
      unlinkSync(temp.path);
      removed.push(temp.path);
    } catch {
      // gone already (its writer renamed it, or another cleaner was first)
    }
  }
  return removed;
}
