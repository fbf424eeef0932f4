/**
 * `tokencli exec -- CMD`: the token reaches CMD's environment, CMD's exit status becomes
 * tokencli's, signals reach CMD, and tokencli's own failures stay distinguishable.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { partsRequired } from '../helpers/ci-required.js';
import { BINARY, CLI, CLI_SH, cleanEnv, runCli, tempDir } from '../helpers/cli.js';
import { serveForFile } from '../helpers/serve.js';
import { demoEnv, tokenRequests } from './env.js';

// --control: one test holds a token request with a fault.
const serve = serveForFile({ args: ['--control'] });
// Each test's own config directory (a tempDir(), removed after the file).
const freshEnv = () => demoEnv(serve.baseUrl);

// curl is what the example runs; CI on Linux installs it (.ci/run), so there the test runs, not skips.
const hasCurl = spawnSync('curl', ['--version']).status === 0 || partsRequired();
const curlSkipped = hasCurl ? '' : ' (skipped: curl is not installed)';

const printEnv =
  'process.stdout.write(JSON.stringify([process.env.TOKENCLI_ACCESS_TOKEN, process.env.TOKENCLI_TOKEN_EXPIRES_AT, process.env.TOKENCLI_BASE_URL, process.argv.slice(1)]))';

const SIGINT_SOON = join(import.meta.dirname, 'fixtures/sigint-soon.cjs');

// The Ctrl-C is sent by a script preloaded through NODE_OPTIONS, timed by the launcher's own
// start; the single executable takes no NODE_OPTIONS (it would pass the preload on to CMD instead).
const sigintSkipped = BINARY ? ' (skipped: the executable takes no NODE_OPTIONS preload)' : '';

// Windows has no signals to deliver: a kill there ends the process at once, and what it ran is not
// told of it, nor is its exit a signal's.
const windows = process.platform === 'win32';
const NO_SIGNALS = ' (skipped on Windows: a kill there ends the process at once, no signal is delivered)';

describe('tokencli exec', () => {
  test.skipIf(BINARY || windows).each([
    ['the cached light answer', [] as string[]],
    ['the full CLI (--force)', ['--force']],
  ])(
    `Ctrl-C before the command starts, on %s: error: interrupted, exit 130, no command${sigintSkipped}${NO_SIGNALS}`,
    async (_, flags) => {
      const env = freshEnv();
      expect((await runCli(['token'], { env })).code).toBe(0);
      const marker = join(tempDir(), 'ran');
      const r = await runCli(
        [
          'exec',
          ...flags,
          '--',
          process.execPath,
          '-e',
          `require('node:fs').writeFileSync(${JSON.stringify(marker)}, '')`,
        ],
        { env: { ...env, NODE_OPTIONS: `--require=${SIGINT_SOON}` } },
      );
      expect({ code: r.code, signal: r.signal, stderr: r.stderr }).toEqual({
        code: 130,
        signal: null,
        stderr: 'error: interrupted\n',
      });
      expect(() => readFileSync(marker)).toThrow();
    },
  );

  // The same promise, timed from outside, as a user's Ctrl-C comes: while the service holds the
  // token request. This one runs against the single executable too.
  test.skipIf(windows)(
    `Ctrl-C while the token is being fetched: error: interrupted, exit 130, no command${NO_SIGNALS}`,
    async () => {
      const env = freshEnv();
      const fault = await fetch(`${serve.baseUrl}/_control/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ endpoint: 'token', delay_ms: 10_000, count: 1 }),
      });
      expect(fault.status).toBeLessThan(300);
      const marker = join(tempDir(), 'ran');
      const [command, ...cliArgs] = CLI;
      const child = spawn(
        command,
        [
          ...cliArgs,
          '--verbose',
          'exec',
          '--',
          process.execPath,
          '-e',
          `require('node:fs').writeFileSync(${JSON.stringify(marker)}, '')`,
        ],
        { env: cleanEnv(env), stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        const before = stderr;
        stderr += d;
        // The trace's request line is written before the request goes out.
        if (!before.includes('http > POST') && stderr.includes('http > POST')) child.kill('SIGINT');
      });
      const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
        child.on('close', (c, s) => resolve([c, s])),
      );
      expect({ code, signal }, stderr).toEqual({ code: 130, signal: null });
      expect(stderr).toMatch(/^error: interrupted$/m);
      expect(() => readFileSync(marker)).toThrow();
    },
  );

  test('runs the command without a shell, with the token, its expiry and the base URL in its environment', async () => {
    const env = freshEnv();
    const token = (await runCli(['token'], { env })).stdout.trim();
    const r = await runCli(['exec', '--', process.execPath, '-e', printEnv, '$HOME', '--profile', 'x'], {
      env,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [accessToken, expiresAt, baseUrl, args] = JSON.parse(r.stdout);
    expect(accessToken).toBe(token);
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
    expect(baseUrl).toBe(serve.baseUrl);
    // Arguments after -- are the command's own, untouched by tokencli or a shell.
    expect(args).toEqual(['$HOME', '--profile', 'x']);
  });

  test('the command gets the token, not the password or client secret that obtained it', async () => {
    const env = freshEnv();
    const script =
      'process.stdout.write(JSON.stringify([process.env.TOKENCLI_PASSWORD, process.env.TOKENCLI_CLIENT_SECRET, process.env.TOKENCLI_CLIENT_ID]))';
    const r = await runCli(['exec', '--', process.execPath, '-e', script], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([null, null, env.TOKENCLI_CLIENT_ID]);
  });

  test('the command gets the client id even when it came from a flag, not the environment', async () => {
    const { TOKENCLI_CLIENT_ID: clientId, ...env } = freshEnv();
    const script = 'process.stdout.write(String(process.env.TOKENCLI_CLIENT_ID))';
    const r = await runCli(['--client-id', String(clientId), 'exec', '--', process.execPath, '-e', script], {
      env,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(clientId);
  });

  test('obtains the token exactly as token does: the cache, --force renews, --min-ttl is judged alike', async () => {
    const env = freshEnv();
    const cached = (await runCli(['token'], { env })).stdout.trim();
    const before = tokenRequests(serve.logs());
    const same = await runCli(['exec', '--', process.execPath, '-e', printEnv], { env });
    expect(JSON.parse(same.stdout)[0]).toBe(cached);
    // A --min-ttl beyond a token's whole life counts as half that life, for exec as for token.
    const longer = await runCli(['exec', '--min-ttl', '7200', '--', process.execPath, '-e', printEnv], {
      env,
    });
    expect(longer.code).toBe(0);
    expect(JSON.parse(longer.stdout)[0]).toBe(cached);
    expect(tokenRequests(serve.logs())).toBe(before);
    const forced = await runCli(['exec', '--force', '--', process.execPath, '-e', printEnv], { env });
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout)[0]).not.toBe(cached);
    expect(tokenRequests(serve.logs())).toBe(before + 1);
  });

  test.skipIf(windows)(
    "the README's --min-ttl example gets the token its comment promises, from the cache the second time (skipped on Windows: the job is a #! sh script)",
    async () => {
      const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
      const example =
        /^tokencli exec --min-ttl (\d+) -- \.\/nightly-sync\.sh +# a token with at least (\d+) minutes left\b/m.exec(
          readme,
        );
      expect(example, 'the README shows exec --min-ttl with a nightly job').not.toBeNull();
      const [, minTtl = '', minutes = ''] = example ?? [];
      expect(Number(minTtl)).toBe(Number(minutes) * 60);
      // The job as the README names it: it reports how long its token has left.
      const dir = tempDir();
      writeFileSync(
        join(dir, 'nightly-sync.sh'),
        `#!/bin/sh\nexec "${process.execPath}" -e 'process.stdout.write(JSON.stringify([process.env.TOKENCLI_ACCESS_TOKEN, Date.parse(process.env.TOKENCLI_TOKEN_EXPIRES_AT) - Date.now()]))'\n`,
        { mode: 0o755 },
      );
      const env = freshEnv();
      const before = tokenRequests(serve.logs());
      const runs: Array<[string, number]> = [];
      for (let i = 0; i < 2; i++) {
        const r = await runCli(['exec', '--min-ttl', minTtl, '--', './nightly-sync.sh'], { env, cwd: dir });
        expect(r.code, r.stderr).toBe(0);
        runs.push(JSON.parse(r.stdout));
      }
      for (const [, left] of runs) expect(left).toBeGreaterThanOrEqual(Number(minTtl) * 1000);
      expect(runs[1]?.[0]).toBe(runs[0]?.[0]);
      expect(tokenRequests(serve.logs()) - before).toBe(1);
    },
  );

  test("exits with the command's exit code", async () => {
    const env = freshEnv();
    const r = await runCli(['exec', '--', process.execPath, '-e', 'process.exit(7)'], { env });
    expect(r).toMatchObject({ code: 7, stderr: '' });
  });

  test.skipIf(windows)(
    `a command killed by a signal gives 128 + the signal number${NO_SIGNALS}`,
    async () => {
      const env = freshEnv();
      const r = await runCli(['exec', '--', process.execPath, '-e', "process.kill(process.pid, 'SIGKILL')"], {
        env,
      });
      expect(r.code).toBe(128 + 9);
    },
  );

  test.skipIf(windows)(
    `SIGTERM sent to tokencli reaches the command, and its exit status comes back${NO_SIGNALS}`,
    async () => {
      const env = cleanEnv(freshEnv());
      await runCli(['token'], { env: demoEnv(serve.baseUrl, env.TOKENCLI_CONFIG_DIR) });
      const script =
        "process.on('SIGTERM', () => { process.stdout.write('got SIGTERM'); process.exit(42); }); process.stdout.write('ready'); setInterval(() => {}, 1000);";
      const [command, ...cliArgs] = CLI;
      const child = spawn(command, [...cliArgs, 'exec', '--', process.execPath, '-e', script], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        if (d.includes('ready')) child.kill('SIGTERM');
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      expect(stdout).toContain('got SIGTERM');
      expect(code).toBe(42);
    },
  );

  test('a command that is not found exits 127, one that is not executable 126 (not on Windows, which has no execute bit), each with an error line', async () => {
    const env = freshEnv();
    const missing = await runCli(['exec', '--', 'tokencli-no-such-command'], { env });
    expect(missing.code).toBe(127);
    expect(missing.stderr).toMatch(/^error: command not found: tokencli-no-such-command$/m);
    if (windows) return;
    const dir = tempDir();
    const file = join(dir, 'not-executable');
    writeFileSync(file, 'echo hi\n', { mode: 0o644 });
    try {
      const notExecutable = await runCli(['exec', '--', file], { env });
      expect(notExecutable.code).toBe(126);
      expect(notExecutable.stderr).toMatch(/^error: cannot run .*not-executable: EACCES$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("tokencli's own failures keep their codes and say error: (the command does not run)", async () => {
    const env = { ...freshEnv(), TOKENCLI_EMAIL: undefined, TOKENCLI_PASSWORD: undefined };
    const r = await runCli(['exec', '--', process.execPath, '-e', 'console.log("ran")'], { env });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: not logged in/m);
  });

  test("usage errors: no command; the command's flags without -- get a hint", async () => {
    const env = freshEnv();
    const none = await runCli(['exec'], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^error: no command to run\nhint: e\.g\. tokencli exec -- /m);
    const dashesOnly = await runCli(['exec', '--min-ttl', '5', '--'], { env });
    expect(dashesOnly.code).toBe(2);
    expect(dashesOnly.stderr).toMatch(/^error: no command to run\nhint: /m);
    const noDashes = await runCli(['exec', 'curl', '-s', 'https://example.invalid'], { env });
    expect(noDashes.code).toBe(2);
    expect(noDashes.stderr).toMatch(/^hint: put -- before the command/m);
    // With -- there, the flag before it is one exec lacks: no advice to add what is there.
    const tokenFlag = await runCli(['exec', '--format', 'env', '--', 'true'], { env });
    expect(tokenFlag.code).toBe(2);
    expect(tokenFlag.stderr).toMatch(/^error: unknown option '--format'$/m);
    expect(tokenFlag.stderr).toMatch(/^hint: exec has no such flag; see tokencli exec --help/m);
  });

  test.skipIf(!hasCurl || windows)(
    `the first example of exec --help works as printed (curl to tokeninfo)${curlSkipped}${windows ? ' (skipped on Windows: it runs the example in /bin/sh)' : ''}`,
    async () => {
      const help = (await runCli(['exec', '--help'])).stdout;
      const example = help
        .split('\nExamples:\n')[1]
        ?.split('\n')
        .map((line) => line.trim())
        .find((line) => line.startsWith('tokencli exec -- sh -c'));
      expect(example).toBeDefined();
      // `tokencli` on PATH is the CLI under test, as for a user who installed it.
      const bin = tempDir();
      writeFileSync(join(bin, 'tokencli'), `#!/bin/sh\nexec ${CLI_SH} "$@"\n`, {
        mode: 0o755,
      });
      const env = cleanEnv({ ...freshEnv(), PATH: `${bin}:${process.env.PATH ?? ''}` });
      const r = spawnSync('/bin/sh', ['-c', example ?? 'false'], { env, encoding: 'utf8', timeout: 20_000 });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ email: 'demo@example.com', status: 'approved' });
    },
  );
});
