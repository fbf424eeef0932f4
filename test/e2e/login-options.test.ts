/**
 * `tokencli login --end-other-sessions`, the browser opened through `BROWSER`, and what is said
 * when no browser can be opened.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ServeHandle, serviceConfigFile, startServe, tempDir } from '../helpers/cli.js';
import { ANY_PORT, demoLoginEnv, loginWithoutBrowser, startLogin } from '../helpers/cli-login.js';
import { serveForFile } from '../helpers/serve.js';
import { DEMO } from './env.js';

const serve = serveForFile();

const loginEnv = (configDir?: string) => demoLoginEnv(serve.baseUrl, configDir);

describe('tokencli login --end-other-sessions (a single-session user, docs/contract.md §1 rule 10)', () => {
  let single: ServeHandle;
  const user = { email: 'single@example.com', password: 'single-password' };
  beforeAll(async () => {
    const config = serviceConfigFile({
      apps: [
        {
          client_id: DEMO.clientId,
          client_secret: DEMO.clientSecret,
          app_name: 'Single App',
          redirect_uris: ['http://127.0.0.1:8765/callback'],
          grants: ['authorization_code', 'refresh_token'],
          refresh_tokens: true,
        },
      ],
      users: [{ ...user, single_session: true }],
    });
    single = await startServe(['--config', config]);
  });
  afterAll(async () => {
    await single?.stop();
  });

  test('a second login is refused with a hint; with the flag it ends the other session', async () => {
    const env = { ...loginEnv(), TOKENCLI_BASE_URL: single.baseUrl };
    const first = startLogin(ANY_PORT, env);
    await loginWithoutBrowser(await first.authorizeUrl, user.email, user.password);
    expect((await first.done).code).toBe(0);

    const second = startLogin(ANY_PORT, env);
    const secondUrl = await second.authorizeUrl;
    expect(secondUrl.searchParams.has('endOtherSessions')).toBe(false);
    await loginWithoutBrowser(secondUrl, user.email, user.password);
    const refused = await second.done;
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('--end-other-sessions');

    const third = startLogin([...ANY_PORT, '--end-other-sessions'], env);
    const thirdUrl = await third.authorizeUrl;
    expect(thirdUrl.searchParams.get('endOtherSessions')).toBe('True');
    await loginWithoutBrowser(thirdUrl, user.email, user.password);
    expect((await third.done).code).toBe(0);
  });
});

describe('tokencli login opening the browser through BROWSER', () => {
  // Windows runs no script by its `#!` line, and BROWSER is run without a shell.
  test.skipIf(process.platform === 'win32')(
    'BROWSER is started with the authorize URL; a "browser" that logs in with it completes the login (skipped on Windows: the fake browser is a #! script)',
    async () => {
      const dir = tempDir();
      const browser = join(dir, 'fake-browser.mjs');
      // A stand-in browser: posts the login form with the URL it was given, follows the redirect.
      writeFileSync(
        browser,
        `#!${process.execPath}
const url = new URL(process.argv[2]);
const form = new URLSearchParams(url.searchParams);
form.set('email', ${JSON.stringify(DEMO.email)});
form.set('password', ${JSON.stringify(DEMO.password)});
const posted = await fetch(url.origin + url.pathname, { method: 'POST', body: form, redirect: 'manual' });
await fetch(posted.headers.get('location'));
`,
      );
      chmodSync(browser, 0o755);
      const login = startLogin(['--redirect-uri', 'http://127.0.0.1:0/callback'], {
        ...loginEnv(),
        BROWSER: browser,
      });
      const r = await login.done;
      // No warning about the browser (the client secret from the variable has one of its own).
      expect(r.stderr).not.toMatch(/^warning: (?!the client secret given for this login)/m);
      expect(r.stderr).toContain('Opening it in your browser…');
      expect(r.code).toBe(0);
    },
  );

  test('a BROWSER that fails is a warning; the login keeps waiting and the URL still works', async () => {
    const login = startLogin(['--redirect-uri', 'http://127.0.0.1:0/callback'], {
      ...loginEnv(),
      BROWSER: join(tempDir(), 'no-such-browser'),
    });
    const url = await login.authorizeUrl;
    await loginWithoutBrowser(url, DEMO.email, DEMO.password);
    const r = await login.done;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^warning: could not open BROWSER \(.*no-such-browser\): the program was not found; open the URL yourself$/m,
    );
    expect(r.stderr).not.toContain('Opening it in your browser');
  });

  test.skipIf(process.platform !== 'linux')(
    'no display and no BROWSER: one warning that says so, never "Opening it in your browser" (skipped off Linux: elsewhere the system opens a browser without a display variable)',
    async () => {
      const login = startLogin(['--redirect-uri', 'http://127.0.0.1:0/callback'], {
        ...loginEnv(),
        BROWSER: undefined,
        DISPLAY: undefined,
        WAYLAND_DISPLAY: undefined,
        WSL_DISTRO_NAME: undefined,
        WSL_INTEROP: undefined,
      });
      const url = await login.authorizeUrl;
      await loginWithoutBrowser(url, DEMO.email, DEMO.password);
      const r = await login.done;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /^warning: no display to open a browser on \(DISPLAY and WAYLAND_DISPLAY are unset\); open the URL yourself$/m,
      );
      expect(r.stderr).not.toContain('Opening it in your browser');
    },
  );
});
