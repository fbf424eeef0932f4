/**
 * The single executable's native addon loader (src/sea/native-addon.ts), with a fake addon and a
 * fake dlopen: the file is written once, named by its hash, verified, and never loaded from a
 * directory or file someone else could have put there.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  AddonFileError,
  addonFile,
  type Dlopen,
  loadAddon,
  loadAddonAnywhere,
  removeLeftTempDirs,
} from '../../src/sea/native-addon.js';
import { tempDir } from '../helpers/cli.js';
import { expectMode } from '../helpers/file-modes.js';

const bytes = new TextEncoder().encode('\x7fELF a fake addon');
const hash = createHash('sha256').update(bytes).digest('hex');
const posix = process.platform !== 'win32';
const builtModule = resolve(import.meta.dirname, '../../dist/sea/native-addon.js');

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
    expectMode(dir, 0o700);
    expectMode(loaded[0] ?? '', 0o600);
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

  test("a killed writer's partial file is removed once abandoned, never a writer's at work", () => {
    const dir = join(tempDir(), 'native');
    mkdirSync(dir, { mode: 0o700 });
    // Named as the writer names them (src/fs/unique-name.ts): <file>.<pid>.<time>.<n>.<random>.tmp.
    const abandoned = join(dir, `${hash}.node.${process.ppid}.k1.1.aaaaaa.tmp`);
    const atWork = join(dir, `${hash}.node.${process.ppid}.k2.1.bbbbbb.tmp`);
    writeFileSync(abandoned, '\x7fELF half');
    writeFileSync(atWork, '\x7fELF half');
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(abandoned, twoMinutesAgo, twoMinutesAgo);
    addonFile({ bytes, dir });
    expect(readdirSync(dir).sort()).toEqual([basename(atWork), `${hash}.node`].sort());
  });

  test("a killed writer's partial file goes too when another run finished the addon meanwhile", () => {
    const dir = join(tempDir(), 'native');
    mkdirSync(dir, { mode: 0o700 });
    addonFile({ bytes, dir });
    const abandoned = join(dir, `${hash}.node.${process.ppid}.k1.1.aaaaaa.tmp`);
    writeFileSync(abandoned, '\x7fELF half');
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(abandoned, twoMinutesAgo, twoMinutesAgo);
    addonFile({ bytes, dir });
    expect(readdirSync(dir)).toEqual([`${hash}.node`]);
  });

  test('other addons’ copies (other releases’) are handed to the launcher’s pruning, keeping one, when one is written', () => {
    // The rule itself is the launcher's (bin/tokencli.js removeAllButLatest), seen applied to its
    // code caches (test/e2e/code-cache.test.ts); only the macOS and Windows executables carry an
    // addon, so only their runners see it applied to addons.
    const dir = join(tempDir(), 'native');
    mkdirSync(dir, { mode: 0o700 });
    const copies = { older: 'a'.repeat(64), newer: 'b'.repeat(64) };
    writeFileSync(join(dir, `${copies.older}.node`), 'an older release’s addon');
    utimesSync(join(dir, `${copies.older}.node`), 1_000_000, 1_000_000);
    writeFileSync(join(dir, `${copies.newer}.node`), 'the release in use beside this one');
    utimesSync(join(dir, `${copies.newer}.node`), 2_000_000, 2_000_000);
    writeFileSync(join(dir, 'notes.txt'), 'not a copy');
    mkdirSync(join(dir, `${'c'.repeat(64)}.node`));
    const pruned: { others: { path: string; written: number }[]; kept: number }[] = [];
    const removeAllButLatest = (others: { path: string; written: number }[], kept: number) => {
      pruned.push({ others, kept });
    };
    addonFile({ bytes, dir, removeAllButLatest });
    expect(pruned).toHaveLength(1);
    expect(pruned[0]?.kept).toBe(1);
    expect([...(pruned[0]?.others ?? [])].sort((a, b) => a.written - b.written)).toEqual([
      { path: join(dir, `${copies.older}.node`), written: 1_000_000_000 },
      { path: join(dir, `${copies.newer}.node`), written: 2_000_000_000 },
    ]);
    // Found in place, nothing is written and nothing is pruned.
    addonFile({ bytes, dir, removeAllButLatest });
    expect(pruned).toHaveLength(1);
    // Without the launcher's rule (a temporary directory of the run's own), none are looked for.
    rmSync(join(dir, `${hash}.node`));
    addonFile({ bytes, dir });
    expect(readdirSync(dir)).toHaveLength(5);
  });

  test('the temporary directories earlier runs left (a loaded DLL stays on Windows) go, but a fresh one, a link or another name stays', () => {
    const tmp = tempDir();
    const now = Date.now();
    const old = (path: string) => utimesSync(path, (now - 120_000) / 1000, (now - 120_000) / 1000);
    // Named by node's mkdtemp, as the fallback names them.
    const left = mkdtempSync(join(tmp, 'tokencli-native-'));
    writeFileSync(join(left, `${hash}.node`), bytes);
    old(left);
    const fresh = mkdtempSync(join(tmp, 'tokencli-native-'));
    const elsewhere = join(tempDir(), 'not-tokencli');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'keep.txt'), 'not ours');
    old(elsewhere);
    const others = ['tokencli-native-toolong1', 'another-a1B2c3', 'tokencli-native-g7H8i9'];
    for (const name of others.slice(0, 2)) {
      mkdirSync(join(tmp, name));
      old(join(tmp, name));
    }
    writeFileSync(join(tmp, others[2] ?? ''), 'a file of that name');
    old(join(tmp, others[2] ?? ''));
    // A link, or on Windows a junction (no privilege needed), to an old directory elsewhere.
    symlinkSync(elsewhere, join(tmp, 'tokencli-native-j0K1l2'), posix ? 'dir' : 'junction');
    expect(removeLeftTempDirs(tmp, now)).toEqual([left]);
    expect(readdirSync(tmp).sort()).toEqual(
      [fresh, ...others, 'tokencli-native-j0K1l2'].map((name) => basename(name)).sort(),
    );
    expect(readdirSync(elsewhere)).toEqual(['keep.txt']);
    expect(removeLeftTempDirs(join(tmp, 'missing'), now)).toEqual([]);
  });

  test.runIf(posix)(
    'a symbolic link under the name is replaced, never followed (skipped on Windows: making a symbolic link needs a privilege there)',
    () => {
      const dir = join(tempDir(), 'native');
      mkdirSync(dir, { mode: 0o700 });
      const elsewhere = join(tempDir(), 'other.node');
      writeFileSync(elsewhere, bytes);
      symlinkSync(elsewhere, join(dir, `${hash}.node`));
      const path = addonFile({ bytes, dir });
      expect(statSync(path).isFile()).toBe(true);
      expect(readFileSync(elsewhere)).toEqual(Buffer.from(bytes));
      expect(readdirSync(dir)).toEqual([`${hash}.node`]);
    },
  );

  test.runIf(posix)(
    'a directory other users may enter is refused, and nothing is loaded (skipped on Windows: no POSIX modes; the profile’s ACL guards it)',
    () => {
      const dir = join(tempDir(), 'native');
      mkdirSync(dir);
      chmodSync(dir, 0o755);
      const loaded: string[] = [];
      expect(() => loadAddon({ bytes, dir }, fakeDlopen(loaded))).toThrow(AddonFileError);
      expect(() => loadAddon({ bytes, dir }, fakeDlopen(loaded))).toThrow(/open to other users \(mode 755\)/);
      expect(loaded).toEqual([]);
      expect(readdirSync(dir)).toEqual([]);
    },
  );

  // Runs the built module (npm test builds first) in a child whose file size limit is 8 blocks.
  test.runIf(posix && existsSync(builtModule))(
    'a write cut short (a file size limit, a full disk) fails with its reason and leaves nothing (skipped on Windows: it sets the limit with sh’s ulimit)',
    () => {
      const dir = join(tempDir(), 'native');
      const script = [
        `import { addonFile } from ${JSON.stringify(pathToFileURL(builtModule).href)};`,
        'try { addonFile({ bytes: new Uint8Array(65536).fill(7), dir: process.argv[1] }); console.log("written"); }',
        'catch (error) { console.log(error.code ?? error.message); }',
      ].join('\n');
      const run = spawnSync(
        'sh',
        ['-c', 'ulimit -f 8 && exec "$0" --input-type=module -e "$1" "$2"', process.execPath, script, dir],
        { encoding: 'utf8' },
      );
      expect(run.stdout, run.stderr).toBe('EFBIG\n');
      expect(readdirSync(dir)).toEqual([]);
    },
  );

  test.runIf(posix)(
    'a symbolic link in place of the directory is refused (skipped on Windows: making a symbolic link needs a privilege there)',
    () => {
      const real = tempDir();
      chmodSync(real, 0o700);
      const dir = join(tempDir(), 'native');
      symlinkSync(real, dir);
      expect(() => addonFile({ bytes, dir })).toThrow(/is not a directory/);
      expect(readdirSync(real)).toEqual([]);
    },
  );
});

describe('the executable native addon, wherever it can be loaded', () => {
  /** The addon's temporary directories in `tmp` (the test's own temporary directories go there too). */
  const leftIn = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith('tokencli-native-'));

  /**
   * Runs with the temporary directory set to one of the test's own, to see what is left in it:
   * TMPDIR on POSIX, TEMP and TMP on Windows (os.tmpdir() reads them on every call).
   */
  function withTmp<T>(run: (tmp: string) => T): T {
    const tmp = tempDir();
    const names = ['TMPDIR', 'TEMP', 'TMP'] as const;
    const saved = names.map((name) => process.env[name]);
    for (const name of names) process.env[name] = tmp;
    try {
      return run(tmp);
    } finally {
      names.forEach((name, i) => {
        const value = saved[i];
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      });
    }
  }

  test('from the cache directory when it can be used, kept there', () => {
    withTmp((tmp) => {
      const dir = join(tempDir(), 'native');
      const loaded: string[] = [];
      expect(loadAddonAnywhere(bytes, { dir }, fakeDlopen(loaded))).toEqual({
        contents: '\x7fELF a fake addon',
      });
      expect(loaded).toEqual([join(dir, `${hash}.node`)]);
      expect(leftIn(tmp)).toEqual([]);
    });
  });

  test.runIf(posix)(
    'a cache directory that cannot be used (open to others, a file, refusing to load) costs a temporary one, removed at once (skipped on Windows: no POSIX modes to open a directory to others)',
    () => {
      withTmp((tmp) => {
        const open = join(tempDir(), 'native');
        mkdirSync(open);
        chmodSync(open, 0o755);
        const file = join(tempDir(), 'a-file');
        writeFileSync(file, '');
        const loaded: string[] = [];
        for (const dir of [open, join(file, 'native')]) {
          expect(loadAddonAnywhere(bytes, { dir }, fakeDlopen(loaded))).toEqual({
            contents: '\x7fELF a fake addon',
          });
          expect(loaded.at(-1)).toMatch(new RegExp(`^${tmp}/tokencli-native-\\w+/${hash}\\.node$`));
        }
        expect(readdirSync(open)).toEqual([]);
        // A mount that runs nothing: the file is written, dlopen refuses it.
        const noexec = join(tempDir(), 'native');
        const refusing: Dlopen = (addon, filename) => {
          if (filename.startsWith(noexec))
            throw new Error(`${filename}: failed to map segment from shared object`);
          fakeDlopen(loaded)(addon, filename);
        };
        expect(loadAddonAnywhere(bytes, { dir: noexec }, refusing)).toEqual({
          contents: '\x7fELF a fake addon',
        });
        expect(leftIn(tmp)).toEqual([]);
      });
    },
  );

  test('without a cache directory, a temporary one, left behind by no run', () => {
    withTmp((tmp) => {
      const loaded: string[] = [];
      expect(loadAddonAnywhere(bytes, undefined, fakeDlopen(loaded))).toEqual({
        contents: '\x7fELF a fake addon',
      });
      expect(loaded).toHaveLength(1);
      if (posix) expect(leftIn(tmp)).toEqual([]);
    });
  });

  test('where neither place works, the error names both and why', () => {
    withTmp((tmp) => {
      const dir = join(tempDir(), 'native');
      const failing: Dlopen = () => {
        throw new Error('cannot open shared object file: Permission denied');
      };
      expect(() => loadAddonAnywhere(bytes, { dir }, failing)).toThrow(
        `cannot load the native module from ${dir} (cannot open shared object file: Permission denied) nor from a temporary directory in ${tmp} (cannot open shared object file: Permission denied)`,
      );
      if (posix) expect(leftIn(tmp)).toEqual([]);
    });
  });
});
