/**
 * Files that hold configuration or secrets: 0600 files in 0700 directories whatever the umask,
 * written to a temporary file and renamed so a crash never leaves half a file, and never through
 * a symbolic link an attacker could have planted (docs/contract.md §2.7).
 */
// Synchronous calls on purpose: each is one quick syscall on a small file, and node:fs/promises
// would add its module load and a thread-pool round trip per call to every `tokencli token`.
import {
  chmodSync,
  closeSync,
  fchmodSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  type Stats,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { TokencliError } from '../errors.js';
import { uniqueSuffix } from './unique-name.js';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/**
 * Whether `platform` keeps POSIX permission bits. Windows does not: stat reports 0o666 for every
 * writable file, and chmod only sets or clears the read-only attribute. There the ACL of the
 * user's profile, where tokencli keeps its files, keeps other users out, and tightening a mode
 * would only cost a call at every read and clear a read-only attribute the user set.
 */
export function keepsPosixModes(platform: NodeJS.Platform = process.platform): boolean {
  return platform !== 'win32';
}

const POSIX_MODES = keepsPosixModes();

function isErrno(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === code;
}

/** Creates the directory (and parents) as 0700, or tightens an existing one that is looser. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  tightenPrivateDir(dir);
}

/**
 * Tightens an existing directory to 0700 (mkdir's mode is filtered by the umask, and an existing
 * directory keeps its mode), refusing a symbolic link there. For a directory known to exist: the
 * one a file was just read from.
 */
export function tightenPrivateDir(dir: string): void {
  const stats = lstatSync(dir, { throwIfNoEntry: false });
  // Removed since: nothing left to tighten.
  if (stats === undefined) return;
  if (stats.isSymbolicLink()) {
    throw new TokencliError(`refusing to use ${dir}: it is a symbolic link`, {
      code: 'usage',
      reason: 'config_dir_symlink',
      details: { path: dir },
    });
  }
  if (POSIX_MODES && (stats.mode & 0o777) !== DIR_MODE) chmodSync(dir, DIR_MODE);
}

/** What is at `path` (not following a link), refusing a symbolic link; undefined when nothing is. */
function privateFileStats(path: string): Stats | undefined {
  // Asked rather than caught: a missing file is common (no credentials yet), and a thrown error
  // with its stack costs more than the call.
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (stats?.isSymbolicLink()) {
    throw new TokencliError(`refusing to use ${path}: it is a symbolic link`, {
      code: 'usage',
      hint: 'remove the link; tokencli keeps its files as regular files',
    });
  }
  return stats;
}

/** Refuses a symbolic link at `path`; returns whether a file exists there. */
export async function assertNotSymlink(path: string): Promise<boolean> {
  return privateFileStats(path) !== undefined;
}

/**
 * Reads a private file, tightening its mode if it is looser than 0600. Returns undefined when
 * the file does not exist.
 */
export async function readPrivateFile(path: string): Promise<string | undefined> {
  const stats = privateFileStats(path);
  if (stats === undefined) return undefined;
  if (POSIX_MODES && (stats.mode & 0o077) !== 0) chmodSync(path, FILE_MODE);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw error;
  }
}

/** Clears the read-only attribute of the file at `path` (Windows), if there is one. */
function clearReadOnly(path: string): void {
  try {
    chmodSync(path, FILE_MODE);
  } catch (error) {
    if (!isErrno(error, 'ENOENT')) throw error;
  }
}

/** Writes `data` atomically as a 0600 file in a 0700 directory. */
export async function writePrivateFileAtomic(path: string, data: string): Promise<void> {
  await ensurePrivateDir(dirname(path));
  await assertNotSymlink(path);
  const temp = `${path}.${uniqueSuffix()}.tmp`;
  // O_EXCL: never follow or reuse something already at the temporary name.
  const fd = openSync(temp, 'wx', FILE_MODE);
  try {
    writeFileSync(fd, data, 'utf8');
    fchmodSync(fd, FILE_MODE); // the umask may have masked bits off, never on; be explicit
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    // Windows refuses to rename over a file marked read-only (EPERM), which POSIX replaces as its
    // directory allows; the attribute goes first, so a write does the same everywhere. (Reads leave
    // the attribute alone since they stopped tightening modes there.)
    if (!POSIX_MODES) clearReadOnly(path);
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // never created or already gone
    }
    throw error;
  }
}
