/**
 * Runs the built CLI (`bin/tokencli.js` → `dist/`) as a child process, the way users and scripts
 * do. Every run gets its own config dir unless the test passes one, and an environment scrubbed
 * of the developer's TOKENCLI_* variables and proxies.
 */
import { type ChildProcess, type ChildProcessByStdio, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { tempDir as registeredTempDir } from './temp-dirs.js';

export const BIN = resolve(import.meta.dirname, '../../bin/tokencli.js');

/**
 * The single executable to test instead of `node bin/tokencli.js` (TOKENCLI_BINARY, e.g. the one
 * `npm run build:release` extracts; .ci/run sets it for one run of test/e2e), or undefined.
 */
export const BINARY = process.env.TOKENCLI_BINARY ? resolve(process.env.TOKENCLI_BINARY) : undefined;

/** The command line that runs the CLI, before its arguments: the executable, or node and BIN. */
export const CLI: readonly [string, ...string[]] = BINARY ? [BINARY] : [process.execPath, BIN];

/** {@link CLI} as words for `/bin/sh -c` (single-quoted), for tests that run it in a shell session. */
export const CLI_SH = CLI.map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(' ');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Written to stdin, then stdin is closed. Without it stdin is closed empty. */
  input?: string;
  timeoutMs?: number;
  cwd?: string;
  /** Runs the CLI under this umask (through /bin/sh), e.g. '000'; POSIX only (an error on Windows). */
  umask?: string;
  /** The script node runs instead of bin/tokencli.js (e.g. the full CLI without the launcher). */
  entry?: string;
}

/** A temporary directory, removed after the test file (test/setup/remove-temp-dirs.ts). */
export function tempDir(prefix = 'tokencli-test-'): string {
  return registeredTempDir(prefix);
}

/** Writes `config` as JSON to `dir/name` (a `tokencli serve --config` file) and returns its path. */
export function serviceConfigFile(
  config: unknown,
  { dir = tempDir(), name = 'service.json' }: { dir?: string; name?: string } = {},
): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(config));
  return path;
}

/**
 * The environment a test CLI runs with: no inherited TOKENCLI_*, proxies, or colours, and not who
 * ran the suite by sudo or doas (install.sh, as root, refuses its default directory then).
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      /^TOKENCLI_/.test(k) ||
      /^(https?|no|all)_proxy$/i.test(k) ||
      k === 'NO_COLOR' ||
      k === 'FORCE_COLOR' ||
      k === 'SUDO_USER' ||
      k === 'DOAS_USER'
    ) {
      continue;
    }
    env[k] = v;
  }
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  // `entry` is a script of the package, which only node runs.
  const [file, ...fileArgs] = options.entry ? [process.execPath, options.entry] : CLI;
  // Windows has neither a umask nor /bin/sh: a test of modes under a umask skips there.
  if (options.umask && process.platform === 'win32')
    throw new Error(
      'runCli: the umask option needs /bin/sh and a umask, which Windows lacks; skip this test there',
    );
  const command = options.umask
    ? (['/bin/sh', ['-c', `umask ${options.umask} && exec "$0" "$@"`, file, ...fileArgs, ...args]] as const)
    : ([file, [...fileArgs, ...args]] as const);
  const child = spawn(command[0], [...command[1]], {
    env: cleanEnv(options.env),
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const result = collectOutput(child, options.timeoutMs);
  child.stdin.on('error', () => {}); // the CLI may exit before reading its stdin
  child.stdin.end(options.input ?? '');
  return result;
}

/** Everything a child prints until it closes; it is killed (SIGKILL) after `timeoutMs`. */
export function collectOutput(
  child: ChildProcessByStdio<Writable | null, Readable, Readable>,
  timeoutMs = 20_000,
): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
}

/** The demo's three paste-ready lines (configure, token, info) in serve's stderr, unindented. */
export function tryItLines(stderr: string): string[] {
  const lines = stderr.split('\n');
  const first = lines.indexOf('try it (another terminal):') + 1;
  return lines.slice(first, first + 3).map((line) => line.slice(2));
}

export interface ServeHandle {
  baseUrl: string;
  process: ChildProcess;
  /** Everything the service logged on stderr so far. */
  logs(): string;
  stop(): Promise<void>;
}

/**
 * The service's temporary directory where `stop` cannot end it gracefully: on Windows
 * child.kill('SIGTERM') terminates it at once, before it removes the demo signing key it keeps
 * there, so it gets one of its own, removed after the test file, rather than the run's (which must
 * be left empty: test/setup/private-tmpdir.ts). Elsewhere it inherits the run's.
 */
export function serviceTemp(): Record<string, string> {
  if (process.platform !== 'win32') return {};
  const dir = tempDir('tokencli-serve-temp-');
  return { TEMP: dir, TMP: dir };
}

/** Starts `tokencli serve --port 0 [...args]` and waits for its `{"base_url": …}` line. */
export function startServe(
  args: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<ServeHandle> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(CLI[0], [...CLI.slice(1), 'serve', '--port', '0', ...args], {
      env: cleanEnv({ ...serviceTemp(), ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`tokencli serve did not start in time; stderr:\n${stderr}`));
    }, 15_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`tokencli serve exited with ${code}; stderr:\n${stderr}`));
    });
    if (!child.stdout) throw new Error('spawn gave no stdout pipe');
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      clearTimeout(timer);
      const { base_url: baseUrl } = JSON.parse(line) as { base_url: string };
      resolvePromise({
        baseUrl,
        process: child,
        logs: () => stderr,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
