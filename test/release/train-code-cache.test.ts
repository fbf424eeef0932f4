/**
 * The code-cache training (scripts/release/train-code-cache.mjs) runs the executable just built:
 * one that fails there ends the build in one line naming the step, how it ended and the last line
 * it said, rather than a stack trace; and its service is stopped either way. The real training is
 * .ci/run's release build, which build-sea.mjs runs in the system's temporary directory.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { collectOutput } from '../helpers/cli.js';
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
 * for) in a process group of its own, as a shell's job is. `use` is the source of the function
 * given the caches and the signal, which may use `runChild`.
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
    `import { runChild } from ${JSON.stringify(pathToFileURL(join(root, 'scripts/release/interruptible.mjs')).href)};`,
    "reportFailures('build-sea');",
    `await withTrainedCodeCaches(${JSON.stringify(exe)}, ${use});`,
  ].join('\n');
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, FAKE_DIR: dir, TMPDIR: tmp },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  // Its whole output once it has closed; no test waits as long as the timeout.
  const ended = collectOutput(child, 120_000);
  started.push(child.pid as number);
  return { child, dir, tmp, ended };
}

/** The process groups of the builds started, ended after each test (a failed one's included). */
const started: number[] = [];
afterEach(() => {
  for (const group of started.splice(0)) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Ended with all its processes.
    }
  }
});

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

/** The fake tokencli's `serve`: its id in `$FAKE_DIR/serve.pid`, its address line, then it runs on. */
const FAKE_SERVE = `  serve) echo $$ > "$FAKE_DIR/serve.pid"; echo '{"base_url":"http://127.0.0.1:9"}'; exec sleep 30 ;;`;

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
        FAKE_SERVE,
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
    const run = train(['case "$1" in', FAKE_SERVE, '  *) kill -SEGV $$ ;;', 'esac'].join('\n'));
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
    const run = train(['case "$1" in', FAKE_SERVE, '  *) echo fine ;;', 'esac'].join('\n'));
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

/**
 * A fake tokencli whose service runs (and ignores SIGINT and SIGTERM with `stubborn`), whose
 * runs are listed in `<dir>/runs`, whose `--version` marks that it began, takes a while and marks
 * that it ended,
 * and whose other runs each write a code cache where the launcher would.
 */
function fakeTokencli({ stubborn = false } = {}) {
  return [
    'echo "$1" >> "$FAKE_DIR/runs"',
    'case "$1" in',
    stubborn ? FAKE_SERVE.replace('serve) ', "serve) trap '' INT TERM; ") : FAKE_SERVE,
    // (The sleep holds none of the run's pipes, which a run's end waits for, as the executable's
    // runs start nothing that outlives them.)
    '  --version) touch "$FAKE_DIR/version-began"; sleep 2 </dev/null >/dev/null 2>&1; touch "$FAKE_DIR/version-ended"; echo 0.1.0 ;;',
    '  *) mkdir -p "$XDG_CACHE_HOME/tokencli/code-cache/v26" && : > "$XDG_CACHE_HOME/tokencli/code-cache/v26/light-token-AbCdEfGhIjKlMnOp" ;;',
    'esac',
  ].join('\n');
}

/** The fake tokencli's runs so far, by their first argument. */
function runs(dir: string): string[] {
  return readFileSync(join(dir, 'runs'), 'utf8').trimEnd().split('\n');
}

/** What build-sea.mjs does with the caches, standing in for node --build-sea: a child that takes a while. */
const slowUse = `async (caches, signal) => {
  const { writeFileSync } = await import('node:fs');
  writeFileSync(process.env.FAKE_DIR + '/use-began', '');
  await runChild('sleep', ['5'], { signal });
  writeFileSync(process.env.FAKE_DIR + '/use-ended', '');
}`;

test.runIf(posix)(
  'a build interrupted while it trains (SIGTERM to the builder alone, as a cancelled job) stops the run under way and the service, removes its training directory and ends by that signal (skipped on Windows: POSIX signals and a #! sh script)',
  async () => {
    const build = startBuild(fakeTokencli());
    await interrupt(build, 'version-began', 'SIGTERM', { group: false });
    // Not one more run, nor the rest of the slow one.
    expect(runs(build.dir)).toEqual(['serve', '--version']);
    expect(existsSync(join(build.dir, 'version-ended'))).toBe(false);
  },
);

test.runIf(posix)(
  'a build interrupted by Ctrl-C (SIGINT to its whole process group, the training runs too) cleans up the same and ends by SIGINT, with no failure said (skipped on Windows: POSIX signals and a #! sh script)',
  async () => {
    const build = startBuild(fakeTokencli());
    await interrupt(build, 'version-began', 'SIGINT', { group: true });
    expect(runs(build.dir)).toEqual(['serve', '--version']);
  },
);

test.runIf(posix)(
  'a build interrupted after the training, while it builds again with the caches, stops that too, cleans up the same and ends by the signal, by Ctrl-C or SIGTERM alone (skipped on Windows: POSIX signals and a #! sh script)',
  async () => {
    const fast = fakeTokencli().replace('sleep 2 </dev/null >/dev/null 2>&1; ', '');
    for (const [signal, group] of [
      ['SIGINT', true],
      ['SIGTERM', false],
    ] as const) {
      const build = startBuild(fast, { use: slowUse });
      await interrupt(build, 'use-began', signal, { group });
      // The build's child was stopped, not waited for.
      expect(existsSync(join(build.dir, 'use-ended'))).toBe(false);
    }
  },
);

test.runIf(posix)(
  'a service that outlives SIGTERM is killed a few seconds on, and the build still cleans up and ends by the signal (skipped on Windows: POSIX signals and a #! sh script)',
  async () => {
    const build = startBuild(fakeTokencli({ stubborn: true }));
    await interrupt(build, 'version-began', 'SIGINT', { group: true });
  },
  20_000,
);

test.runIf(posix)(
  'a second Ctrl-C ends the build at once, while it waits for a service that outlives SIGTERM (skipped on Windows: POSIX signals and a #! sh script)',
  async () => {
    const build = startBuild(fakeTokencli({ stubborn: true }));
    await appears(join(build.dir, 'version-began'));
    const group = -(build.child.pid as number);
    process.kill(group, 'SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(group, 'SIGINT');
    expect(await build.ended).toMatchObject({ code: null, signal: 'SIGINT', stderr: '' });
    // Not waited for (it would have been killed 5 s after the first): left to afterEach, and the
    // training directory for a later build to remove (below).
    expect(serviceRuns(build.dir)).toBe(true);
    expect(trainingDirs(build.tmp)).toHaveLength(1);
  },
);

test.runIf(posix)(
  'a build removes the training directories earlier builds left: this user’s, over an hour old, whose build no longer runs (skipped on Windows: the fake tokencli is a #! sh script)',
  async () => {
    const endedBuild = spawnSync('true').pid;
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    // name → its age, and whether it is a leftover
    const planted: [string, Date, boolean][] = [
      [`${endedBuild}-AbC123`, hoursAgo(2), true],
      // Its build may run unseen, in a container sharing /tmp.
      [`${endedBuild}-AbC124`, hoursAgo(0.5), false],
      [`${process.pid}-DeF456`, hoursAgo(2), false],
      // From before the names held an id.
      ['GhI789', hoursAgo(2), true],
      ['GhI780', hoursAgo(0.5), false],
    ];
    const build = startBuild('echo "error: cannot listen" >&2; exit 2', {
      plant: (tmp) => {
        for (const [name, age] of planted) {
          const dir = join(tmp, `tokencli-training-${name}`);
          mkdirSync(join(dir, 'cache'), { recursive: true });
          utimesSync(dir, age, age);
        }
      },
    });
    const result = await build.ended;
    expect(result.stderr).toBe(
      'build-sea: `tokencli serve` exited with 2 before listening: error: cannot listen\n',
    );
    expect(result.code).toBe(1);
    // Its own is gone too: the build failed and cleaned up.
    expect(trainingDirs(build.tmp).sort()).toEqual(
      planted
        .filter(([, , left]) => !left)
        .map(([name]) => `tokencli-training-${name}`)
        .sort(),
    );
  },
);
