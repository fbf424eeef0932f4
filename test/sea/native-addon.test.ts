/**
 * The single executable's native addon loader (src/sea/native-addon.ts), with a fake addon and a
 * fake dlopen: the file is written once, named by its hash, verified, and never loaded from a
 * directory or file someone else could have put there.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AddonFileError, addonFile, type Dlopen, loadAddon } from '../../src/sea/native-addon.js';
import { tempDir } from '../helpers/cli.js';

const bytes = new TextEncoder().encode('\x7fELF a fake addon');
const hash = createHash('sha256').update(bytes).digest('hex');
const posix = process.platform !== 'win32';

/** A dlopen that records the file it was given and exports what that file holds. */
function fakeDlopen(loaded: string[]): Dlopen {
  return (addon, filename) => {
    loaded.push(filename);
    addon.exports = { contents: readFileSync(filename, 'utf8') };
  };
}

describe('the executable native addon', () => {
  test('written once into a private directory under its SHA-256, then loaded from there', () => {
    const dir = join(tempDir(), 'native');
    const loaded: string[] = [];
    expect(loadAddon({ bytes, dir }, fakeDlopen(loaded))).toEqual({ contents: '\x7fELF a fake addon' });
    expect(loaded).toEqual([join(dir, `${hash}.node`)]);
    expect(readdirSync(dir)).toEqual([`${hash}.node`]);
    if (posix) {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(loaded[0] ?? '').mode & 0o777).toBe(0o600);
    }
    const written = statSync(loaded[0] ?? '').mtimeMs;
    loadAddon({ bytes, dir }, fakeDlopen(loaded));
    expect(statSync(loaded[1] ?? '').mtimeMs).toBe(written);
  });

  test('a file under the name with other bytes is replaced before it is loaded', () => {
    const dir = join(tempDir(), 'native');
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, `${hash}.node`), 'tampered');
    const loaded: string[] = [];
    expect(loadAddon({ bytes, dir }, fakeDlopen(loaded))).toEqual({ contents: '\x7fELF a fake addon' });
    expect(readdirSync(dir)).toEqual([`${hash}.node`]);
  });

  test.runIf(posix)('a symbolic link under the name is replaced, never followed', () => {
    const dir = join(tempDir(), 'native');
    mkdirSync(dir, { mode: 0o700 });
    const elsewhere = join(tempDir(), 'other.node');
    writeFileSync(elsewhere, bytes);
    symlinkSync(elsewhere, join(dir, `${hash}.node`));
    const path = addonFile({ bytes, dir });
    expect(statSync(path).isFile()).toBe(true);
    expect(readFileSync(elsewhere)).toEqual(Buffer.from(bytes));
    expect(readdirSync(dir)).toEqual([`${hash}.node`]);
  });

  test.runIf(posix)('a directory other users may enter is refused, and nothing is loaded', () => {
    const dir = join(tempDir(), 'native');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    const loaded: string[] = [];
    expect(() => loadAddon({ bytes, dir }, fakeDlopen(loaded))).toThrow(AddonFileError);
    expect(() => loadAddon({ bytes, dir }, fakeDlopen(loaded))).toThrow(/open to other users \(mode 755\)/);
    expect(loaded).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  test.runIf(posix)('a symbolic link in place of the directory is refused', () => {
    const real = tempDir();
    chmodSync(real, 0o700);
    const dir = join(tempDir(), 'native');
    symlinkSync(real, dir);
    expect(() => addonFile({ bytes, dir })).toThrow(/is not a directory/);
    expect(readdirSync(real)).toEqual([]);
  });
});
