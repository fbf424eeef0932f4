/**
 * The code-cache training (scripts/release/train-code-cache.mjs) runs the executable just built:
 * one that fails there ends the build in one line naming the step, how it ended and the last line
 * it said, rather than a stack trace; and its service is stopped either way. The real training is
 * .ci/run's release build, which build-sea.mjs runs in the system's temporary directory.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';

const root = resolve(import.meta.dirname, '../..');
const posix = process.platform !== 'win32';

/**
 * Trains with a shell script standing in for tokencli, as build-sea.mjs does (its one-line
 * failures, failure.mjs), in a process of its own: what it printed and where the fake service's
 * process id went.
 */
function train(fakeTokencli: string) {
  const dir = tempDir('tokencli-train-test-');
  const exe = join(dir, 'tokencli');
  writeFileSync(exe, `#!/bin/sh\n${fakeTokencli}\n`);
  chmodSync(exe, 0o755);
  return trainWith(exe, dir);
}

/** Trains with `exe`, in `dir`, as build-sea.mjs would. */
function trainWith(exe: string, dir: string) {
  const script = [
    `import { reportFailures } from ${JSON.stringify(pathToFileURL(join(root, 'scripts/release/failure.mjs')).href)};`,
    `import { trainCodeCaches } from ${JSON.stringify(pathToFileURL(join(root, 'scripts/release/train-code-cache.mjs')).href)};`,
    "reportFailures('build-sea');",
    `await trainCodeCaches(${JSON.stringify(exe)}, ${JSON.stringify(join(dir, 'training'))});`,
  ].join('\n');
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, FAKE_DIR: dir },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { ...run, dir };
}

/** Whether the process whose id the fake service wrote to `dir`/serve.pid still runs. */
function serviceRuns(dir: string): boolean {
  const pidFile = join(dir, 'serve.pid');
  if (!existsSync(pidFile)) return false;
  try {
    process.kill(Number(readFileSync(pidFile, 'utf8')), 0);
    return true;
  } catch {
    return false;
  }
}

test.runIf(posix)(
  'a command of the built executable that fails ends the build in one line, and its service is stopped (skipped on Windows: the fake tokencli is a #! sh script)',
  () => {
    const run = train(
      [
        'case "$1" in',
        '  --version) echo 0.1.0 ;;',
        `  serve) echo $$ > "$FAKE_DIR/serve.pid"; echo '{"base_url":"http://127.0.0.1:9"}'; exec sleep 30 ;;`,
        '  token) echo "warning: something first" >&2; echo "error: the service refused the client" >&2; exit 3 ;;',
        'esac',
      ].join('\n'),
    );
    expect(run.stderr).toBe(
      'build-sea: training the code caches, `tokencli token` exited with 3: error: the service refused the client\n',
    );
    expect(run.status).toBe(1);
    expect(serviceRuns(run.dir)).toBe(false);
  },
);

test.runIf(posix)(
  'a built executable killed by a signal says which (skipped on Windows: the fake tokencli is a #! sh script)',
  () => {
    const run = train(
      [
        'case "$1" in',
        `  serve) echo $$ > "$FAKE_DIR/serve.pid"; echo '{"base_url":"http://127.0.0.1:9"}'; exec sleep 30 ;;`,
        '  *) kill -SEGV $$ ;;',
        'esac',
      ].join('\n'),
    );
    expect(run.stderr).toBe(
      'build-sea: training the code caches, `tokencli --version` was killed by SIGSEGV\n',
    );
    expect(run.status).toBe(1);
    expect(serviceRuns(run.dir)).toBe(false);
  },
);

test.runIf(posix)(
  'a service that ends before it listens, or prints no address, is said in one line (skipped on Windows: the fake tokencli is a #! sh script)',
  () => {
    const ended = train('echo "error: cannot listen on 127.0.0.1:0: EACCES" >&2; exit 2');
    expect(ended.stderr).toBe(
      'build-sea: `tokencli serve` exited with 2 before listening: error: cannot listen on 127.0.0.1:0: EACCES\n',
    );
    expect(ended.status).toBe(1);
    const garbled = train('echo $$ > "$FAKE_DIR/serve.pid"; echo "listening somewhere"; exec sleep 30');
    expect(garbled.stderr).toBe(
      'build-sea: `tokencli serve` printed "listening somewhere", not its address\n',
    );
    expect(garbled.status).toBe(1);
    expect(serviceRuns(garbled.dir)).toBe(false);
  },
);

test.runIf(posix)(
  'an executable that answers but writes no code cache is said in one line, with the likely cause (skipped on Windows: the fake tokencli is a #! sh script)',
  () => {
    const run = train(
      [
        'case "$1" in',
        `  serve) echo $$ > "$FAKE_DIR/serve.pid"; echo '{"base_url":"http://127.0.0.1:9"}'; exec sleep 30 ;;`,
        '  *) echo fine ;;',
        'esac',
      ].join('\n'),
    );
    expect(run.stderr).toBe(
      `build-sea: training the code caches, the executable wrote none under ${join(run.dir, 'training', 'cache')}: may others or their group write a directory above it?\n`,
    );
    expect(run.status).toBe(1);
    expect(serviceRuns(run.dir)).toBe(false);
  },
);

test('an executable that cannot be run is said in one line', () => {
  const dir = tempDir('tokencli-train-test-');
  const missing = join(dir, 'no-such-tokencli');
  const run = trainWith(missing, dir);
  expect(run.stderr).toBe(`build-sea: the executable cannot be run: spawn ${missing} ENOENT\n`);
  expect(run.status).toBe(1);
});

test('a training directory that is not empty is refused: an earlier training’s caches would be taken for this one’s', () => {
  const dir = tempDir('tokencli-train-test-');
  mkdirSync(join(dir, 'training', 'cache'), { recursive: true });
  const run = trainWith(join(dir, 'never-run'), dir);
  expect(run.stderr).toBe(`build-sea: training the code caches, ${join(dir, 'training')} is not empty\n`);
  expect(run.status).toBe(1);
});
