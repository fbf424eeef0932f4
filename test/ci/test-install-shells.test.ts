/**
 * scripts/ci/test-install-shells.sh runs install.sh's tests by six shells, three at a time: each
 * run's output comes whole after its result, in the shells' order; one failing run fails the
 * script after all have run; a missing shell is said before anything runs; and stopped, the script
 * stops its runs and leaves none of their files. Each test runs the real script in a copy whose
 * vitest is a stand-in that logs when it starts and ends, and whose shells are stand-ins on PATH.
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

const root = resolve(import.meta.dirname, '..', '..');
const SHELLS = ['zsh', 'ksh93', 'bash', 'busybox', 'mksh', 'yash'];
const bash = spawnSync('sh', ['-c', 'command -v bash'], { encoding: 'utf8' }).stdout.trim();

/**
 * A copy of the script, with a vitest that logs "start SHELL PID", "tmp TMPDIR ITS-REAL-PATH",
 * "pause PID" and "end SHELL" to runs.log, prints two lines around a pause of PAUSE seconds, leaves a file in its TMPDIR and fails for the
 * shell in FAIL; and a bin directory holding a stand-in for each shell but those in `missing`.
 */
function checkout(missing: string[] = []) {
  const dir = tempDir('tokencli-install-shells-test-');
  mkdirSync(join(dir, 'scripts', 'ci'), { recursive: true });
  cpSync(
    join(root, 'scripts', 'ci', 'test-install-shells.sh'),
    join(dir, 'scripts', 'ci', 'test-install-shells.sh'),
  );
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  const vitest = join(dir, 'node_modules', '.bin', 'vitest');
  writeFileSync(
    vitest,
    [
      '#!/bin/sh',
      'shell=$TOKENCLI_TEST_INSTALL_SHELL',
      'echo "start $shell $$" >> runs.log',
      'echo "tmp $TMPDIR $(cd "$TMPDIR" && pwd -P)" >> runs.log',
      'echo "first line by $shell"',
      ': > "$TMPDIR/left-by-the-run"',
      // Stopped, it stops its pause too, as vitest stops its workers.
      "trap 'kill $pause; wait $pause; exit 143' TERM",
      'sleep "$PAUSE" & pause=$!',
      'echo "pause $pause" >> runs.log',
      'wait $pause',
      'echo "last line by $shell"',
      'echo "end $shell" >> runs.log',
      '[ "$shell" != "$FAIL" ]',
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

function run(where: ReturnType<typeof checkout>, env: Record<string, string>) {
  const child = spawn(bash, [join(where.dir, 'scripts', 'ci', 'test-install-shells.sh')], {
    cwd: where.dir,
    env: { ...process.env, PATH: `${where.bin}:${process.env.PATH}`, TMPDIR: where.tmp, ...env },
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

  test('stopped (SIGTERM), it stops the runs going and leaves none of their files', async () => {
    const where = checkout();
    const { child, ended } = run(where, { PAUSE: '60' });
    const end = Date.now() + 10_000;
    while ((runsLog(where.dir).match(/^pause /gm) ?? []).length < 3 && Date.now() < end)
      await new Promise((res) => setTimeout(res, 25));
    const pids = [...runsLog(where.dir).matchAll(/^start \S+(?: \S+)? (\d+)$/gm)].map((m) => Number(m[1]));
    expect(pids).toHaveLength(3);
    child.kill('SIGTERM');
    expect((await ended).code).toBe(143);
    const pauses = [...runsLog(where.dir).matchAll(/^pause (\d+)$/gm)].map((m) => Number(m[1]));
    expect(pauses).toHaveLength(3);
    expect([...pids, ...pauses].filter(isRunning)).toEqual([]);
    expect(runsLog(where.dir)).not.toMatch(/^end /m);
    expect(readdirSync(where.tmp)).toEqual([]);
  });
});

/** A directory holding links to the tools the script needs before it looks for the shells, for a PATH without the machine's shells. */
function bashDir(): string {
  const dir = tempDir('tokencli-install-shells-tools-');
  const path = spawnSync('sh', ['-c', 'command -v dirname'], { encoding: 'utf8' }).stdout.trim();
  symlinkSync(path, join(dir, 'dirname'));
  return dir;
}
