/**
 * A native addon carried inside the single executable (an asset): node can only `dlopen` a file,
 * so the bytes are written once to a private directory, under a name that is their SHA-256, and
 * the file is hashed again before every load. A file another user could have written or swapped
 * (a directory not ours or open to others, a symbolic link, other bytes) is never loaded: it is
 * replaced when we own the directory, refused otherwise.
 *
 * Only node builtins and helpers built on them alone (a text helper, the temp-file naming and
 * clean-up of src/fs/), so the executable's bundle carries it without the rest of the CLI.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeStaleTempFiles, STALE_TEMP_MS } from '../fs/stale-temp-files.js';
import { uniqueSuffix } from '../fs/unique-name.js';
import { errorLine } from '../text/error-line.js';

/**
 * Removes each of `others` but the `kept` written last, leaving one it cannot remove: the
 * launcher's rule for its caches (bin/tokencli.js), lent to the executable's bundle, so that the
 * addon's copies are kept by the same one.
 */
export type RemoveAllButLatest = (others: { path: string; written: number }[], kept: number) => void;

/** Where the addon's file goes. */
export interface AddonCache {
  /** The private directory the file goes into; created 0700 when missing. */
  dir: string;
  /** How the file is named after its hash, e.g. `.node`. */
  extension?: string;
  /**
   * Given, other addons' copies in `dir` (other releases') are pruned with it when this one is
   * written; without it (a temporary directory of this run's alone) none are looked for.
   */
  removeAllButLatest?: RemoveAllButLatest;
}

export interface AddonFiles extends AddonCache {
  /** The addon's bytes (the executable's asset). */
  bytes: Uint8Array;
}

/** Thrown when the addon cannot be put where it can be loaded safely. */
export class AddonFileError extends Error {}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The directory exists, is a real directory, is ours and no one else may enter it. */
function checkPrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) throw new AddonFileError(`${dir} is not a directory`);
  if (process.platform === 'win32') return; // modes and uids mean nothing there; %LOCALAPPDATA% is the user's
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) {
    throw new AddonFileError(`${dir} belongs to another user`);
  }
  if ((stat.mode & 0o077) !== 0)
    throw new AddonFileError(`${dir} is open to other users (mode ${(stat.mode & 0o777).toString(8)})`);
}

/** The file holds exactly these bytes: a regular file (not a link) whose hash is `hash`. */
function holds(path: string, hash: string): boolean {
  try {
    if (!lstatSync(path).isFile()) return false;
    return sha256(readFileSync(path)) === hash;
  } catch {
    return false;
  }
}

/**
 * The path of a file holding `bytes`, verified: written now when missing or different, else the
 * one an earlier run wrote.
 *
 * @throws AddonFileError when the directory is not private or the file cannot be made to match.
 */
export function addonFile({ bytes, dir, extension = '.node', removeAllButLatest }: AddonFiles): string {
  checkPrivateDir(dir);
  const hash = sha256(bytes);
  const path = join(dir, `${hash}${extension}`);
  // A killed writer's copy (a whole addon's size) goes, as the file store's temp files do, also
  // when another run finished the file meanwhile: a listing, little beside the hash below.
  removeStaleTempFiles(path);
  if (holds(path, hash)) return path;
  // Written aside under a fresh name ('wx': never through a file or link already there), then
  // renamed over whatever sits at the name: a reader sees no file or the whole one.
  const partial = `${path}.${uniqueSuffix()}.tmp`;
  try {
    const fd = openSync(partial, 'wx', 0o600);
    try {
      // writeFileSync on a descriptor writes until all is written or a write fails (a full disk,
      // a file size limit): a single writeSync may write part and say only how much.
      writeFileSync(fd, bytes);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, path);
  } finally {
    rmSync(partial, { force: true });
  }
  if (!holds(path, hash)) throw new AddonFileError(`${path} does not hold the addon just written`);
  if (removeAllButLatest) removeAllButLatest(otherCopies(dir, path, extension), KEPT_OTHER_COPIES);
  return path;
}

/** Copies of other addons kept beside the one just written: another release's, in use side by side. */
const KEPT_OTHER_COPIES = 1;

/** The copies of other addons in `dir` (other releases', each a few megabytes), with when each was written. */
function otherCopies(dir: string, current: string, extension: string): { path: string; written: number }[] {
  const copy = new RegExp(`^[0-9a-f]{64}${extension.replaceAll('.', '\\.')}$`);
  const others: { path: string; written: number }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (!copy.test(name) || path === current) continue;
    try {
      const stat = lstatSync(path);
      if (stat.isFile()) others.push({ path, written: stat.mtimeMs });
    } catch {
      // gone already
    }
  }
  return others;
}

/** `process.dlopen`'s shape, so a test can stand in for it. */
export type Dlopen = (module: { exports: unknown }, filename: string) => void;

/** Loads the addon from its verified file (see {@link addonFile}). */
export function loadAddon(files: AddonFiles, dlopen: Dlopen = process.dlopen): unknown {
  const path = addonFile(files);
  const module = { exports: {} as unknown };
  dlopen(module, path);
  return module.exports;
}

/** The name of the temporary directories the fallback makes, before mkdtemp's six characters. */
const TEMP_DIR_PREFIX = 'tokencli-native-';

/**
 * Removes the fallback's temporary directories that earlier runs left in `tmp`: on Windows a loaded
 * DLL's file cannot be deleted, not even at exit, so each such run leaves one, a few megabytes.
 * Only real directories (never a link or junction) named as the fallback names them and older than
 * STALE_TEMP_MS (a run writes and loads its copy within milliseconds: the file store's margin for
 * its own temporary files serves); one still in use (its DLL loaded by a run) cannot be removed
 * and stays for a later run. Returns the paths removed.
 */
export function removeLeftTempDirs(tmp: string, now: number = Date.now()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(tmp);
  } catch {
    return removed;
  }
  const left = new RegExp(`^${TEMP_DIR_PREFIX}[A-Za-z0-9]{6}$`);
  for (const name of names) {
    if (!left.test(name)) continue;
    const path = join(tmp, name);
    try {
      const stat = lstatSync(path);
      if (!stat.isDirectory() || now - stat.mtimeMs < STALE_TEMP_MS) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // Gone meanwhile, or its DLL still loaded by a run: left for a later one.
    }
  }
  return removed;
}

/**
 * Loads the addon from `cache` (kept there, so it is written once), or where that cannot be
 * done — no user cache directory, one another user made or left open (a `sudo` run with the
 * user's HOME), a file in its place, a mount that runs nothing — from a private temporary
 * directory. That one is removed at once on POSIX, where the loaded library stays mapped without
 * its file, so that no signal can leave it behind; Windows keeps a loaded DLL's file open, so there
 * it is tried at exit, and what that leaves a later fallback removes (removeLeftTempDirs).
 *
 * @throws Error naming both places and why each failed.
 */
export function loadAddonAnywhere(
  bytes: Uint8Array,
  cache: AddonCache | undefined,
  dlopen: Dlopen = process.dlopen,
): unknown {
  let cacheFailure: unknown;
  if (cache !== undefined) {
    try {
      return loadAddon({ ...cache, bytes }, dlopen);
    } catch (error) {
      cacheFailure = error;
    }
  }
  let dir: string | undefined;
  try {
    if (process.platform === 'win32') removeLeftTempDirs(tmpdir());
    dir = mkdtempSync(join(tmpdir(), TEMP_DIR_PREFIX));
    return loadAddon({ bytes, dir }, dlopen);
  } catch (error) {
    const cached = cache === undefined ? '' : `from ${cache.dir} (${errorLine(cacheFailure)}) nor `;
    throw new Error(
      `cannot load the native module ${cached}from a temporary directory in ${tmpdir()} (${errorLine(error)})`,
    );
  } finally {
    const made = dir;
    if (made !== undefined) {
      if (process.platform === 'win32') {
        process.once('exit', () => {
          try {
            rmSync(made, { recursive: true, force: true });
          } catch {
            // Still loaded (Windows may refuse to delete a mapped DLL even then): left, rather than
            // a stack trace from an exit listener.
          }
        });
      } else rmSync(made, { recursive: true, force: true });
    }
  }
}
