/**
 * The login page's "Deny" button and an internationalised email in real headless Chromium (issue
 * 11 item 2): Deny ends `tokencli login` with exit 6 and nothing stored; `jörg@example.com` is
 * accepted by the form (a `type="email"` field made Chromium refuse it) and signs in.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ARTIFACTS, hasChromium, launchChromium, skippedWithoutChromium } from '../helpers/chromium.js';
import { type ServeHandle, serviceConfigFile, startServe, tempDir } from '../helpers/cli.js';
import { ANY_PORT, demoLoginEnv, expectNothingStored, startLogin } from '../helpers/cli-login.js';

let serve: ServeHandle;
let browser: Browser | undefined;
const dirs: string[] = [];

beforeAll(async () => {
  if (!hasChromium) return;
  const configDir = tempDir();
  dirs.push(configDir);
  const config = serviceConfigFile(
    {
      apps: [
        {
          client_id: 'demo-client',
          client_secret: 'demo-secret',
          app_name: 'Ünicode Reports',
          redirect_uris: ['http://127.0.0.1:8765/callback'],
          grants: ['authorization_code', 'refresh_token'],
          refresh_tokens: true,
        },
      ],
      users: [{ email: 'jörg@example.com', password: 'pw-jörg' }],
    },
    { dir: configDir },
  );
  serve = await startServe(['--config', config]);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function loginEnv(): Record<string, string> {
  const dir = tempDir();
  dirs.push(dir);
  return demoLoginEnv(serve.baseUrl, dir);
}

async function withPage<T>(use: (page: Page) => Promise<T>): Promise<T> {
  const page = await (browser as Browser).newPage();
  try {
    return await use(page);
  } finally {
    await page.close();
  }
}

test.skipIf(!hasChromium)(
  `Deny in Chromium: login exits 6 saying access was denied, nothing stored${skippedWithoutChromium}`,
  async () => {
    const env = loginEnv();
    const login = startLogin(ANY_PORT, env);
    const url = await login.authorizeUrl;
    await withPage(async (page) => {
      await page.goto(url.href);
      await expect.poll(() => page.title()).toBe('Sign in · Ünicode Reports');
      expect(await page.locator('p.lead').textContent()).toBe('Ünicode Reports asks to use your account');
      // Empty fields: Deny must not be blocked by the form's validation.
      await Promise.all([
        page.waitForURL((u) => u.pathname === '/callback', { waitUntil: 'load' }),
        page.getByRole('button', { name: 'Deny' }).click(),
      ]);
      expect(await page.locator('h1').textContent()).toContain('Login not completed');
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: resolve(ARTIFACTS, 'login-denied.png'), fullPage: true });
    });
    const result = await login.done;
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^error: .*denied/m);
    await expectNothingStored(env);
  },
  60_000,
);

test.skipIf(!hasChromium)(
  `an internationalised email is accepted by the form and signs in${skippedWithoutChromium}`,
  async () => {
    const env = loginEnv();
    const login = startLogin(ANY_PORT, env);
    const url = await login.authorizeUrl;
    await withPage(async (page) => {
      await page.goto(url.href);
      await page.getByLabel('Email').fill('jörg@example.com');
      await page.getByLabel('Password').fill('pw-jörg');
      await Promise.all([
        page.waitForURL((u) => u.pathname === '/callback', { waitUntil: 'load' }),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      expect(await page.locator('h1').textContent()).toContain('Logged in');
    });
    const result = await login.done;
    expect(result.stderr).toContain('jörg@example.com');
    expect(result.code).toBe(0);
  },
  60_000,
);
