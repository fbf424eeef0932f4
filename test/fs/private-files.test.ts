/**
 * Where private files' modes are tightened: on platforms that keep POSIX modes. On Windows a
 * chmod would only clear a read-only attribute at every read (src/fs/private-files.ts).
 */
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { keepsPosixModes, readPrivateFile } from '../../src/fs/private-files.js';
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
});
