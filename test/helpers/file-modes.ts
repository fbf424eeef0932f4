/**
 * The permission bits tokencli gives its private files (0600 files in 0700 directories), as the
 * tests check them. Windows keeps no POSIX modes: stat reports 0o666 (0o444 when read-only) for
 * every file, and a directory's bits mean nothing. There the ACL of the user's profile, where
 * tokencli keeps its files, is what keeps other users out, so nothing is asserted about modes.
 */
import { statSync } from 'node:fs';
import { expect } from 'vitest';
import { keepsPosixModes } from '../../src/fs/private-files.js';

// The platforms whose modes the tests check are those where tokencli keeps them.
export { keepsPosixModes };

/** Expects `path`'s permission bits to be `mode` (e.g. 0o600) where the platform keeps them. */
export function expectMode(path: string, mode: number, platform: NodeJS.Platform = process.platform): void {
  if (!keepsPosixModes(platform)) return;
  // In octal, as ls and chmod spell them, so that a failure reads 600 against 644.
  expect((statSync(path).mode & 0o777).toString(8), `the mode of ${path}`).toBe(mode.toString(8));
}
