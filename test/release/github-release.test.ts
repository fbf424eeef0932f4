/**
 * The release workflow's GitHub release (scripts/release/github-release.sh) against a fake `gh`
 * first on PATH, which records each call and answers `gh release view` as the test says: the
 * draft replaces a draft an earlier run left (never a published release), holds every file of the
 * upload and is a prerelease for a tag such as v1.0.0-rc.1; `public` makes it public.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cleanEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dirs.js';

const root = resolve(import.meta.dirname, '../..');
const script = join(root, 'scripts/release/github-release.sh');

/**
 * gh: appends its arguments to $GH_CALLS (their count, then one a line); for `release view TAG`
 * prints $GH_IS_DRAFT as `--jq .isDraft` would, and for `release view` with no tag (the Latest
 * release) $GH_LATEST as `--jq .tagName` would, or fails as gh does where there is no such release
 * when it is unset; any `release view` fails with $GH_VIEW_ERROR when that is set.
 */
const FAKE_GH = `#!/bin/sh
printf '%s\\n' "$#" "$@" >>"$GH_CALLS"
if [ "$1 $2" = "release view" ] && [ -n "\${GH_VIEW_ERROR:-}" ]; then
  echo "$GH_VIEW_ERROR" >&2
  exit 1
elif [ "$1 $2 $3" = "release view --json" ]; then
  if [ -z "\${GH_LATEST:-}" ]; then echo 'release not found' >&2; exit 1; fi
  echo "$GH_LATEST"
elif [ "$1 $2" = "release view" ]; then
  if [ -z "\${GH_IS_DRAFT:-}" ]; then echo 'release not found' >&2; exit 1; fi
  echo "$GH_IS_DRAFT"
fi
`;

/** What the release upload holds (scripts/release/collect.mjs), in the order `upload/*` gives them. */
const UPLOAD = ['SHA256SUMS', 'install.sh', 'tokencli-0.1.0-linux-x64.tar.gz', 'tokencli-0.1.0.tgz'];

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Each gh call's arguments. */
  calls: string[][];
}

/**
 * `sh scripts/release/github-release.sh ARGS` in a directory holding upload/ (unless `upload` is
 * false), with the fake gh first on PATH and `release view` answering `isDraft` (true, false, or
 * no release).
 */
function githubRelease(
  args: string[],
  {
    tag,
    isDraft,
    latest,
    viewError,
    upload = true,
  }: { tag?: string; isDraft?: string; latest?: string; viewError?: string; upload?: boolean } = {},
): Run {
  const bin = tempDir('tokencli-fake-gh-');
  writeFileSync(join(bin, 'gh'), FAKE_GH, { mode: 0o755 });
  const cwd = tempDir('tokencli-github-release-');
  if (upload) {
    mkdirSync(join(cwd, 'upload'));
    for (const name of UPLOAD) writeFileSync(join(cwd, 'upload', name), `${name}\n`);
  }
  const log = join(cwd, 'gh-calls');
  const run = spawnSync('sh', [script, ...args], {
    cwd,
    env: cleanEnv({
      PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
      GH_CALLS: log,
      GH_IS_DRAFT: isDraft,
      GH_LATEST: latest,
      GH_VIEW_ERROR: viewError,
      GH_TOKEN: undefined,
      GITHUB_TOKEN: undefined,
      TAG: tag,
      // The upload's files in byte order, as in UPLOAD, whatever this machine's locale.
      LC_ALL: 'C',
    }),
    encoding: 'utf8',
    timeout: 30_000,
  });
  const calls: string[][] = [];
  const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n') : [];
  for (let i = 0; i < lines.length && lines[i] !== ''; ) {
    const count = Number(lines[i]);
    calls.push(lines.slice(i + 1, i + 1 + count));
    i += 1 + count;
  }
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, calls };
}

const VIEW = (tag: string) => ['release', 'view', tag, '--json', 'isDraft', '--jq', '.isDraft'];
const CREATE = (tag: string, ...flags: string[]) => [
  'release',
  'create',
  tag,
  '--draft',
  ...flags,
  '--verify-tag',
  '--title',
  `tokencli ${tag}`,
  '--generate-notes',
  ...UPLOAD.map((name) => `upload/${name}`),
];

describe.skipIf(process.platform === 'win32')(
  'github-release.sh (skipped on Windows: a POSIX sh script)',
  () => {
    test('draft, no release of the tag yet: created as a draft with every file of the upload', () => {
      const run = githubRelease(['draft'], { tag: 'v0.1.0' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.calls).toEqual([VIEW('v0.1.0'), CREATE('v0.1.0')]);
    });

    test("draft, an earlier run's draft there: deleted, then made again", () => {
      const run = githubRelease(['draft'], { tag: 'v0.1.0', isDraft: 'true' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.calls).toEqual([VIEW('v0.1.0'), ['release', 'delete', 'v0.1.0', '--yes'], CREATE('v0.1.0')]);
    });

    test('draft, a published release there: left as it is, so that a re-run of a whole job does nothing', () => {
      const run = githubRelease(['draft'], { tag: 'v0.1.0', isDraft: 'false' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toBe('the release v0.1.0 is public already: left as it is\n');
      expect(run.calls).toEqual([VIEW('v0.1.0')]);
    });

    test('draft of a prerelease tag (v1.0.0-rc.1): marked a prerelease; the tag as an argument', () => {
      const run = githubRelease(['draft', 'v1.0.0-rc.1'], { tag: 'v9.9.9', isDraft: 'true' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.calls).toEqual([
        VIEW('v1.0.0-rc.1'),
        ['release', 'delete', 'v1.0.0-rc.1', '--yes'],
        CREATE('v1.0.0-rc.1', '--prerelease'),
      ]);
    });

    test('draft, gh unable to say whether the tag has a release (credentials, network): one line, exit 1, nothing made', () => {
      const run = githubRelease(['draft'], {
        tag: 'v0.1.0',
        viewError: 'HTTP 401: Bad credentials (https://api.github.com/graphql)',
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(
        'github-release: cannot ask GitHub about v0.1.0 (gh release view: HTTP 401: Bad credentials (https://api.github.com/graphql))\n',
      );
      expect(run.calls).toEqual([VIEW('v0.1.0')]);
    });

    test('draft, gh answering neither true nor false: one line, exit 1, nothing made', () => {
      const run = githubRelease(['draft'], { tag: 'v0.1.0', isDraft: 'garbage' });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(
        "github-release: gh release view v0.1.0 answered 'garbage', not whether it is a draft\n",
      );
      expect(run.calls).toEqual([VIEW('v0.1.0')]);
    });

    const LATEST = ['release', 'view', '--json', 'tagName', '--jq', '.tagName'];

    test('public: the draft made public (and so Latest), nothing else', () => {
      for (const latest of [undefined, 'v0.0.9', 'v0.1.0-rc.1']) {
        const run = githubRelease(['public'], { tag: 'v0.1.0', latest, upload: false });
        expect(run.status, run.stderr).toBe(0);
        expect(run.calls, latest).toEqual([LATEST, ['release', 'edit', 'v0.1.0', '--draft=false']]);
      }
    });

    test('public, gh unable to say which release is Latest: one line, exit 1, nothing made public', () => {
      const run = githubRelease(['public'], {
        tag: 'v0.1.1',
        viewError: 'error connecting to api.github.com',
        upload: false,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(
        'github-release: cannot ask GitHub about its Latest release (gh release view: error connecting to api.github.com)\n',
      );
      expect(run.calls).toEqual([LATEST]);
    });

    test('public, a newer release Latest already (a fix to an older line): made public, not Latest', () => {
      for (const [latest, tag] of [
        ['v0.2.0', 'v0.1.1'],
        ['v1.0.0', 'v0.9.10'],
        ['v0.10.0', 'v0.9.0'],
      ] as const) {
        const run = githubRelease(['public', tag], { latest, upload: false });
        expect(run.status, run.stderr).toBe(0);
        expect(run.stdout).toBe(
          `the Latest release is ${latest}, newer: ${tag} is made public without becoming Latest\n`,
        );
        expect(run.calls).toEqual([LATEST, ['release', 'edit', tag, '--draft=false', '--latest=false']]);
      }
    });

    test('draft with no upload: one line, exit 1, gh not run', () => {
      const run = githubRelease(['draft'], { tag: 'v0.1.0', upload: false });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(
        'github-release: upload holds no files to release (scripts/release/collect.mjs makes it)\n',
      );
      expect(run.calls).toEqual([]);
    });

    test('no version tag, or neither draft nor public: one line, exit 2, gh not run', () => {
      for (const [args, tag, message] of [
        [['draft'], undefined, /^github-release: the tag must be a version tag such as v0\.1\.0 .+\n$/],
        [['public'], 'main', /^github-release: the tag must be a version tag such as v0\.1\.0 .+'main'\n$/],
        [['publish'], 'v0.1.0', /^usage: github-release\.sh draft\|public \[TAG \[UPLOAD\]\]\n$/],
        [[], 'v0.1.0', /^usage: github-release\.sh draft\|public \[TAG \[UPLOAD\]\]\n$/],
      ] as const) {
        const run = githubRelease([...args], tag ? { tag } : {});
        expect(run.status, args.join(' ')).toBe(2);
        expect(run.stderr).toMatch(message);
        expect(run.calls).toEqual([]);
      }
    });
  },
);
