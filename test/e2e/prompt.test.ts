/**
 * Secrets asked for on a terminal (SPEC.md §2.1): `tokencli token` prompts for a missing password
 * without echoing it, and `configure` for the client secret. util-linux `script` gives the CLI a
 * pseudo-terminal; where it is missing the tests skip and say so.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BIN, cleanEnv, tempDir } from '../helpers/cli.js';
import { serveForFile } from '../helpers/serve.js';
import { DEMO, demoEnv } from './env.js';

const hasScript = ['/usr/bin/script', '/bin/script'].some((p) => existsSync(p));

const serve = serveForFile();

/** Runs the CLI on a pty; `answer` is typed once the prompt shows. Resolves with all it printed. */
function onTerminal(args: string[], env: Record<string, string | undefined>, prompt: RegExp, answer: string) {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
    env: cleanEnv({ ...env, TERM: 'dumb' }),
    stdio: 'pipe',
  });
  let output = '';
  let answered = false;
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    output += d;
    if (!answered && prompt.test(output)) {
      answered = true;
      child.stdin.write(answer);
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

describe.skipIf(!hasScript)(
  `prompts on a terminal${hasScript ? '' : ' (skipped: `script` is not installed)'}`,
  () => {
    test('token asks for the password without echo and uses it once', async () => {
      const configDir = tempDir();
      const env = { ...demoEnv(serve.baseUrl, configDir), TOKENCLI_PASSWORD: undefined };
      const r = await onTerminal(['token'], env, /Password for demo@example\.com: /, `${DEMO.password}\r`);
      expect(r.code).toBe(0);
      expect(r.output).not.toContain(DEMO.password);
      expect(r.output).toMatch(/\n\S{20,}\r?\n/);
      expect(readFileSync(join(configDir, 'credentials.json'), 'utf8')).not.toContain(DEMO.password);
    });

    test('arrow keys and other escape sequences typed at the prompt are not part of the password', async () => {
      const configDir = tempDir();
      const env = { ...demoEnv(serve.baseUrl, configDir), TOKENCLI_PASSWORD: undefined };
      const half = Math.floor(DEMO.password.length / 2);
      const typed = `${DEMO.password.slice(0, half)}\u001b[D\u001b[C\u001bOH\u001b[1;5A${DEMO.password.slice(half)}\u001b[F\r`;
      const r = await onTerminal(['token'], env, /Password for demo@example\.com: /, typed);
      expect(r.code).toBe(0);
      expect(r.output).toMatch(/\n\S{20,}\r?\n/);
    });

    test('Ctrl-C at the prompt exits 130 and stores nothing', async () => {
      const configDir = tempDir();
      const env = { ...demoEnv(serve.baseUrl, configDir), TOKENCLI_PASSWORD: undefined };
      const r = await onTerminal(['token'], env, /Password for demo@example\.com: /, '\u0003');
      expect(r.code).toBe(130);
      expect(existsSync(join(configDir, 'credentials.json'))).toBe(false);
    });

    test('configure asks for the client secret without echo and stores it', async () => {
      const configDir = tempDir();
      const env = { TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_STORE: 'file' };
      const r = await onTerminal(
        ['configure', '--base-url', serve.baseUrl, '--client-id', DEMO.clientId],
        env,
        /Client secret: /,
        `${DEMO.clientSecret}\r`,
      );
      expect(r.code).toBe(0);
      expect(r.output).not.toContain(DEMO.clientSecret);
      expect(readFileSync(join(configDir, 'credentials.json'), 'utf8')).toContain(DEMO.clientSecret);
    });
  },
);
