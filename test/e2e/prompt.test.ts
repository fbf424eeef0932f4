/**
 * Secrets asked for on a terminal (docs/contract.md §2.1): `tokencli token` prompts for a missing password
 * without echoing it, and `configure` for the client secret. util-linux `script` gives the CLI a
 * pseudo-terminal; where it is missing the tests skip and say so.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { serveForFile } from '../helpers/serve.js';
import { hasScript, onTerminal as runOnTerminal } from '../helpers/terminal.js';
import { DEMO, demoEnv } from './env.js';

const serve = serveForFile();

/** Runs the CLI on a pty; `answer` is typed once the prompt shows. Resolves with all it printed. */
function onTerminal(args: string[], env: Record<string, string | undefined>, prompt: RegExp, answer: string) {
  return runOnTerminal(args, env, { answer: { prompt, keys: answer } });
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

    test('Ctrl-U at the prompt clears what was typed, as sudo and ssh do', async () => {
      const configDir = tempDir();
      const env = { ...demoEnv(serve.baseUrl, configDir), TOKENCLI_PASSWORD: undefined };
      const typed = `wrong\u0015${DEMO.password}\r`;
      const r = await onTerminal(['token'], env, /Password for demo@example\.com: /, typed);
      expect(r.code, r.output).toBe(0);
      expect(r.output).toMatch(/\n\S{20,}\r?\n/);
    });

    test('Ctrl-W at the prompt erases the last word (and the blanks before the cursor)', async () => {
      const configDir = tempDir();
      const env = { ...demoEnv(serve.baseUrl, configDir), TOKENCLI_PASSWORD: undefined };
      const typed = `oops typo\u0017\u0017${DEMO.password} extra\u0017\u007f\r`;
      const r = await onTerminal(['token'], env, /Password for demo@example\.com: /, typed);
      expect(r.code, r.output).toBe(0);
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
