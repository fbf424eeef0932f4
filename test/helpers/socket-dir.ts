/**
 * Where a test puts a Unix socket it listens on or connects to (a fake D-Bus session bus). A
 * socket's path must fit in sun_path: 108 bytes on Linux, 104 on macOS, the final NUL included.
 * macOS's temporary directory is already long (/var/folders/xx/<random>/T/), and the run's own
 * below it (test/setup/private-tmpdir.ts) and a test's below that leave too little room there:
 * listen fails (EINVAL) and connect reports ENAMETOOLONG rather than what the test is about. Where
 * a path under the temporary directory would not fit, the directory is made in /tmp instead. The
 * limit is macOS's everywhere, so that a run on Linux meets the same choice a run on macOS does.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tempDir } from './temp-dirs.js';

/** The longest socket path, in bytes, that every platform the suite runs on accepts (macOS's). */
export const SOCKET_PATH_MAX = 103;

/** The longest name a test may give a socket in a {@link socketDir}. */
export const SOCKET_NAME_MAX = 16;

/** mkdtemp's random suffix. */
const SUFFIX = 'XXXXXX';

/**
 * The parent for a socket directory named `<prefix>XXXXXX`: `temp` when every socket path in it
 * fits, else /tmp (POSIX always has it, and its own path is short). Windows has no socket paths to
 * keep short (node listens on named pipes there), and no /tmp: `temp` there.
 */
export function socketParent(
  prefix: string,
  temp: string = tmpdir(),
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') return temp;
  const longest = join(temp, `${prefix}${SUFFIX}`, 'x'.repeat(SOCKET_NAME_MAX));
  return Buffer.byteLength(longest) <= SOCKET_PATH_MAX ? temp : '/tmp';
}

/**
 * A new directory for a test's sockets, each named in at most {@link SOCKET_NAME_MAX} bytes;
 * removed after the test file, like every tempDir.
 */
export function socketDir(prefix = 'tokencli-sock-'): string {
  return tempDir(prefix, socketParent(prefix));
}

/** A path for a socket called `name` in a new {@link socketDir}. */
export function socketPath(name: string, prefix?: string): string {
  if (Buffer.byteLength(name) > SOCKET_NAME_MAX)
    throw new Error(`socketPath: "${name}" is longer than ${SOCKET_NAME_MAX} bytes`);
  return join(socketDir(prefix), name);
}
