/**
 * The code-cache training (scripts/release/train-code-cache.mjs) runs the executable just built:
 * one that fails there ends the build in one line naming the step, how it ended and the last line
 * it said, rather than a stack trace; and its service is stopped either way. The real training is
 * .ci/run's release build, which build-sea.mjs runs in the system's temporary directory.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/**
 * Runs `withTrainedCodeCaches` as build-sea.mjs does, with `fakeTokencli` as the executable and
 * the system's temporary directory at `<dir>/tmp`, in a process of its own started (not waited
 * for) in a process group of its own, as a shell's job is.
 */
function startBuild(
  fakeTokencli: string,
  {
    plant = () => {},
    use = "() => console.log('trained')",
  }: { plant?: (tmp: string) => void; use?: string } = {},
) {
  const dir = tempDir('tokencli-train-test-');
  const exe = join(dir, 'tokencli');
  writeFileSync(exe, `#!/bin/sh\n${fakeTokencli}\n`);
  chmodSync(exe, 0o755);
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  plant(tmp);
  const script = [
    `import { reportFailures } from ${JSON.stringify(pathToFileURL(join(root, 'scripts/release/failure.mjs')).href)};`,
    `import { withTrainedCodeCaches } from ${JSON.stringify(pathToFileURL(join(root, 'scripts/release/train-code-cache.mjs')).href)};`,
    "reportFailures('build-sea');",
    `await withTrainedCodeCaches(${JSON.stringify(exe)}, ${use});`,
  ].join('\n');
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, FAKE_DIR: dir, TMPDIR: tmp },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const ended = once(child, 'close').then(([code, signal]) => ({ code, signal, stdout, stderr }));
  return { child, dir, tmp, ended };
}

/** Resolves once `path` exists (a fake tokencli's mark that a step has begun). */
async function appears(path: string): Promise<void> {
  for (let waited = 0; !existsSync(path); waited += 20) {
    if (waited > 15_000) throw new Error(`${path} never appeared`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The training directories left in `tmp`. */
function trainingDirs(tmp: string): string[] {
  return readdirSync(tmp).filter((name) => name.startsWith('tokencli-training-'));
}

/**
 * Once `mark` appears, sends `signal` to the build (to its whole process group for Ctrl-C, the
 * training's runs included), and checks that the build ended by it having said nothing, with its
 * training directory removed and its service stopped.
 */
async function interrupt(
  build: ReturnType<typeof startBuild>,
  mark: string,
  signal: 'SIGINT' | 'SIGTERM',
  { group }: { group: boolean },
) {
  await appears(join(build.dir, mark));
  expect(trainingDirs(build.tmp)).toHaveLength(1);
  const pid = build.child.pid as number;
  process.kill(group ? -pid : pid, signal);
  expect(await build.ended).toMatchObject({ code: null, signal, stdout: '', stderr: '' });
  expect(trainingDirs(build.tmp)).toEqual([]);
  expect(serviceRuns(build.dir)).toBe(false);
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

/** A fake tokencli whose service runs and whose `--version` marks that it began, then takes a while. */
const slowVersion = [
  'case "$1" in',
  `  serve) echo $$ > "$FAKE_DIR/serve.pid"; echo '{"base_url":"http://127.0.0.1:9"}'; exec sleep 30 ;;`,
  '  --version) touch "$FAKE_DIR/version-began"; sleep 1; echo 0.1.0 ;;',
  '  *) echo fine ;;',
  'esac',
].join('\n');

test.runIf(posix)(
  'a build interrupted while it trains (SIGTERM to the builder alone, as a cancelled job) stops the service, removes its training directory and ends by that signal (skipped on Windows: POSIX signals and a #! sh script)',
  async () => {
    await interrupt(startBuild(slowVersion), 'version-began', 'SIGTERM', { group: false });
  },
);

test.runIf(posix)(
  'a build interrupted by Ctrl-C (SIGINT to its whole process group, the training runs too) cleans up the same and ends by SIGINT, with no failure said (skipped on Windows: POSIX signals and a #! sh script)',
  async () => {
    await interrupt(startBuild(slowVersion), 'version-began', 'SIGINT', { group: true });
  },
);

test.runIf(posix)(
  'a build interrupted by Ctrl-C after the training, while it builds again with the caches, cleans up the same and ends by SIGINT (skipped on Windows: POSIX signals and a #! sh script)',
  async () => {
    // What build-sea.mjs does with the caches: node --build-sea, a synchronous child.
    const use = `async () => {
      const { execFileSync } = await import('node:child_process');
      const { writeFileSync } = await import('node:fs');
      writeFileSync(process.env.FAKE_DIR + '/use-began', '');
      execFileSync('sleep', ['5']);
    }`;
    // A training that succeeds: each run writes a code cache where the launcher would.
    const training = [
      'case "$1" in',
      `  serve) echo $$ > "$FAKE_DIR/serve.pid"; echo '{"base_url":"http://127.0.0.1:9"}'; exec sleep 30 ;;`,
      '  *) mkdir -p "$XDG_CACHE_HOME/tokencli/code-cache/v26" && : > "$XDG_CACHE_HOME/tokencli/code-cache/v26/light-token-AbCdEfGhIjKlMnOp" ;;',
      'esac',
    ].join('\n');
    await interrupt(startBuild(training, { use }), 'use-began', 'SIGINT', { group: true });
  },
);

test.runIf(posix)(
  'a build removes the training directories of builds that no longer run, and keeps those of builds that do (skipped on Windows: the fake tokencli is a #! sh script)',
  async () => {
    // A build that has ended, one that runs (this test's process), one from before the names held
    // an id.
    const endedBuild = spawnSync('true').pid;
    const planted = [`${endedBuild}-AbC123`, `${process.pid}-DeF456`, 'GhI789'];
    const build = startBuild('echo "error: cannot listen" >&2; exit 2', {
      plant: (tmp) => {
        for (const name of planted)
          mkdirSync(join(tmp, `tokencli-training-${name}`, 'cache'), { recursive: true });
      },
    });
    const result = await build.ended;
    expect(result.stderr).toBe(
      'build-sea: `tokencli serve` exited with 2 before listening: error: cannot listen\n',
    );
    expect(result.code).toBe(1);
    // Its own is gone too: the build failed and cleaned up.
    expect(trainingDirs(build.tmp).sort()).toEqual(
      [`tokencli-training-${process.pid}-DeF456`, 'tokencli-training-GhI789'].sort(),
    );
  },
);
