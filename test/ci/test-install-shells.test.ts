/**
 * scripts/ci/test-install-shells.sh runs install.sh's tests by six shells, three at a time: each
 * run's output comes whole after its result, in the shells' order; one failing run fails the
 * script after all have run; a missing shell is said before anything runs; and stopped, the script
 * stops its runs, prints what they had said, removes their temporary directories and ends by the
 * signal it got, so that its caller stops too. Each test runs the real script in a copy whose
 * vitest is a stand-in that logs what it is given and when it starts and ends, and whose shells
 * are stand-ins on PATH.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { collectOutput } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { until } from '../helpers/until.js';

const root = resolve(import.meta.dirname, '..', '..');
const SHELLS = ['zsh', 'ksh93', 'bash', 'busybox', 'mksh', 'yash'];
const bash = spawnSync('sh', ['-c', 'command -v bash'], { encoding: 'utf8' }).stdout.trim();

/**
 * A copy of the script, with a vitest that logs "start SHELL PID", "args ARGUMENTS", "tmp TMPDIR
 * ITS-REAL-PATH", "pause PID" and "end SHELL" to runs.log, prints two lines around a pause of
 * PAUSE seconds, leaves a file in its TMPDIR and fails for the shell in FAIL; stopped, it ends as
 * vitest does (130 on SIGINT, 143 on SIGTERM), after STOPPING seconds (run's default 0). And a bin
 * directory holding a stand-in for each shell but those in `missing`.
 */
function checkout(missing: string[] = []) {
  const dir = tempDir('tokencli-install-shells-test-');
  mkdirSync(join(dir, 'scripts', 'ci'), { recursive: true });
  cpSync(
    join(root, 'scripts', 'ci', 'test-install-shells.sh'),
    join(dir, 'scripts', 'ci', 'test-install-shells.sh'),
  );
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  // The pause in node, as vitest is: an asynchronous command of a script has SIGINT ignored, which
  // sh may not trap again, and node's handler still gets it.
  const pause = join(dir, 'pause.mjs');
  writeFileSync(
    pause,
    [
      "import { appendFileSync } from 'node:fs';",
      'const shell = process.env.TOKENCLI_TEST_INSTALL_SHELL;',
      "appendFileSync('runs.log', 'pause ' + process.pid + '\\n');",
      'const stop = (status) => setTimeout(() => process.exit(status), Number(process.env.STOPPING) * 1000);',
      "process.on('SIGINT', () => stop(130));",
      "process.on('SIGTERM', () => stop(143));",
      'setTimeout(() => {',
      "  console.log('last line by ' + shell);",
      "  appendFileSync('runs.log', 'end ' + shell + '\\n');",
      '  process.exit(shell === process.env.FAIL ? 1 : 0);',
      '}, Number(process.env.PAUSE) * 1000);',
      '',
    ].join('\n'),
  );
  const vitest = join(dir, 'node_modules', '.bin', 'vitest');
  writeFileSync(
    vitest,
    [
      '#!/bin/sh',
      'shell=$TOKENCLI_TEST_INSTALL_SHELL',
      'echo "start $shell $$" >> runs.log',
      'echo "args $*" >> runs.log',
      'echo "tmp $TMPDIR $(cd "$TMPDIR" && pwd -P)" >> runs.log',
      'echo "first line by $shell"',
      ': > "$TMPDIR/left-by-the-run"',
      `exec '${process.execPath}' '${pause}'`,
      '',
    ].join('\n'),
  );
  chmodSync(vitest, 0o755);
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  for (const shell of SHELLS.filter((name) => !missing.includes(name))) {
    writeFileSync(join(bin, shell), '#!/bin/sh\nexit 0\n');
    chmodSync(join(bin, shell), 0o755);
  }
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  return { dir, bin, tmp };
}

/**
 * The script in the copy. `group`: in a process group of its own, as a terminal's job is;
 * `ignoringSigint`: started with SIGINT ignored, as an asynchronous command of a script is.
 */
function run(
  where: ReturnType<typeof checkout>,
  env: Record<string, string>,
  group = false,
  ignoringSigint = false,
) {
  const script = join(where.dir, 'scripts', 'ci', 'test-install-shells.sh');
  const [command, args] = ignoringSigint
    ? ['sh', ['-c', 'trap "" INT; exec "$0" "$1"', bash, script]]
    : [bash, [script]];
  const child = spawn(command, args, {
    cwd: where.dir,
    detached: group,
    env: {
      ...process.env,
      PATH: `${where.bin}:${process.env.PATH}`,
      TMPDIR: where.tmp,
      STOPPING: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { child, ended: collectOutput(child) };
}

const runsLog = (dir: string) =>
  existsSync(join(dir, 'runs.log')) ? readFileSync(join(dir, 'runs.log'), 'utf8') : '';

/** The most runs going at once, by the order of their starts and ends in runs.log. */
function mostAtOnce(log: string): number {
  let now = 0;
  let most = 0;
  for (const line of log.trim().split('\n')) {
    if (line.startsWith('start ')) now += 1;
    else if (line.startsWith('end ')) now -= 1;
    most = Math.max(most, now);
  }
  return most;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(process.platform === 'win32' || !bash)('test-install-shells.sh (needs bash and sh)', () => {
  test('runs three at a time; each output whole after its result, in order; one failure fails the script after all', async () => {
    const where = checkout();
    const { bin } = where;
    const { code, stdout, stderr } = await run(where, { PAUSE: '1', FAIL: `${bin}/mksh` }).ended;
    expect(stderr).toBe('');
    expect(code).toBe(1);
    const named = [
      `${bin}/zsh`,
      `${bin}/ksh93`,
      `${bin}/bash --posix`,
      `${bin}/busybox sh`,
      `${bin}/mksh`,
      `${bin}/yash`,
    ];
    expect(stdout).toBe(
      named
        .map(
          (shell) =>
            `test-install-shells: install.sh's tests run by ${shell}: ${shell.endsWith('mksh') ? 'FAILED' : 'passed'}\n` +
            `first line by ${shell}\nlast line by ${shell}\n`,
        )
        .join(''),
    );
    const log = runsLog(where.dir);
    expect(log.match(/^end /gm)).toHaveLength(6);
    expect(log.match(/^args .*$/gm)).toEqual(Array(6).fill('args run test/release/install-script.test.ts'));
    expect(mostAtOnce(log)).toBe(3);
    // Each run's TMPDIR was its own, inside the script's directory, reached through a link; that
    // directory is gone.
    const tmps = [...log.matchAll(/^tmp (\S+) (\S+)$/gm)].map((m) => ({
      given: m[1] ?? '',
      real: m[2] ?? '',
    }));
    expect(new Set(tmps.map(({ real }) => real)).size).toBe(6);
    for (const { given, real } of tmps) {
      expect(given.startsWith(`${where.tmp}/tokencli-install-shells.`)).toBe(true);
      // The link is the script's, not one above the test's own directory.
      expect(real).not.toBe(given.replace(where.tmp, realpathSync(where.tmp)));
      expect(real.split('/').pop()).toBe(given.split('/').pop());
    }
    expect(readdirSync(where.tmp)).toEqual([]);
  });

  test('all passing: exit 0', async () => {
    const where = checkout();
    const { code, stdout } = await run(where, { PAUSE: '0' }).ended;
    expect(code).toBe(0);
    expect(stdout.match(/: passed\n/g)).toHaveLength(6);
    expect(readdirSync(where.tmp)).toEqual([]);
  });

  test('a shell that is not installed is named before anything runs', async () => {
    const where = checkout(['mksh']);
    // Without the stand-in, PATH must not find a real one either.
    const { code, stdout, stderr } = await run(where, { PAUSE: '0', PATH: `${where.bin}:${bashDir()}` })
      .ended;
    expect({ code, stdout, stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr: 'test-install-shells: mksh is not installed (scripts/ci/linux-test-deps.sh installs it)\n',
    });
    expect(runsLog(where.dir)).toBe('');
  });

  /** The script with three runs going (each paused for a minute), and the pids of those runs and their pauses. */
  async function threeRunsGoing(env: Record<string, string> = {}, group = false, ignoringSigint = false) {
    const where = checkout();
    const script = run(where, { PAUSE: '60', ...env }, group, ignoringSigint);
    await until('three runs to pause', () => (runsLog(where.dir).match(/^pause /gm) ?? []).length >= 3);
    const pidsOf = (what: string) =>
      [...runsLog(where.dir).matchAll(new RegExp(`^${what} .*?(\\d+)$`, 'gm'))].map((m) => Number(m[1]));
    const pids = [...pidsOf('start'), ...pidsOf('pause')];
    expect(pids).toHaveLength(6);
    return { where, ...script, pids };
  }

  /** What the script prints for the first three shells, stopped by `signal` while each ran. */
  const saidWhenStopped = (bin: string, signal: string) =>
    [`${bin}/zsh`, `${bin}/ksh93`, `${bin}/bash --posix`]
      .map(
        (shell) =>
          `test-install-shells: install.sh's tests run by ${shell}: stopped by ${signal}\nfirst line by ${shell}\n`,
      )
      .join('');

  /** The script ended by `signal`, having printed what its three runs said; none of them runs on, none ended, no fourth started, nothing left in TMPDIR. */
  async function expectStoppedBy(
    signal: NodeJS.Signals,
    going: Awaited<ReturnType<typeof threeRunsGoing>>,
    orStatus?: number,
  ) {
    const { where, ended, pids } = going;
    const result = await ended;
    // Killed by the signal, not exiting: a caller's shell stops too, rather than going on to its
    // next step as after a failure. (`orStatus`: a bash that keeps a signal ignored on entry
    // ignored, as POSIX has it, ends by its status instead; its caller ignores the signal too.)
    const how =
      orStatus !== undefined && result.code === orStatus
        ? { code: orStatus, signal: null }
        : { code: null, signal };
    expect(result).toEqual({ ...how, stdout: saidWhenStopped(where.bin, signal), stderr: '' });
    expect(pids.filter(isRunning)).toEqual([]);
    expect(runsLog(where.dir)).not.toMatch(/^(end |start \S+\/busybox)/m);
    expect(readdirSync(where.tmp)).toEqual([]);
  }

  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    test(`stopped (${signal}), it stops its runs, prints what they said, removes their directories, and ends by ${signal}`, async () => {
      const going = await threeRunsGoing();
      going.child.kill(signal);
      await expectStoppedBy(signal, going);
    });
  }

  for (const ignoringSigint of [false, true]) {
    test(
      ignoringSigint
        ? 'Ctrl-C where it was started with SIGINT ignored, and only its runs see it: it stops them all and ends by SIGINT'
        : 'Ctrl-C, which its runs get too and end on: it stops the others and ends by SIGINT, so its caller stops',
      async () => {
        const going = await threeRunsGoing({}, true, ignoringSigint);
        process.kill(-(going.child.pid ?? 0), 'SIGINT');
        await expectStoppedBy('SIGINT', going, ignoringSigint ? 130 : undefined);
      },
    );
  }

  test('a second signal while it stops its runs does not cut the clean-up short', async () => {
    const going = await threeRunsGoing({ STOPPING: '1' });
    going.child.kill('SIGTERM');
    await new Promise((res) => setTimeout(res, 300));
    going.child.kill('SIGTERM');
    going.child.kill('SIGINT');
    await expectStoppedBy('SIGTERM', going);
  });
});

/** A directory holding links to the tools the script needs before it looks for the shells, for a PATH without the machine's shells. */
function bashDir(): string {
  const dir = tempDir('tokencli-install-shells-tools-');
  const path = spawnSync('sh', ['-c', 'command -v dirname'], { encoding: 'utf8' }).stdout.trim();
  symlinkSync(path, join(dir, 'dirname'));
  return dir;
}
