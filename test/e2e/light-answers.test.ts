/**
 * The launcher's light answers (src/cli/launcher/light-argv.ts, from the command definitions) against the full CLI: each run
 * records which built modules it loaded (fixtures/record-module-loads.mjs), so a test knows
 * whether the light answer or the full CLI (dist/cli-bundle/main.js) ran; and every answer is
 * compared with the full CLI's for the same command line (fixtures/full-cli.mjs, commander and
 * the command table without the launcher): same stdout, stderr and exit code. Whatever the light
 * path declines — help, bad input, unknown flags, flags that may renew or read stdin — must reach
 * the full CLI, which says what it always said.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { BIN, type CliResult, cleanEnv, runCli, tempDir } from '../helpers/cli.js';
import { serveForFile } from '../helpers/serve.js';
import { readStoredCredentials, writeProfiles, writeStoredTokens } from '../helpers/stored-credentials.js';
import { demoEnv, tokenRequests } from './env.js';

const serve = serveForFile();

const RECORDER = pathToFileURL(resolve(import.meta.dirname, 'fixtures/record-module-loads.mjs')).href;
const FULL_CLI = resolve(import.meta.dirname, 'fixtures/full-cli.mjs');

interface Traced extends CliResult {
  /** The built files the run loaded, by name (`light-exec.cjs`, `main.js`). */
  loaded: string[];
}

/** The environment of a recorded run: `env` plus the preloaded recorder writing to `log`. */
function tracedEnv(env: Record<string, string | undefined>, log: string) {
  return { ...env, NODE_OPTIONS: `--import=${RECORDER}`, RECORD_MODULE_LOADS: log };
}

function loadedFrom(log: string): string[] {
  if (!existsSync(log)) return [];
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  return [...new Set(urls.map((url) => basename(new URL(url).pathname)))];
}

/** Runs the CLI as users do (bin/tokencli.js), or the full CLI alone (`full`), recording loads. */
async function run(args: string[], env: Record<string, string | undefined>, full = false): Promise<Traced> {
  const log = join(tempDir('tokencli-loads-'), 'modules.log');
  const result = await runCli(args, { env: tracedEnv(env, log), ...(full ? { entry: FULL_CLI } : {}) });
  return { ...result, loaded: loadedFrom(log) };
}

const output = ({ code, signal, stdout, stderr }: CliResult) => ({ code, signal, stdout, stderr });

/** A config directory whose profile holds a fresh token of the running service. */
async function cachedEnv(): Promise<Record<string, string>> {
  const env = demoEnv(serve.baseUrl);
  const filled = await runCli(['token'], { env });
  expect(filled.code).toBe(0);
  return env;
}

/** A node script printing what exec gives the command: its TOKENCLI_* variables and arguments. */
const PRINT_ENVIRONMENT =
  "const e = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('TOKENCLI_'))); process.stdout.write(JSON.stringify([e, process.argv.slice(1)]))";

describe('exec with a cached token is answered lightly, as the full exec answers it', () => {
  test('the command gets the same environment and arguments; commander is never loaded', async () => {
    const env = await cachedEnv();
    const args = [
      'exec',
      '--min-ttl',
      '300',
      '--',
      process.execPath,
      '-e',
      PRINT_ENVIRONMENT,
      '$HOME',
      '--profile',
    ];
    const light = await run(args, env);
    expect(light.loaded).toContain('light-exec.cjs');
    expect(light.loaded).not.toContain('main.js');
    const full = await run(args, env, true);
    expect(full.loaded).toContain('main.js');
    expect(output(light)).toEqual(output(full));
    expect(light.code).toBe(0);
    const [commandEnv, commandArgs] = JSON.parse(light.stdout);
    expect(commandEnv.TOKENCLI_ACCESS_TOKEN).toMatch(/\S/);
    expect(commandEnv.TOKENCLI_PASSWORD).toBeUndefined();
    expect(commandEnv.TOKENCLI_CLIENT_SECRET).toBeUndefined();
    expect(commandArgs).toEqual(['$HOME', '--profile']);
  });

  test.each([
    ['an exit code', ['-e', 'process.exit(7)']],
    ['a signal (128 + its number)', ['-e', "process.kill(process.pid, 'SIGKILL')"]],
  ])('passes on %s', async (_name, nodeArgs) => {
    const env = await cachedEnv();
    const args = ['exec', '--', process.execPath, ...nodeArgs];
    const light = await run(args, env);
    expect(light.loaded).not.toContain('main.js');
    expect(output(light)).toEqual(output(await run(args, env, true)));
    // On Windows no signal ends a process: one that kills itself exits 1 (libuv's TerminateProcess).
    const killed = process.platform === 'win32' ? 1 : 128 + 9;
    expect(light.code).toBe(nodeArgs[1]?.includes('SIGKILL') ? killed : 7);
  });

  test('a command that cannot be started: the same error line and 127', async () => {
    const env = await cachedEnv();
    const args = ['exec', '--', 'tokencli-no-such-command', 'arg'];
    const light = await run(args, env);
    expect(light.loaded).toContain('light-exec.cjs');
    expect(light.loaded).not.toContain('main.js');
    expect(output(light)).toEqual(output(await run(args, env, true)));
    expect(light.code).toBe(127);
    expect(light.stderr).toMatch(/^error: command not found: tokencli-no-such-command$/m);
  });

  test.skipIf(process.platform === 'win32')(
    'SIGTERM sent to tokencli reaches the command, and its exit status comes back (skipped on Windows: a kill there ends the process at once, no signal is delivered)',
    async () => {
      const env = await cachedEnv();
      const log = join(tempDir('tokencli-loads-'), 'modules.log');
      const script =
        "process.on('SIGTERM', () => { process.stdout.write('got SIGTERM'); process.exit(42); }); process.stdout.write('ready'); setInterval(() => {}, 1000);";
      const child = spawn(process.execPath, [BIN, 'exec', '--', process.execPath, '-e', script], {
        env: cleanEnv(tracedEnv(env, log)),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        if (d.includes('ready')) child.kill('SIGTERM');
      });
      const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
      expect(stdout).toContain('got SIGTERM');
      expect(code).toBe(42);
      expect(loadedFrom(log)).toContain('light-exec.cjs');
      expect(loadedFrom(log)).not.toContain('main.js');
    },
  );

  test.each([
    ['no command', ['exec']],
    ['an empty command', ['exec', '--', '']],
    ['only --', ['exec', '--min-ttl', '5', '--']],
    ["the command's flags without --", ['exec', 'curl', '-s', 'https://example.invalid']],
    ['a flag exec does not have', ['exec', '--format', 'env', '--', 'true']],
    ['a bad --min-ttl', ['exec', '--min-ttl', '1e3', '--', 'true']],
    ['a flag with a value it does not take', ['exec', '--force=yes', '--', 'true']],
    ['help', ['exec', '--help']],
    ['short help', ['exec', '-h']],
    ['--email without --password-stdin, off a terminal', ['exec', '--email', 'x@example.com', '--', 'true']],
    ['--verbose', ['exec', '--verbose', '--', process.execPath, '-e', '']],
  ])('hands %s to the full CLI, which says what it always said', async (_name, args) => {
    const env = await cachedEnv();
    const light = await run(args, env);
    expect(light.loaded).toContain('main.js');
    expect(output(light)).toEqual(output(await run(args, env, true)));
  });

  test('renews through the full CLI when the cached token is too old for --min-ttl, or with --force', async () => {
    const env = await cachedEnv();
    const before = tokenRequests(serve.logs());
    const print = ['--', process.execPath, '-e', 'process.stdout.write(process.env.TOKENCLI_ACCESS_TOKEN)'];
    const cached = await run(['exec', ...print], env);
    expect(cached.loaded).not.toContain('main.js');
    const forced = await run(['exec', '--force', ...print], env);
    expect(forced.loaded).toContain('main.js');
    expect(forced.code).toBe(0);
    expect(forced.stdout).not.toBe(cached.stdout);
    expect(tokenRequests(serve.logs())).toBe(before + 1);
  });

  test('without a cached token the full CLI obtains one and runs the command', async () => {
    const env = demoEnv(serve.baseUrl);
    const r = await run(['exec', '--', process.execPath, '-e', 'process.exit(3)'], env);
    expect(r.loaded).toContain('light-exec.cjs');
    expect(r.loaded).toContain('main.js');
    expect(output(r)).toMatchObject({ code: 3, stdout: '', stderr: '' });
  });
});

/** Expiry moves on between two runs: its digits (seconds left, times) are not compared. */
const steady = (r: CliResult) => ({
  ...output(r),
  stdout: r.stdout
    .split('\n')
    // The time left moves between the two runs, and with it its units ("in 1h", "in 59m 59s").
    .map((line) => (/expires/.test(line) ? line.replace(/\d+[dhms]?/g, '#').replace(/#(?: #)+/g, '#') : line))
    .join('\n'),
});

const tokeninfoRequests = () =>
  serve
    .logs()
    .split('\n')
    .filter((line) => /GET \/v2\/oauth\/tokeninfo/.test(line)).length;

describe('info is answered lightly, by its own run function, as the full info answers it', () => {
  test.each<[string, string[], Record<string, string>?]>([
    ['--json', ['info', '--json']],
    ['--json --show-tokens', ['info', '--show-tokens', '--json', '--quiet']],
    ['the table', ['info']],
    ['the table in colour', ['info'], { FORCE_COLOR: '1' }],
    ['the table with --no-color', ['--no-color', 'info'], { FORCE_COLOR: '1' }],
  ])('%s: the same output; commander is never loaded', async (_name, args, extra = {}) => {
    const env = { ...(await cachedEnv()), ...extra };
    const before = tokeninfoRequests();
    const light = await run(args, env);
    expect(light.loaded).toContain('light-info.cjs');
    expect(light.loaded).not.toContain('main.js');
    expect(tokeninfoRequests()).toBe(before + 1);
    expect(light.code).toBe(0);
    expect(light.stdout).toMatch(/demo@example\.com/);
    expect(steady(light)).toEqual(steady(await run(args, env, true)));
  });

  test('a token the service refuses: dropped once, reported as the full CLI reports it, asked once', async () => {
    const env = await cachedEnv();
    const configDir = env.TOKENCLI_CONFIG_DIR as string;
    const stored = readStoredCredentials(configDir);
    const tokens = { ...stored.profiles.default?.tokens, access_token: 'revoked-access-token' };
    const outcome = async (full: boolean) => {
      writeStoredTokens(configDir, tokens);
      const before = tokeninfoRequests();
      const r = await run(['info', '--json'], env, full);
      return { r, requests: tokeninfoRequests() - before, kept: readStoredCredentials(configDir) };
    };
    const light = await outcome(false);
    expect(light.r.loaded).not.toContain('main.js');
    expect(light.requests).toBe(1);
    expect(light.r.code).toBe(3);
    expect(light.r.stdout).toBe('');
    const full = await outcome(true);
    expect(output(light.r)).toEqual(output(full.r));
    // The refused token was set aside alike: expired now, so the next token step renews it.
    const expiresAt = (c: typeof light.kept) => Date.parse(String(c.profiles.default?.tokens?.expires_at));
    expect(expiresAt(light.kept)).toBeLessThanOrEqual(Date.now());
    expect(expiresAt(full.kept)).toBeLessThanOrEqual(Date.now());
  });

  test.each([
    ['nothing stored', (env: Record<string, string>) => env, ['info']],
    ['a profile that does not exist', (env: Record<string, string>) => env, ['--profile', 'nope', 'info']],
    [
      'a service that does not answer',
      (env: Record<string, string>) => ({ ...env, TOKENCLI_BASE_URL: 'http://127.0.0.1:9' }),
      ['info', '--json'],
    ],
  ])('%s: the same error and exit code as the full CLI', async (_name, change, args) => {
    const env = change(demoEnv(serve.baseUrl));
    const light = await run(args, env);
    expect(light.loaded).not.toContain('main.js');
    expect(light.code).not.toBe(0);
    expect(light.stderr).toMatch(/^error: /m);
    expect(output(light)).toEqual(output(await run(args, env, true)));
  });

  test.each([
    ['help', ['info', '--help']],
    ['an unknown flag', ['info', '--jsn']],
    ['an operand', ['info', 'extra']],
    ['a flag of another command', ['info', '--format', 'json']],
  ])('hands %s to the full CLI, which says what it always said', async (_name, args) => {
    const env = await cachedEnv();
    const light = await run(args, env);
    expect(light.loaded).toContain('main.js');
    expect(light.loaded).not.toContain('light-info.cjs');
    expect(output(light)).toEqual(output(await run(args, env, true)));
  });
});

describe('status and profile list|show are answered lightly, by their own run functions', () => {
  /** Two profiles in the config file, one of them (`ci`) with a cached token. */
  async function profilesEnv(): Promise<Record<string, string>> {
    const { TOKENCLI_BASE_URL: baseUrl, TOKENCLI_CLIENT_ID: clientId, ...env } = demoEnv(serve.baseUrl);
    const configDir = env.TOKENCLI_CONFIG_DIR as string;
    writeProfiles(configDir, {
      ci: { base_url: baseUrl, client_id: clientId, store: 'file' },
      other: { base_url: 'http://127.0.0.1:9', client_id: 'other-client', store: 'file' },
    });
    expect((await runCli(['--profile', 'ci', 'token'], { env })).code).toBe(0);
    return { ...env, TOKENCLI_PROFILE: 'ci' };
  }

  test.each([
    ['status', ['status']],
    ['status --json', ['status', '--json']],
    ['status --check', ['status', '--check', '--profile', 'ci']],
    ['profile list', ['profile', 'list']],
    ['profile list --json', ['profile', 'list', '--json']],
    ['profile show', ['profile', 'show']],
    ['profile show NAME --json', ['profile', 'show', 'other', '--json']],
    ['profile show of a profile that does not exist', ['profile', 'show', 'nope']],
  ])('%s: the same output and exit code; commander is never loaded', async (_name, args) => {
    const env = await profilesEnv();
    const light = await run(args, env);
    expect(light.loaded.some((file) => /^light-(status|profile)\.cjs$/.test(file))).toBe(true);
    expect(light.loaded).not.toContain('main.js');
    expect(steady(light)).toEqual(steady(await run(args, env, true)));
  });

  test.each([
    ['profile alone', ['profile']],
    ['profile use', ['profile', 'use', 'other']],
    ['profile remove', ['profile', 'remove', 'other']],
    ['status --help', ['status', '--help']],
    ['profile show with two names', ['profile', 'show', 'ci', 'other']],
    ['an unknown flag', ['status', '--jsn']],
  ])('hands %s to the full CLI, which says what it always said', async (_name, args) => {
    const env = await profilesEnv();
    const light = await run(args, env);
    expect(light.loaded).toContain('main.js');
    // The full CLI's run in a config directory of its own, as the command may change it.
    const fullEnv = await profilesEnv();
    const full = await run(args, fullEnv, true);
    const unplaced = (r: CliResult, configDir: string | undefined) =>
      JSON.parse(JSON.stringify(output(r)).replaceAll(String(configDir), 'CONFIG_DIR'));
    expect(unplaced(light, env.TOKENCLI_CONFIG_DIR)).toEqual(unplaced(full, fullEnv.TOKENCLI_CONFIG_DIR));
  });
});

describe('`tokencli version` is answered as --version is', () => {
  test('the same line, without the full CLI', async () => {
    const env = cleanEnv();
    const flag = await run(['--version'], env);
    const command = await run(['version'], env);
    expect(output(command)).toEqual(output(flag));
    expect(command.code).toBe(0);
    expect(command.loaded).not.toContain('main.js');
    expect(output(await run(['version'], env, true))).toEqual(output(flag));
  });
});
