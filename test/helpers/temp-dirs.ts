/** Temporary directories for one test file, removed after it by test/setup/remove-temp-dirs.ts. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const created: string[] = [];

/** A new directory `<parent>/<prefix>XXXXXX` that nothing removes for the caller. */
export function unregisteredTempDir(parent: string, prefix: string): string {
  return mkdtempSync(join(parent, prefix));
}

/** A new directory `<parent>/<prefix>XXXXXX`, removed after the test file (test/setup/remove-temp-dirs.ts). */
export function tempDir(prefix: string, parent = tmpdir()): string {
  return removedAfterFile(unregisteredTempDir(parent, prefix));
}

/**
 * A new directory in /tmp itself, removed after the test file as {@link tempDir}'s are, for a test
 * that runs something as another user (nobody, when the suite runs as root), to whom this run's
 * own temporary directory is closed. It is named by this process's id, so that a later run
 * removes one that a run stopped part-way left (scripts/left-dirs.mjs, loaded only here: it needs
 * the build).
 */
export async function tempDirInSystemTmp(prefix: string): Promise<string> {
  const { makeDirOfThisProcess } = await import('../../scripts/left-dirs.mjs');
  return removedAfterFile(makeDirOfThisProcess(prefix, '/tmp'));
}

function removedAfterFile(dir: string): string {
  created.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}
