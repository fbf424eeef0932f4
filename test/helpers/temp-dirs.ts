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

/** `dir`, made by the caller, removed after the test file as {@link tempDir}'s are. */
export function removedAfterFile(dir: string): string {
  created.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}
