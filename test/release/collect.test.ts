/**
 * The release workflow's collection of the build jobs' files (scripts/release/collect.mjs) over a
 * fake download of the five jobs' artifacts: the upload gets every platform's archive, the linux-x64
 * job's npm tarball alone, install.sh and one SHA256SUMS that `sha256sum -c` accepts; a file that
 * does not match its job's SHA256SUMS, or no npm tarball, is refused in one line naming it, and
 * nothing is signed off.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writeSums } from '../helpers/release-server.js';
import { tempDir } from '../helpers/temp-dirs.js';

const root = resolve(import.meta.dirname, '../..');
const script = join(root, 'scripts/release/collect.mjs');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const hasSha256sum = spawnSync('sh', ['-c', 'command -v sha256sum'], { encoding: 'utf8' }).status === 0;

/** Each job's release/ as build-release.mjs leaves it: its archive, the npm tarball, SHA256SUMS. */
const JOBS = {
  'release-linux-x64': `tokencli-${version}-linux-x64.tar.gz`,
  'release-linux-arm64': `tokencli-${version}-linux-arm64.tar.gz`,
  'release-darwin-arm64': `tokencli-${version}-darwin-arm64.tar.gz`,
  'release-darwin-x64': `tokencli-${version}-darwin-x64.tar.gz`,
  'release-win-x64': `tokencli-${version}-win-x64.zip`,
};

/** The artifacts download: one directory per job, each file's bytes naming its job. */
function artifacts(): string {
  const dir = tempDir('tokencli-artifacts-');
  for (const [job, archive] of Object.entries(JOBS)) {
    mkdirSync(join(dir, job));
    writeFileSync(join(dir, job, archive), `${archive} from ${job}\n`);
    writeFileSync(join(dir, job, `tokencli-${version}.tgz`), `the npm tarball from ${job}\n`);
    writeSums(join(dir, job));
  }
  return dir;
}

function collect(from: string) {
  const out = join(tempDir('tokencli-upload-'), 'upload');
  const run = spawnSync(process.execPath, [script, from, out], { encoding: 'utf8' });
  return { ...run, out };
}

/** A refusal: exit 1, this one line, and no SHA256SUMS written over the upload. */
function expectRefused(run: ReturnType<typeof collect>, line: string) {
  expect(run.status, run.stderr).toBe(1);
  expect(run.stderr).toBe(`collect: ${line}\n`);
  expect(existsSync(join(run.out, 'SHA256SUMS'))).toBe(false);
}

describe('collect.mjs', () => {
  test("every archive, the linux-x64 job's npm tarball, install.sh and one SHA256SUMS", () => {
    const from = artifacts();
    const run = collect(from);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    const expected = [...Object.values(JOBS), 'SHA256SUMS', 'install.sh', `tokencli-${version}.tgz`].sort();
    expect(readdirSync(run.out).sort()).toEqual(expected);
    expect(run.stdout.split('\n').filter(Boolean)).toEqual(expected);
    for (const [job, archive] of Object.entries(JOBS))
      expect(readFileSync(join(run.out, archive), 'utf8')).toBe(`${archive} from ${job}\n`);
    expect(readFileSync(join(run.out, `tokencli-${version}.tgz`), 'utf8')).toBe(
      'the npm tarball from release-linux-x64\n',
    );
    expect(readFileSync(join(run.out, 'install.sh'), 'utf8')).toBe(
      readFileSync(join(root, 'install.sh'), 'utf8'),
    );
    const sums = readFileSync(join(run.out, 'SHA256SUMS'), 'utf8');
    expect(
      sums
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('  ')[1]),
    ).toEqual(expected.filter((name) => name !== 'SHA256SUMS'));
  });

  test.runIf(hasSha256sum)('sha256sum -c accepts the joined SHA256SUMS', () => {
    const run = collect(artifacts());
    expect(run.status, run.stderr).toBe(0);
    const check = spawnSync('sha256sum', ['-c', '--strict', 'SHA256SUMS'], {
      cwd: run.out,
      encoding: 'utf8',
    });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    expect(check.stdout.split('\n').filter(Boolean)).toHaveLength(7);
  });
  test.skipIf(hasSha256sum)('sha256sum -c (skipped: sha256sum is not installed)', () => {});

  test("a best-effort platform's archive missing (darwin-x64): released without it, said on stderr", () => {
    const from = artifacts();
    rmSync(join(from, 'release-darwin-x64'), { recursive: true });
    const run = collect(from);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe(
      'collect: no darwin-x64 archive (release-darwin-x64), a best-effort platform: released without it\n',
    );
    expect(readdirSync(run.out)).not.toContain(JOBS['release-darwin-x64']);
    expect(readFileSync(join(run.out, 'SHA256SUMS'), 'utf8')).not.toContain('darwin-x64');
  });

  test("any other platform's archive missing is refused, named: its job's files did not arrive", () => {
    for (const target of ['linux-x64', 'linux-arm64', 'darwin-arm64', 'win-x64']) {
      const from = artifacts();
      const job = join(from, `release-${target}`);
      // The archive gone from its job's files, which stay whole (linux-x64's npm tarball included).
      rmSync(join(job, JOBS[`release-${target}` as keyof typeof JOBS]));
      writeSums(job);
      expectRefused(
        collect(from),
        `no ${target} archive among the artifacts (release-${target}): only a best-effort platform's may be missing`,
      );
    }
  });

  test('a file changed after its job wrote SHA256SUMS is refused, named', () => {
    const from = artifacts();
    writeFileSync(join(from, 'release-darwin-arm64', JOBS['release-darwin-arm64']), 'damaged\n');
    expectRefused(
      collect(from),
      `release-darwin-arm64/tokencli-${version}-darwin-arm64.tar.gz does not match its SHA256SUMS`,
    );
  });

  test("a damaged npm tarball of another job is refused too: every job's files are checked", () => {
    const from = artifacts();
    writeFileSync(join(from, 'release-win-x64', `tokencli-${version}.tgz`), 'damaged\n');
    expectRefused(collect(from), `release-win-x64/tokencli-${version}.tgz does not match its SHA256SUMS`);
  });

  test('a file its SHA256SUMS lists but the job lacks is refused, named', () => {
    const from = artifacts();
    rmSync(join(from, 'release-linux-x64', JOBS['release-linux-x64']));
    expectRefused(
      collect(from),
      `release-linux-x64/tokencli-${version}-linux-x64.tar.gz is in its SHA256SUMS but missing`,
    );
  });

  test('a job without SHA256SUMS is refused, named', () => {
    const from = artifacts();
    rmSync(join(from, 'release-win-x64', 'SHA256SUMS'));
    expectRefused(collect(from), 'release-win-x64/SHA256SUMS is missing');
  });

  test('a SHA256SUMS line naming a path outside its job is refused', () => {
    const from = artifacts();
    const line = `${'0'.repeat(64)}  ../release-linux-x64/tokencli-${version}.tgz`;
    writeFileSync(join(from, 'release-win-x64', 'SHA256SUMS'), `${line}\n`);
    expectRefused(
      collect(from),
      `release-win-x64/SHA256SUMS has a line that is not \`SHA256  NAME\`: ${line}`,
    );
  });

  test('no npm tarball from the linux-x64 job: refused, as npm publish would have nothing', () => {
    const from = artifacts();
    rmSync(join(from, 'release-linux-x64', `tokencli-${version}.tgz`));
    writeSums(join(from, 'release-linux-x64'));
    expectRefused(collect(from), "found 0 npm tarballs in the linux-x64 job's files, not exactly one");
  });

  test("a job's archive of another version (another commit's build) is refused, named", () => {
    const from = artifacts();
    const other = `tokencli-${version}-rc.1-darwin-arm64.tar.gz`;
    rmSync(join(from, 'release-darwin-arm64', JOBS['release-darwin-arm64']));
    writeFileSync(join(from, 'release-darwin-arm64', other), 'an older build\n');
    writeSums(join(from, 'release-darwin-arm64'));
    expectRefused(
      collect(from),
      `release-darwin-arm64/${other} is not of this release, ${version} (package.json)`,
    );
  });

  test('an upload directory that is not empty is refused: its files would be released too', () => {
    const from = artifacts();
    const out = join(tempDir('tokencli-upload-'), 'upload');
    mkdirSync(out);
    writeFileSync(join(out, 'tokencli-0.0.1.tgz'), 'left from another collection\n');
    const run = spawnSync(process.execPath, [script, from, out], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`collect: ${out} is not empty: collect into a new directory\n`);
    expect(readdirSync(out)).toEqual(['tokencli-0.0.1.tgz']);
  });

  test('no artifacts directory: one line, not a stack trace', () => {
    const missing = join(tempDir('tokencli-artifacts-'), 'artifacts');
    expectRefused(collect(missing), `${missing} does not exist (the build jobs' artifacts)`);
  });

  test('artifacts that are a file, or a SHA256SUMS that is a directory: one line, not a stack trace', () => {
    const file = join(tempDir('tokencli-artifacts-'), 'artifacts');
    writeFileSync(file, 'not a directory\n');
    expectRefused(collect(file), `${file} is not a directory (the build jobs' artifacts)`);
    const from = artifacts();
    rmSync(join(from, 'release-win-x64', 'SHA256SUMS'));
    mkdirSync(join(from, 'release-win-x64', 'SHA256SUMS'));
    expectRefused(collect(from), 'release-win-x64/SHA256SUMS cannot be read (EISDIR)');
  });

  test("a platform's archive from another job is refused: it would replace that platform's own, or stand in for it", () => {
    // A second linux-x64 archive, listed in the win-x64 job's files.
    const from = artifacts();
    writeFileSync(join(from, 'release-win-x64', JOBS['release-linux-x64']), 'EVIL\n');
    writeSums(join(from, 'release-win-x64'));
    expectRefused(
      collect(from),
      `release-win-x64/${JOBS['release-linux-x64']} is the linux-x64 archive, which only release-linux-x64 may hold`,
    );
    // The linux-arm64 job gone, its archive among the linux-x64 job's files.
    const moved = artifacts();
    const arm = JOBS['release-linux-arm64'];
    writeFileSync(join(moved, 'release-linux-x64', arm), `${arm} from release-linux-arm64\n`);
    writeSums(join(moved, 'release-linux-x64'));
    rmSync(join(moved, 'release-linux-arm64'), { recursive: true });
    expectRefused(
      collect(moved),
      `release-linux-x64/${arm} is the linux-arm64 archive, which only release-linux-arm64 may hold`,
    );
  });
});
