/**
 * Files that hold configuration or secrets: 0600 files in 0700 directories whatever the umask,
 * written to a temporary file and renamed so a crash never leaves half a file, and never through
 * a symbolic link an attacker could have planted (SPEC.md §2.7).
 */
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ExitCode, TokencliError } from '../errors.js';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

function isErrno(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === code;
}

/** Creates the directory (and parents) as 0700, or tightens an existing one that is looser. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
  const stats = await lstat(dir);
  if (stats.isSymbolicLink()) {
    throw new TokencliError(`refusing to use ${dir}: it is a symbolic link`, {
      exitCode: ExitCode.usage,
      hint: 'remove the link or point TOKENCLI_CONFIG_DIR at a real directory',
    });
  }
  // mkdir's mode is filtered by the umask, and an existing directory keeps its mode: fix both.
  if ((stats.mode & 0o777) !== DIR_MODE) await chmod(dir, DIR_MODE);
}

/** Refuses a symbolic link at `path`; returns whether a file exists there. */
export async function assertNotSymlink(path: string): Promise<boolean> {
  try {
    const stats = await lstat(path);
    if (stats.isSymbolicLink()) {
      throw new TokencliError(`refusing to use ${path}: it is a symbolic link`, {
        exitCode: ExitCode.usage,
        hint: 'remove the link; tokencli keeps its files as regular files',
      });
    }
    return true;
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return false;
    throw error;
  }
}

/**
 * Reads a private file, tightening its mode if it is looser than 0600. Returns undefined when
 * the file does not exist.
 */
export async function readPrivateFile(path: string): Promise<string | undefined> {
  if (!(await assertNotSymlink(path))) return undefined;
  const stats = await lstat(path);
  if ((stats.mode & 0o077) !== 0) await chmod(path, FILE_MODE);
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw error;
  }
}

/** Writes `data` atomically as a 0600 file in a 0700 directory. */
export async function writePrivateFileAtomic(path: string, data: string): Promise<void> {
  await ensurePrivateDir(dirname(path));
  await assertNotSymlink(path);
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  // O_EXCL: never follow or reuse something already at the temporary name.
  const handle = await open(temp, 'wx', FILE_MODE);
  try {
    await handle.writeFile(data, 'utf8');
    await handle.chmod(FILE_MODE); // the umask may have masked bits off, never on; be explicit
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
}
