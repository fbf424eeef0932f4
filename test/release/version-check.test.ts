/**
 * The release workflow's version check (scripts/release/version-check.mjs): a tag is released only
 * when every file that names the release it comes with names the tag's version.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { pinnedReleases, tagProblem, versionMismatches } from '../../scripts/release/version-check.mjs';
import { tempDir } from '../helpers/temp-dirs.js';

const root = resolve(import.meta.dirname, '../..');
const script = join(root, 'scripts/release/version-check.mjs');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

/** Every file that names the version. */
const versionFiles = [
  'package.json',
  'package-lock.json',
  'src/version.ts',
  'install.sh',
  'action.yml',
  'man/tokencli.1',
  'README.md',
  'CONTRIBUTING.md',
  'bench/README.md',
  ...readdirSync(join(root, 'docs')).map((name) => `docs/${name}`),
];

/** A copy of the files that name the version, each bumped to `to` but `forgotten`. */
function bumpedCopy(forgotten?: string, to = '99.0.0'): string {
  const dir = tempDir('tokencli-version-check-');
  for (const file of versionFiles) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    if (file === forgotten) copyFileSync(join(root, file), join(dir, file));
    else {
      const text = readFileSync(join(root, file), 'utf8');
      // The man page escapes dots and hyphens (marked-man: 1\.0\.0\-rc\.1).
      const man = (v: string) => v.replaceAll('.', '\\.').replaceAll('-', '\\-');
      writeFileSync(join(dir, file), text.replaceAll(version, to).replaceAll(man(version), man(to)));
    }
  }
  return dir;
}

test('this checkout names one version everywhere: its tag passes', () => {
  expect(versionMismatches(root, `v${version}`)).toEqual([]);
  const run = spawnSync(process.execPath, [script, `v${version}`], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
});

test('another tag is refused, each file that disagrees named in one line', () => {
  const run = spawnSync(process.execPath, [script, 'v99.0.0'], { encoding: 'utf8' });
  expect(run.status).toBe(1);
  const lines = run.stderr.split('\n').filter(Boolean);
  expect(lines.slice(0, 6)).toEqual([
    `version-check: package.json's version is ${version}, not the tag's 99.0.0`,
    `version-check: package-lock.json's version (npm version X does it) is ${version}, not the tag's 99.0.0`,
    `version-check: src/version.ts's VERSION (tokencli --version) is ${version}, not the tag's 99.0.0`,
    `version-check: install.sh's RELEASED_VERSION is ${version}, not the tag's 99.0.0`,
    `version-check: action.yml's version default is ${version}, not the tag's 99.0.0`,
    `version-check: the man page's .TH version (npm run docs) is ${version}, not the tag's 99.0.0`,
  ]);
  expect(lines).toContain(`version-check: README.md pins ${version}, not the tag's 99.0.0`);
  expect(lines.at(-1)).toBe('version-check: bump them together (CONTRIBUTING.md, Releases)');
});

test('a bump that forgets any one file is refused, naming that file alone', () => {
  expect(versionMismatches(bumpedCopy(), 'v99.0.0')).toEqual([]);
  const named = {
    'package.json': [`package.json's version is ${version}, not the tag's 99.0.0`],
    'package-lock.json': [
      `package-lock.json's version (npm version X does it) is ${version}, not the tag's 99.0.0`,
    ],
    'src/version.ts': [`src/version.ts's VERSION (tokencli --version) is ${version}, not the tag's 99.0.0`],
    'install.sh': [
      `install.sh's RELEASED_VERSION is ${version}, not the tag's 99.0.0`,
      `install.sh pins ${version}, not the tag's 99.0.0`,
    ],
    'action.yml': [
      `action.yml's version default is ${version}, not the tag's 99.0.0`,
      `action.yml pins ${version}, not the tag's 99.0.0`,
    ],
    'man/tokencli.1': [
      `the man page's .TH version (npm run docs) is ${version}, not the tag's 99.0.0`,
      `man/tokencli.1 pins ${version}, not the tag's 99.0.0`,
    ],
    'README.md': [`README.md pins ${version}, not the tag's 99.0.0`],
    'CONTRIBUTING.md': [`CONTRIBUTING.md pins ${version}, not the tag's 99.0.0`],
  };
  for (const [file, lines] of Object.entries(named))
    expect(versionMismatches(bumpedCopy(file), 'v99.0.0'), file).toEqual(lines);
});

test('a tag that names no release is refused in one line before any file is read', () => {
  for (const tag of ['v1.2.3', 'v1.2.3-rc.1', 'v10.20.30-beta.2'])
    expect(tagProblem(tag), tag).toBeUndefined();
  // Build metadata: npm would publish v1.0.0+build-5 as 1.0.0, to `next` for its hyphen.
  for (const tag of [
    'v1.0.0+build-5',
    'v1.0.0+5',
    '1.2.3',
    'V1.2.3',
    'v1.2',
    'v1.2.3 ',
    'refs/tags/v1.2.3',
    'v1.2.3\n',
  ])
    expect(tagProblem(tag), tag).toBe(
      `the tag ${JSON.stringify(tag)} is not a release's: v and a version such as v1.2.3 or v1.2.3-rc.1, with no build metadata (+…)`,
    );
  // Even where every file names it: no bump makes it a release.
  const dir = bumpedCopy(undefined, '1.0.0+build-5');
  mkdirSync(join(dir, 'scripts/release'), { recursive: true });
  copyFileSync(script, join(dir, 'scripts/release/version-check.mjs'));
  const run = spawnSync(
    process.execPath,
    [join(dir, 'scripts/release/version-check.mjs'), 'v1.0.0+build-5'],
    {
      encoding: 'utf8',
    },
  );
  expect(run.status).toBe(1);
  expect(run.stderr).toBe(`version-check: ${tagProblem('v1.0.0+build-5')}\n`);
});

test.skipIf(process.platform === 'win32')(
  'run through a link to its checkout, it still checks: it never passes unrun (skipped on Windows: links need privileges there)',
  () => {
    const link = join(tempDir('tokencli-version-check-link-'), 'checkout');
    symlinkSync(root, link);
    const run = spawnSync(process.execPath, [join(link, 'scripts/release/version-check.mjs'), 'v99.0.0'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `version-check: package.json's version is ${version}, not the tag's 99.0.0\n`,
    );
  },
);

test("a prerelease bumped everywhere passes, the man page's escaped hyphen too", () => {
  expect(versionMismatches(bumpedCopy(undefined, '1.0.0-rc.1'), 'v1.0.0-rc.1')).toEqual([]);
});

test('a quoted version in install.sh or action.yml is read as the version', () => {
  const dir = bumpedCopy();
  for (const file of ['install.sh', 'action.yml']) {
    const text = readFileSync(join(dir, file), 'utf8');
    writeFileSync(
      join(dir, file),
      text
        .replace('RELEASED_VERSION=99.0.0', "RELEASED_VERSION='99.0.0'")
        .replace('default: 99.0.0', 'default: "99.0.0"'),
    );
  }
  expect(versionMismatches(dir, 'v99.0.0')).toEqual([]);
});

test('the pins a document can hold, prereleases among them', () => {
  expect(
    pinnedReleases(
      [
        'npm install -g tokencli@1.2.3; npx --yes tokencli@1.0.0-rc.1 token',
        '- uses: tokencli/tokencli@v1.2.3',
        'curl -fsSL https://github.com/tokencli/tokencli/releases/download/v1.0.0-rc.1/install.sh | sh',
        'base=https://github.com/tokencli/tokencli/releases/download/v1.2.3',
        'tar -xzf tokencli-1.0.0-rc.1-linux-x64.tar.gz; unzip "$base/tokencli-1.2.3-win-x64.zip"',
        'npm install -g ./tokencli-1.2.3.tgz. Install tokencli@1.0.0-rc.1.',
        String.raw`are at \fBhttps://github\.com/tokencli/tokencli/tree/v1\.2\.3\fP\|\.`,
        String.raw`are at \fBhttps://github\.com/tokencli/tokencli/tree/v1\.0\.0\-rc\.1\fP\|\.`,
        'See https://github.com/tokencli/tokencli/releases/tag/v1.2.3.',
        '[contract](https://github.com/tokencli/tokencli/blob/v1.0.0-rc.1/docs/contract.md)',
        'npx tokencli@1.2.3+build.5 token',
      ].join('\n'),
    ),
  ).toEqual([
    '1.2.3',
    '1.0.0-rc.1',
    '1.2.3',
    '1.0.0-rc.1',
    '1.2.3',
    '1.0.0-rc.1',
    '1.2.3',
    '1.2.3',
    '1.0.0-rc.1',
    '1.2.3',
    '1.0.0-rc.1',
    '1.2.3',
    '1.0.0-rc.1',
    '1.2.3+build.5',
  ]);
  // Not pins of this project's releases: other packages and repositories, names that go on.
  expect(
    pinnedReleases(
      [
        'node@20.18.1, tokencli@1.2.3.4, mytokencli-1.2.3.tgz, eslint-plugin-tokencli@1.2.3, @acme/tokencli@2.0.0',
        'someone/tokencli@v3.0.0 https://github.com/cli/cli/releases/download/v2.40.0/gh.tar.gz',
        'https://github.com/nodejs/node/tree/v20.18.1/lib',
        'https://github.com/nodejs/node/blob/v20.18.1/README.md https://github.com/cli/cli/releases/tag/v2.40.0',
      ].join('\n'),
    ),
  ).toEqual([]);
});
