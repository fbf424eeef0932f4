/**
 * The release smoke test (scripts/release/smoke.mjs) fails an executable that only looks right, in
 * one line naming the step and what it saw, and leaves no temporary directory either way. The real
 * executable's pass is .ci/run's (scripts/ci/test-binary.sh).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';

const root = resolve(import.meta.dirname, '../..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

/** Runs the smoke test on a shell script standing in for tokencli, with a TMPDIR of its own. */
function smoke(fakeTokencli: string) {
  const dir = tempDir('tokencli-smoke-test-');
  const exe = join(dir, 'tokencli');
  writeFileSync(exe, `#!/bin/sh\n${fakeTokencli}\n`);
  chmodSync(exe, 0o755);
  const tmp = tempDir('tokencli-smoke-tmp-');
  const run = spawnSync(process.execPath, [join(root, 'scripts/release/smoke.mjs'), exe], {
    env: { ...process.env, TMPDIR: tmp },
    encoding: 'utf8',
  });
  return { ...run, left: readdirSync(tmp) };
}

test.runIf(process.platform !== 'win32')('a wrong --version fails at once, saying what it printed', () => {
  const run = smoke('echo 0.0.1');
  expect(run.status).toBe(1);
  expect(run.stderr).toBe(`smoke: --version prints ${version} failed (got "0.0.1")\n`);
  expect(run.left).toEqual([]);
});

test.runIf(process.platform !== 'win32')(
  'a token the service never issued fails the token step',
  () => {
    // Prints a version, a service line and a long "token", but the service logs no token request.
    const run = smoke(
      [
        'case "$1" in',
        `  --version) echo ${version} ;;`,
        `  serve) echo '{"base_url":"http://127.0.0.1:9"}'; exec sleep 30 ;;`,
        '  token) echo 0123456789abcdef0123456789abcdef ;;',
        'esac',
      ].join('\n'),
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      'smoke: a token from tokencli serve failed (got {"token":"0123456789abcdef0123456789abcdef","requests":0})\n',
    );
    expect(run.stdout).toBe(`smoke: --version prints ${version}: ok\n`);
    expect(run.left).toEqual([]);
  },
  20_000,
);
