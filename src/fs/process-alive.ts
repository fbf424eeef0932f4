/**
 * Whether a process with this id exists on this machine, as the removers of what a dead process
 * left behind ask it (its temporary files here; the release build's training directories).
 * EPERM: it exists, owned by someone else. An id that is no positive integer names no process.
 */
export function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
