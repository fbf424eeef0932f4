/**
 * Output nobody reads, or that cannot be written. `tokencli token | head -c1` closes the pipe
 * early, which is the reader's choice: the run ends as if it had written, nothing on stderr. A
 * full disk is no bug of tokencli's: one `error:` line, exit 1, no "report it" hint. The
 * launcher's light answers (`--version` written straight to the descriptor, a cached `token`)
 * must meet both as the full CLI does (src/cli/input/io.ts).
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { CLI, cleanEnv, runCli } from '../helpers/cli.js';
import { serveForFile } from '../helpers/serve.js';
import { demoEnv } from './env.js';

const serve = serveForFile();

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs the CLI with `stdout` as its standard output, collecting stderr until it ends. */
function runWithStdout(
  args: string[],
  env: Record<string, string>,
  stdout: 'closed pipe' | number,
): Promise<Ended> {
  const child = spawn(CLI[0], [...CLI.slice(1), ...args], {
    env: cleanEnv(env),
    stdio: ['ignore', stdout === 'closed pipe' ? 'pipe' : stdout, 'pipe'],
  });
  // Closed at once: node takes tens of milliseconds to start, so every write meets EPIPE.
  if (stdout === 'closed pipe') child.stdout?.destroy();
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

/** Runs the CLI with its stdout on /dev/full, where every write fails with ENOSPC. */
async function runIntoFullDevice(args: string[], env: Record<string, string> = {}): Promise<Ended> {
  const full = openSync('/dev/full', 'w');
  try {
    return await runWithStdout(args, env, full);
  } finally {
    closeSync(full);
  }
}

/** A config directory whose profile holds a fresh token (a cached `token` is a light answer). */
async function cachedEnv(): Promise<Record<string, string>> {
  const env = demoEnv(serve.baseUrl);
  expect((await runCli(['token'], { env })).code).toBe(0);
  return env;
}

// `--version` and `version` are the launcher's own answer; `completion` and `--help` the full CLI's.
const PRINTING = [['--version'], ['version'], ['completion', 'bash'], ['--help']];

describe('standard output closed by its reader', () => {
  test.each(PRINTING)('%s %s ends quietly with exit 0', async (...args) => {
    expect(await runWithStdout(args, {}, 'closed pipe')).toEqual({ code: 0, signal: null, stderr: '' });
  });

  test('a cached token ends quietly with exit 0, and stays stored', async () => {
    const env = await cachedEnv();
    const before = await runCli(['token'], { env });
    expect(await runWithStdout(['token'], env, 'closed pipe')).toEqual({ code: 0, signal: null, stderr: '' });
    expect((await runCli(['token'], { env })).stdout).toBe(before.stdout);
  });
});

const hasFullDevice = existsSync('/dev/full');
describe.skipIf(!hasFullDevice)(
  `standard output on a full device${hasFullDevice ? '' : ' (skipped: no /dev/full here, as on macOS and Windows)'}`,
  () => {
    const ENOSPC = 'error: cannot write to standard output: ENOSPC: no space left on device, write\n';

    test.each(PRINTING)('%s %s says so in one line, exit 1', async (...args) => {
      expect(await runIntoFullDevice(args)).toEqual({ code: 1, signal: null, stderr: ENOSPC });
    });

    test('a cached token says so in one line, exit 1, and stays stored', async () => {
      const env = await cachedEnv();
      const before = await runCli(['token'], { env });
      expect(await runIntoFullDevice(['token'], env)).toEqual({ code: 1, signal: null, stderr: ENOSPC });
      expect((await runCli(['token'], { env })).stdout).toBe(before.stdout);
    });
  },
);
