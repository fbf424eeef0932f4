/**
 * `npm run build` (scripts/build.mjs) runs one build at a time in a checkout (scripts/build-lock.mjs):
 * a second one waits for the first and says so, a lock its holder left when killed, or stopped
 * touching, is taken over, and however a build ends — done, failed, interrupted — its lock is
 * gone. Each test runs the real build script in a copy whose tsc and bundle.mjs are stand-ins that
 * log what they do.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir, tempDirInSystemTmp } from './helpers/temp-dirs.js';
import { until } from './helpers/until.js';

const root = resolve(import.meta.dirname, '..');

/** A checkout with the real build scripts, whose tsc (TSC_MS long; TSC_FAIL fails) and bundle.mjs log to build.log. */
function checkout(dir = tempDir('tokencli-build-test-')): string {
  mkdirSync(join(dir, 'scripts', 'release'), { recursive: true });
  for (const file of ['build.mjs', 'build-lock.mjs', 'release/interruptible.mjs', 'release/failure.mjs'])
    cpSync(join(root, 'scripts', file), join(dir, 'scripts', file));
  mkdirSync(join(dir, 'node_modules', 'typescript', 'bin'), { recursive: true });
  writeFileSync(
    join(dir, 'node_modules', 'typescript', 'bin', 'tsc'),
    [
      "const { appendFileSync, mkdirSync } = require('node:fs');",
      "const log = (what) => appendFileSync('build.log', process.env.LABEL + ' ' + what + '\\n');",
      "log('tsc ' + process.pid);",
      "if (process.env.TSC_FAIL) { console.error('error TS1005: stand-in failure'); process.exit(3); }",
      "setTimeout(() => { mkdirSync('dist', { recursive: true }); log('tsc done'); }, Number(process.env.TSC_MS ?? 0));",
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'scripts', 'bundle.mjs'),
    "import { appendFileSync } from 'node:fs';\nappendFileSync('build.log', process.env.LABEL + ' bundle\\n');\n",
  );
  return dir;
}

function build(dir: string, label: string, env: Record<string, string> = {}, args: string[] = []) {
  const child = spawn(process.execPath, [join(dir, 'scripts', 'build.mjs'), ...args], {
    cwd: dir,
    env: { ...process.env, LABEL: label, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const ended = new Promise<{ status: number | null; signal: NodeJS.Signals | null; stderr: string }>((res) =>
    child.once('close', (status, signal) => res({ status, signal, stderr })),
  );
  return { child, ended, stderr: () => stderr };
}

const log = (dir: string) =>
  existsSync(join(dir, 'build.log')) ? readFileSync(join(dir, 'build.log'), 'utf8') : '';

/** A build "a" in a fresh checkout, once its tsc (which takes `tscMs`) has started: the checkout, the build and its tsc's pid. */
async function buildInTsc(tscMs: number) {
  const dir = checkout();
  const first = build(dir, 'a', { TSC_MS: String(tscMs) });
  await until('the first build', () => log(dir).includes('a tsc'));
  return { dir, first, tscPid: Number(/a tsc (\d+)/.exec(log(dir))?.[1]) };
}

const lockFile = (dir: string) => join(dir, '.tmp', 'build.lock');
const onPosix = process.platform !== 'win32';

/** A checkout whose .tmp/build.lock holds `content`, last touched `ago` ms ago. */
function checkoutWithLock(content: string, ago = 0): string {
  const dir = checkout();
  mkdirSync(join(dir, '.tmp'));
  writeFileSync(lockFile(dir), content);
  const touched = new Date(Date.now() - ago);
  utimesSync(lockFile(dir), touched, touched);
  return dir;
}

test('a build removes the previous dist/, runs tsc then the bundles, and leaves no lock', async () => {
  const dir = checkout();
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'dist', 'deleted-from-src.js'), '');
  const run = await build(dir, 'a').ended;
  expect(run).toEqual({ status: 0, signal: null, stderr: '' });
  expect(log(dir)).toMatch(/^a tsc \d+\na tsc done\na bundle\n$/);
  expect(existsSync(join(dir, 'dist', 'deleted-from-src.js'))).toBe(false);
  expect(existsSync(lockFile(dir))).toBe(false);
});

test('a second build waits for the first, saying so once, and runs after it', async () => {
  const { dir, first } = await buildInTsc(3000);
  const second = build(dir, 'b');
  await until('the second to wait', () => second.stderr().includes('waiting'));
  const [a, b] = await Promise.all([first.ended, second.ended]);
  expect(a.status).toBe(0);
  expect(b.status).toBe(0);
  expect(b.stderr).toBe(
    `build: waiting for the build that process ${first.child.pid} runs in this checkout to end\n`,
  );
  expect(log(dir)).toMatch(/^a tsc \d+\na tsc done\na bundle\nb tsc \d+\nb tsc done\nb bundle\n$/);
  expect(existsSync(lockFile(dir))).toBe(false);
});

test('a build that runs longer than a lock goes stale keeps it, as it touches it: the second waits to the end', async () => {
  const { dir, first } = await buildInTsc(12_000);
  const second = build(dir, 'b');
  const [a, b] = await Promise.all([first.ended, second.ended]);
  expect(a.status).toBe(0);
  expect(b).toEqual({
    status: 0,
    signal: null,
    stderr: `build: waiting for the build that process ${first.child.pid} runs in this checkout to end\n`,
  });
  expect(log(dir)).toMatch(/^a tsc \d+\na tsc done\na bundle\nb tsc \d+\nb tsc done\nb bundle\n$/);
}, 30_000);

test('each build waited for is said: a third build says whom it waits for after the first ends', async () => {
  const { dir, first } = await buildInTsc(3000);
  const second = build(dir, 'b', { TSC_MS: '500' });
  const third = build(dir, 'c', { TSC_MS: '500' });
  const [, b, c] = await Promise.all([first.ended, second.ended, third.ended]);
  const waitedFor = (stderr: string) => [...stderr.matchAll(/process (\d+) runs/g)].map((m) => Number(m[1]));
  const [a, bPid, cPid] = [first.child.pid, second.child.pid, third.child.pid];
  // The one that took the lock after the first waited for the first alone; the other, for the
  // first and then for that one.
  const byB = waitedFor(b.stderr);
  expect([byB, waitedFor(c.stderr)]).toEqual(byB.length === 1 ? [[a], [a, bPid]] : [[a, cPid], [a]]);
  expect(log(dir)).toMatch(
    /^a tsc \d+\na tsc done\na bundle\n([bc]) tsc \d+\n\1 tsc done\n\1 bundle\n[bc] tsc/,
  );
}, 20_000);

/** Runs `use(pid)` while a process that is no build (nor the build's parent) runs with that pid. */
async function withOtherProcess(use: (pid: number) => Promise<void>): Promise<void> {
  const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  const gone = new Promise((res) => other.once('exit', res));
  try {
    await use(other.pid as number);
  } finally {
    other.kill();
    await gone;
  }
}

test('a lock untouched for ten seconds is taken over at once, though a process has its pid (a zombie, a pid given again)', () =>
  withOtherProcess(async (pid) => {
    const dir = checkoutWithLock(`${pid}\n`, 60_000);
    const run = await build(dir, 'a').ended;
    expect(run).toEqual({ status: 0, signal: null, stderr: '' });
    expect(existsSync(lockFile(dir))).toBe(false);
  }));

test(
  'a lock a running process holds but stops touching is waited for until it goes stale',
  () =>
    withOtherProcess(async (pid) => {
      // Touched seven seconds ago: the build, however slowly it starts on a loaded machine, finds it
      // still fresh, and waits the three seconds left.
      const dir = checkoutWithLock(`${pid}\n`, 7_000);
      const started = Date.now();
      const run = await build(dir, 'a').ended;
      expect(run).toEqual({
        status: 0,
        signal: null,
        stderr: `build: waiting for the build that process ${pid} runs in this checkout to end\n`,
      });
      expect(Date.now() - started).toBeGreaterThan(1_500);
      expect(existsSync(lockFile(dir))).toBe(false);
    }),
  20_000,
);

test.each([
  ['a process that is gone', () => `${spawnSync(process.execPath, ['-e', '']).pid}\n`],
  ['no pid', () => 'not a pid\n'],
  ['nothing', () => ''],
])('a lock left holding %s is taken over without waiting', async (_, content) => {
  const dir = checkoutWithLock(content());
  const run = await build(dir, 'a').ended;
  expect(run).toEqual({ status: 0, signal: null, stderr: '' });
  expect(log(dir)).toContain('a bundle\n');
  expect(existsSync(lockFile(dir))).toBe(false);
});

test.runIf(onPosix)(
  "a lock left holding the pid this build has now, as a container's next run may, is taken over (skipped on Windows: no exec)",
  async () => {
    const dir = checkout();
    mkdirSync(join(dir, '.tmp'));
    // The shell writes its own pid and then becomes the build, which keeps that pid.
    const shell = spawn(
      'sh',
      ['-c', `echo $$ > .tmp/build.lock && exec "$0" scripts/build.mjs`, process.execPath],
      { cwd: dir, env: { ...process.env, LABEL: 'a' }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    shell.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const status = await new Promise((res) => shell.once('close', res));
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    expect(log(dir)).toContain('a bundle\n');
    expect(existsSync(lockFile(dir))).toBe(false);
  },
  20_000,
);

test('a failing step ends the build with its exit code, runs nothing after it, and leaves no lock', async () => {
  const dir = checkout();
  const run = await build(dir, 'a', { TSC_FAIL: '1' }).ended;
  expect(run).toEqual({ status: 3, signal: null, stderr: 'error TS1005: stand-in failure\n' });
  expect(log(dir)).not.toContain('bundle');
  expect(existsSync(lockFile(dir))).toBe(false);
});

test.each([
  [
    '.tmp is a file',
    (dir: string) => writeFileSync(join(dir, '.tmp'), ''),
    /^build: cannot take the build lock .*: EEXIST: /,
  ],
  [
    'the lock is a directory',
    (dir: string) => mkdirSync(lockFile(dir), { recursive: true }),
    /^build: cannot read the build lock .*: EISDIR: /,
  ],
])('where %s, it says so in one line and builds nothing', async (_, spoil, said) => {
  const dir = checkout();
  spoil(dir);
  const run = await build(dir, 'a').ended;
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(said);
  expect(run.stderr.split('\n')).toHaveLength(2);
  expect(log(dir)).toBe('');
});

// Root may remove anything: it runs the build as nobody, beside a lock of root's in a directory
// open to all but sticky, as /tmp is.
const asRoot = process.getuid?.() === 0;
const setpriv = onPosix
  ? spawnSync('sh', ['-c', 'command -v setpriv'], { encoding: 'utf8' }).stdout.trim()
  : '';
test.runIf(asRoot && setpriv !== '')(
  "a lock nobody holds that this user may not remove is said in one line (skipped unless root with setpriv: it builds as nobody, beside root's lock)",
  async () => {
    // In /tmp, as this run's own temporary directory is closed to nobody.
    const dir = checkout(await tempDirInSystemTmp('tokencli-build-test-'));
    chmodSync(dir, 0o755);
    mkdirSync(join(dir, '.tmp'));
    chmodSync(join(dir, '.tmp'), 0o1777);
    const gone = `${spawnSync(process.execPath, ['-e', '']).pid}\n`;
    writeFileSync(lockFile(dir), gone);
    const run = spawnSync(
      setpriv,
      ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, 'scripts/build.mjs'],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, LABEL: 'a' } },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(`^build: cannot remove the build lock ${lockFile(dir)} that no build holds: [^\n]+\n$`),
    );
    expect(readFileSync(lockFile(dir), 'utf8')).toBe(gone);
    expect(log(dir)).toBe('');
  },
);

test.runIf(asRoot && setpriv !== '')(
  "a previous build this user may not remove is said in one line, and its lock is gone (skipped unless root with setpriv: it builds as nobody, beside root's dist/)",
  async () => {
    const dir = checkout(await tempDirInSystemTmp('tokencli-build-test-'));
    chmodSync(dir, 0o777);
    mkdirSync(join(dir, 'dist', 'cli'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'cli', 'index.js'), '');
    const run = spawnSync(
      setpriv,
      ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, 'scripts/build.mjs'],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, LABEL: 'a' } },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^build: cannot remove the previous build: EACCES\b[^\n]*\n$/);
    expect(existsSync(join(dir, 'dist', 'cli', 'index.js'))).toBe(true);
    expect(existsSync(lockFile(dir))).toBe(false);
    expect(log(dir)).toBe('');
  },
);

test('an argument it does not know is refused before anything runs', async () => {
  const dir = checkout();
  const run = await build(dir, 'a', {}, ['--relaese']).ended;
  expect(run).toEqual({ status: 2, signal: null, stderr: 'build: usage: build.mjs [--release]\n' });
  expect(log(dir)).toBe('');
  expect(existsSync(join(dir, '.tmp'))).toBe(false);
});

test.runIf(onPosix)(
  'interrupted in a step, it stops the step and removes its lock (skipped on Windows: no SIGINT to send)',
  async () => {
    const { dir, first: run, tscPid } = await buildInTsc(20_000);
    run.child.kill('SIGINT');
    expect((await run.ended).signal).toBe('SIGINT');
    expect(existsSync(lockFile(dir))).toBe(false);
    expect(() => process.kill(tscPid, 0)).toThrow();
    expect(log(dir)).not.toContain('bundle');
  },
  20_000,
);

test.runIf(onPosix)(
  "interrupted while it waits, it ends and leaves the running build's lock alone (skipped on Windows: no SIGINT to send)",
  async () => {
    const { dir, first } = await buildInTsc(20_000);
    const second = build(dir, 'b');
    await until('the second to wait', () => second.stderr().includes('waiting'));
    second.child.kill('SIGINT');
    expect((await second.ended).signal).toBe('SIGINT');
    expect(readFileSync(lockFile(dir), 'utf8')).toBe(`${first.child.pid}\n`);
    first.child.kill('SIGINT');
    expect((await first.ended).signal).toBe('SIGINT');
    expect(log(dir)).not.toContain('b tsc');
  },
  20_000,
);

test.runIf(onPosix)(
  'a build killed outright leaves its lock, and the next build takes it over (skipped on Windows: no SIGKILL to send)',
  async () => {
    const { dir, first, tscPid } = await buildInTsc(20_000);
    first.child.kill('SIGKILL');
    // Its tsc, orphaned, would still write (and holds the output the test waits on): ended too,
    // as the builder's terminal would.
    process.kill(tscPid, 'SIGKILL');
    await first.ended;
    expect(readFileSync(lockFile(dir), 'utf8')).toBe(`${first.child.pid}\n`);
    const run = await build(dir, 'b').ended;
    expect(run).toEqual({ status: 0, signal: null, stderr: '' });
    expect(log(dir)).toContain('b bundle\n');
    expect(existsSync(lockFile(dir))).toBe(false);
  },
  20_000,
);
