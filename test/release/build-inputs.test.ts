/**
 * What the release build takes from where it runs, short of building: the time it dates the
 * archive's entries by (scripts/release/entry-time.mjs) — SOURCE_DATE_EPOCH, refused unless whole
 * seconds; else the checkout's own commit, not that of a repository above it, and one another
 * user owns too; else none, with why — and a checkout with no `npm run build` behind it, which
 * build-release.mjs and build-sea.mjs refuse in one line before they remove anything
 * (scripts/release/built.mjs).
 */
import { spawnSync } from 'node:child_process';
import { chownSync, cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { entryTime } from '../../scripts/release/entry-time.mjs';
import { tempDir } from '../helpers/temp-dirs.js';

const root = resolve(import.meta.dirname, '../..');
const COMMITTED = 1600000000;

function git(cwd: string, ...args: string[]) {
  const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_DATE: `@${COMMITTED} +0000`,
      GIT_COMMITTER_DATE: `@${COMMITTED} +0000`,
    },
  });
  expect(run.status, run.stderr).toBe(0);
}

/** A repository with one commit, made at COMMITTED, holding `tree/file` in a directory of its own. */
function repository(): string {
  const dir = tempDir('tokencli-dated-');
  git(dir, 'init', '-q');
  mkdirSync(join(dir, 'tree'));
  writeFileSync(join(dir, 'tree', 'file'), 'x\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'one');
  return dir;
}

/** The environment without SOURCE_DATE_EPOCH, as most builds run. */
function unset(): NodeJS.ProcessEnv {
  const { SOURCE_DATE_EPOCH: _, ...env } = process.env;
  return env;
}

describe('the time the archive is dated by', () => {
  test('SOURCE_DATE_EPOCH when set, over the commit', async () => {
    expect(await entryTime(repository(), { ...unset(), SOURCE_DATE_EPOCH: '1700000000' })).toEqual({
      seconds: 1700000000,
    });
  });

  test.each(['yesterday', '1.5', '-1', ' 1700000000', '１７００'])(
    'SOURCE_DATE_EPOCH=%j is refused in one line',
    async (value) => {
      await expect(entryTime(repository(), { ...unset(), SOURCE_DATE_EPOCH: value })).rejects.toThrow(
        `SOURCE_DATE_EPOCH must be whole seconds since 1970 (as \`date +%s\` prints), not ${JSON.stringify(value)}`,
      );
    },
  );

  test("the checkout's commit", async () => {
    expect(await entryTime(repository(), unset())).toEqual({ seconds: COMMITTED });
  });

  test('a tree with no .git inside another repository has no commit of its own', async () => {
    const dated = await entryTime(join(repository(), 'tree'), unset());
    expect(dated.seconds).toBeUndefined();
    expect(dated.why).toMatch(/^fatal: not a git repository/);
  });

  test('no git: none, and why', async () => {
    expect(await entryTime(repository(), { ...unset(), PATH: tempDir('tokencli-no-git-') })).toEqual({
      why: 'git is not installed',
    });
  });

  // git refuses a repository another user owns unless told it is safe; only root can make one.
  test.skipIf(process.getuid?.() !== 0)("another user's checkout (needs root to give it away)", async () => {
    const dir = repository();
    const own = (path: string) => {
      chownSync(path, 65534, 65534);
      for (const entry of readdirSync(path, { withFileTypes: true }))
        if (entry.isDirectory()) own(join(path, entry.name));
        else chownSync(join(path, entry.name), 65534, 65534);
    };
    own(dir);
    expect(spawnSync('git', ['log', '-1'], { cwd: dir, encoding: 'utf8' }).stderr).toContain(
      'dubious ownership',
    );
    expect(await entryTime(dir, unset())).toEqual({ seconds: COMMITTED });
  });
});

describe('a checkout not yet built', () => {
  /** This checkout's scripts and package.json with no dist/ and no node_modules; release/ holds an earlier build's file. */
  function unbuilt(): string {
    const dir = tempDir('tokencli-unbuilt-');
    cpSync(join(root, 'scripts'), join(dir, 'scripts'), { recursive: true });
    cpSync(join(root, 'package.json'), join(dir, 'package.json'));
    mkdirSync(join(dir, 'release'));
    writeFileSync(join(dir, 'release', 'SHA256SUMS'), 'an earlier build\n');
    return dir;
  }

  test.each([
    ['build-release.mjs', 'build-release'],
    ['build-sea.mjs', 'build-sea'],
  ])('%s says to build first, in one line, and removes nothing', (script, name) => {
    const dir = unbuilt();
    const run = spawnSync(process.execPath, [join(dir, 'scripts', 'release', script)], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `${name}: dist/index.js is missing: run \`npm run build\` first (\`npm run build:release\` runs both)\n`,
    );
    expect(existsSync(join(dir, 'release', 'SHA256SUMS'))).toBe(true);
    expect(existsSync(join(dir, '.tmp'))).toBe(false);
  });
});
