import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { expectMode, keepsPosixModes } from './file-modes.js';
import { removeTempDirs, tempDir } from './temp-dirs.js';

afterAll(removeTempDirs);

// The file's own mode, whatever this platform made it, so that both branches run everywhere.
function someFile(): { path: string; mode: number } {
  const path = join(tempDir('tokencli-modes-'), 'file');
  writeFileSync(path, '');
  return { path, mode: statSync(path).mode & 0o777 };
}

test('on POSIX the mode is asserted', () => {
  const { path, mode } = someFile();
  expect(keepsPosixModes('linux')).toBe(true);
  expect(keepsPosixModes('darwin')).toBe(true);
  expectMode(path, mode, 'linux');
  expect(() => expectMode(path, mode ^ 0o077, 'linux')).toThrow(/the mode of .*file/);
  expect(() => expectMode(join(path, '..', 'missing'), mode, 'darwin')).toThrow(/ENOENT/);
});

test('on Windows nothing is asserted about modes', () => {
  const { path, mode } = someFile();
  expect(keepsPosixModes('win32')).toBe(false);
  expectMode(path, mode ^ 0o077, 'win32');
  expectMode(join(path, '..', 'missing'), 0o600, 'win32');
});
