/**
 * scripts/left-dirs.mjs: a directory named by its process's id in a shared temporary directory,
 * and the sweep that removes those a stopped process left, and nothing else. The release build's
 * use of it is tested end to end in test/release/train-code-cache.test.ts; the tests' own, through
 * tempDirInSystemTmp(), is what test/build.test.ts and test/release/install-script.test.ts run on.
 */
import { spawnSync } from 'node:child_process';
import {
  chownSync,
  lutimesSync,
  mkdirSync,
  readdirSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { expect, test } from 'vitest';
import { makeDirOfThisProcess, removeLeftDirs } from '../scripts/left-dirs.mjs';
import { tempDir } from './helpers/temp-dirs.js';

const posix = process.platform !== 'win32';
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);

test.runIf(posix)(
  'removes only this user’s directories of its prefix, over an hour old, whose process no longer runs (skipped on Windows: symbolic links need rights there)',
  () => {
    const parent = tempDir('tokencli-left-dirs-');
    const ended = spawnSync('true').pid;
    // name → its age, and whether the sweep removes it
    const planted: [string, Date, boolean][] = [
      [`tokencli-a-${ended}-AbC123`, hoursAgo(2), true],
      // Its process may run unseen, in a container sharing /tmp.
      [`tokencli-a-${ended}-AbC124`, hoursAgo(0.5), false],
      [`tokencli-a-${process.pid}-DeF456`, hoursAgo(2), false],
      // From before the names held an id.
      ['tokencli-a-GhI789', hoursAgo(2), true],
      ['tokencli-a-GhI780', hoursAgo(0.5), false],
      // Another maker's prefix, and one this prefix begins.
      [`tokencli-b-${ended}-JkL012`, hoursAgo(2), false],
      [`tokencli-ab-${ended}-MnO345`, hoursAgo(2), false],
    ];
    for (const [name, age] of planted) {
      mkdirSync(join(parent, name, 'inner'), { recursive: true });
      utimesSync(join(parent, name), age, age);
    }
    // Another user's, where this run may give it one (as root, as in CI).
    const others = `tokencli-a-${ended}-YzA567`;
    if (process.getuid?.() === 0) {
      mkdirSync(join(parent, others));
      chownSync(join(parent, others), 65534, 65534);
      utimesSync(join(parent, others), hoursAgo(2), hoursAgo(2));
    }
    // Not directories: a file and a link to an old directory elsewhere, of leftovers' names.
    const file = join(parent, `tokencli-a-${ended}-PqR678`);
    writeFileSync(file, '');
    utimesSync(file, hoursAgo(2), hoursAgo(2));
    const elsewhere = join(tempDir('tokencli-left-dirs-target-'), 'old');
    mkdirSync(join(elsewhere, 'inner'), { recursive: true });
    utimesSync(elsewhere, hoursAgo(2), hoursAgo(2));
    const link = join(parent, `tokencli-a-${ended}-StU901`);
    symlinkSync(elsewhere, link);
    lutimesSync(link, hoursAgo(2), hoursAgo(2));

    removeLeftDirs('tokencli-a-', parent);

    expect(readdirSync(parent).sort()).toEqual(
      [
        ...planted.filter(([, , removed]) => !removed).map(([name]) => name),
        `tokencli-a-${ended}-PqR678`,
        `tokencli-a-${ended}-StU901`,
        ...(process.getuid?.() === 0 ? [others] : []),
      ].sort(),
    );
    expect(readdirSync(elsewhere)).toEqual(['inner']);
  },
);

test('a new directory carries this process’s id, is private, and is made after the sweep', () => {
  const parent = tempDir('tokencli-left-dirs-');
  const ended = spawnSync(process.execPath, ['-e', '']).pid;
  const left = join(parent, `tokencli-a-${ended}-VwX234`);
  mkdirSync(left);
  utimesSync(left, hoursAgo(2), hoursAgo(2));

  const dir = makeDirOfThisProcess('tokencli-a-', parent);

  expect(basename(dir)).toMatch(new RegExp(`^tokencli-a-${process.pid}-\\w{6}$`));
  if (posix) expect(statSync(dir).mode & 0o777).toBe(0o700);
  expect(readdirSync(parent)).toEqual([basename(dir)]);
});

test('a parent that is not there is no error', () => {
  expect(() => removeLeftDirs('tokencli-a-', join(tempDir('tokencli-left-dirs-'), 'gone'))).not.toThrow();
});
