/**
 * A wrong password typed at the terminal prompt is asked for again, up to three tries in all (as
 * sudo and gh do); a password a script gives (the variable, --password-stdin) is refused at once,
 * exit 3, after one request. util-linux `script` gives the CLI a pseudo-terminal; where it is
 * missing the terminal tests skip and say so.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { CLI_SH, cleanEnv, runCli } from '../helpers/cli.js';
import { serveForFile } from '../helpers/serve.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { hasScript } from '../helpers/terminal.js';
import { DEMO, demoEnv, tokenRequests } from './env.js';

const serve = serveForFile();
afterAll(removeTempDirs);

const PROMPT = /Password for demo@example\.com: /g;

/**
 * Runs the CLI on a pty and types `answers` in turn, each once one more password prompt shows.
 * Resolves with the exit code, all it printed, and how many prompts were shown.
 */
function typing(args: string[], env: Record<string, string | undefined>, answers: string[]) {
  const command = `${CLI_SH} ${args.map((a) => `'${a}'`).join(' ')}`;
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
    env: cleanEnv({ TERM: 'dumb', ...env }),
    stdio: 'pipe',
  });
  let output = '';
  let typed = 0;
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    output += d;
    const prompts = output.match(PROMPT)?.length ?? 0;
    while (typed < prompts && typed < answers.length) child.stdin.write(answers[typed++] ?? '');
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise<{ code: number | null; output: string; prompts: number }>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, prompts: output.match(PROMPT)?.length ?? 0 });
    }),
  );
}

const terminalEnv = (configDir: string) => ({
  ...demoEnv(serve.baseUrl, configDir),
  TOKENCLI_PASSWORD: undefined,
});

describe.skipIf(!hasScript)(
  `at the terminal prompt${hasScript ? '' : ' (skipped: `script` is not installed)'}`,
  () => {
    test('a wrong password is asked for again; the right one then works', async () => {
      const configDir = tempDir('tokencli-tries-');
      const r = await typing(['token'], terminalEnv(configDir), ['wrong-password\r', `${DEMO.password}\r`]);
      expect(r.code, r.output).toBe(0);
      expect(r.prompts).toBe(2);
      expect(r.output).toMatch(/Sorry, the service refused that password; try again\./);
      expect(r.output).not.toMatch(/error:/);
      expect(r.output).not.toContain('wrong-password');
      expect(existsSync(join(configDir, 'credentials.json'))).toBe(true);
    });

    test('three wrong passwords: the refusal, exit 3', async () => {
      const configDir = tempDir('tokencli-tries-');
      const r = await typing(['token'], terminalEnv(configDir), ['one\r', 'two\r', 'three\r', 'four\r']);
      expect(r.code, r.output).toBe(3);
      expect(r.prompts).toBe(3);
      expect(r.output).toMatch(/error: .*subcode 017/);
      expect(existsSync(join(configDir, 'credentials.json'))).toBe(false);
    });
  },
);

test('a script gives a wrong password: refused at once, exit 3, one request', async () => {
  const configDir = tempDir('tokencli-tries-');
  const before = tokenRequests(serve.logs());
  const r = await runCli(['token'], {
    env: { ...demoEnv(serve.baseUrl, configDir), TOKENCLI_PASSWORD: 'wrong' },
  });
  expect(r.code, r.stderr).toBe(3);
  expect(r.stderr).not.toMatch(/try again/);
  expect(tokenRequests(serve.logs()) - before).toBe(1);
});
