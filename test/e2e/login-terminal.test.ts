/**
 * `tokencli login` with stdin on a terminal: the paste fallback of docs/contract.md §2.5 and Ctrl-C typed
 * on the terminal.
 */
import { spawn } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { CLI_SH, cleanEnv, runCli, tempDir } from '../helpers/cli.js';
import { ANY_PORT, demoLoginEnv, expectNothingStored } from '../helpers/cli-login.js';
import { serveForFile } from '../helpers/serve.js';
import { hasScript, scriptMissing } from '../helpers/terminal.js';
import { DEMO } from './env.js';

const serve = serveForFile();

const loginEnv = (configDir?: string) => demoLoginEnv(serve.baseUrl, configDir);

/**
 * The paste fallback needs stdin to be a terminal. util-linux `script` runs the CLI on a
 * pseudo-terminal and forwards what the test writes to it, so the pasted line arrives the way a
 * person's paste would. Where `script` is missing the test is skipped (the paste logic itself is
 * covered in test/login/paste-prompt.test.ts).
 */
describe.skipIf(!hasScript)(
  `tokencli login on a terminal (pty via util-linux script${hasScript ? '' : `; skipped: ${scriptMissing}`})`,
  () => {
    function loginOnPty(env: Record<string, string>) {
      const command = `${CLI_SH} ${['login', ...ANY_PORT].map((a) => `'${a}'`).join(' ')}`;
      const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
        env: cleanEnv({ ...env, TERM: 'dumb' }),
        stdio: 'pipe',
      });
      let output = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        output += d;
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      const done = new Promise<number | null>((resolveDone) =>
        child.on('close', (code) => {
          clearTimeout(timer);
          resolveDone(code);
        }),
      );
      const authorizeUrl = (async () => {
        for (let i = 0; i < 600; i++) {
          const match = /(https?:\/\/\S+\/v2\/oauth\/authorize\?\S+)/.exec(output);
          if (match?.[1]) return new URL(match[1]);
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error(`no URL printed; output:\n${output}`);
      })();
      /** Resolves once `text` has been printed (the pty delivers lines in chunks of its own). */
      const printed = async (text: string): Promise<void> => {
        for (let i = 0; i < 200 && !output.includes(text); i++) await new Promise((r) => setTimeout(r, 50));
        if (!output.includes(text)) throw new Error(`"${text}" never printed; output:\n${output}`);
      };
      return { child, done, authorizeUrl, printed, output: () => output };
    }

    /** The login form posted, the 302 not followed: its Location is what the user would paste. */
    async function redirectLocation(url: URL): Promise<string> {
      const form = new URLSearchParams(url.searchParams);
      form.set('email', DEMO.email);
      form.set('password', DEMO.password);
      const posted = await fetch(`${url.origin}${url.pathname}`, {
        method: 'POST',
        body: form,
        redirect: 'manual',
      });
      expect(posted.status).toBe(302);
      return posted.headers.get('location') ?? '';
    }

    test('a pasted redirect URL completes the login (the listener never sees it)', async () => {
      const configDir = tempDir();
      const login = loginOnPty(loginEnv(configDir));
      const url = await login.authorizeUrl;
      // The prompt follows the URL, maybe in a later chunk.
      await login.printed(
        'paste the URL it ends up on (or the code) here at once; codes expire after 20 seconds:',
      );
      login.child.stdin.write(`${await redirectLocation(url)}\r`);
      expect(await login.done).toBe(0);
      expect(login.output()).toContain('Logged in as demo@example.com (profile default).');
      expect((await runCli(['token'], { env: loginEnv(configDir) })).code).toBe(0);
    });

    test('a pasted URL of another login is refused and the login keeps waiting for the right one', async () => {
      const login = loginOnPty(loginEnv());
      const url = await login.authorizeUrl;
      const location = await redirectLocation(url);
      const forged = new URL(location);
      forged.searchParams.set('state', 'not-this-login');
      login.child.stdin.write(`${forged.href}\r`);
      login.child.stdin.write(`${location}\r`);
      expect(await login.done).toBe(0);
      expect(login.output()).toContain('that URL does not carry the state of this login');
    });

    test('a pasted bare code completes the login', async () => {
      const login = loginOnPty(loginEnv());
      const url = await login.authorizeUrl;
      const code = new URL(await redirectLocation(url)).searchParams.get('code') ?? '';
      login.child.stdin.write(`${code}\r`);
      expect(await login.done).toBe(0);
    });

    test('Ctrl-C on the terminal: exit 130', async () => {
      const configDir = tempDir();
      const login = loginOnPty(loginEnv(configDir));
      await login.authorizeUrl;
      login.child.stdin.write('\u0003');
      expect(await login.done).toBe(130);
      // The terminal echoed ^C; the error starts on a line of its own, not after it.
      expect(login.output()).toMatch(/(^|\n)error: interrupted\r?\n/);
      expect(login.output()).not.toMatch(/\^Cerror/);
      await expectNothingStored(loginEnv(configDir));
    });
  },
);
