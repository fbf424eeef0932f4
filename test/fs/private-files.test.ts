/**
 * Where private files' modes are tightened: on platforms that keep POSIX modes. On Windows a
 * chmod would only clear a read-only attribute at every read (src/fs/private-files.ts); a write
 * replaces a read-only file there as it does on POSIX.
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { keepsPosixModes, readPrivateFile, writePrivateFileAtomic } from '../../src/fs/private-files.js';
import { tempDir } from '../helpers/cli.js';

describe('private files', () => {
  test('POSIX modes are kept, and tightened, everywhere but Windows', () => {
    expect(keepsPosixModes('linux')).toBe(true);
    expect(keepsPosixModes('darwin')).toBe(true);
    expect(keepsPosixModes('freebsd')).toBe(true);
    expect(keepsPosixModes('win32')).toBe(false);
  });

  test.runIf(keepsPosixModes())(
    `a file open to others is tightened to 0600 when read${keepsPosixModes() ? '' : ' (skipped on Windows: no POSIX modes)'}`,
    async () => {
      const dir = join(tempDir('tokencli-private-files-'), 'config');
      mkdirSync(dir, { mode: 0o700 });
      const file = join(dir, 'credentials.json');
      writeFileSync(file, '{}');
      chmodSync(file, 0o644);
      expect(await readPrivateFile(file)).toBe('{}');
      expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    },
  );

  test('a file marked read-only is replaced by a write, as POSIX replaces it everywhere', async () => {
    // On Windows the attribute made the rename fail (EPERM), reported as an internal error.
    const dir = join(tempDir('tokencli-private-files-'), 'config');
    mkdirSync(dir, { mode: 0o700 });
    const file = join(dir, 'credentials.json');
    writeFileSync(file, '{"old":true}', { mode: 0o600 });
    chmodSync(file, 0o400);
    await writePrivateFileAtomic(file, '{"new":true}');
    expect(readFileSync(file, 'utf8')).toBe('{"new":true}');
    expect(readdirSync(dir)).toEqual(['credentials.json']);
  });
});
