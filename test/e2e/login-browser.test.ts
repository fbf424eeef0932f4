/**
 * The whole login in a real browser (docs/contract.md §4): headless Chromium fills the login form of
 * `tokencli serve`, the redirect reaches the listener of `tokencli login`, the CLI exits 0; then
 * `tokencli token` prints the stored token without a request and `tokencli refresh` works.
 * Screenshots of the login and success pages go to test-artifacts/ for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ARTIFACTS, hasChromium, launchChromium, skippedWithoutChromium } from '../helpers/chromium.js';
import { runCli, type ServeHandle, startServe } from '../helpers/cli.js';
import { ANY_PORT, demoLoginEnv, startLogin } from '../helpers/cli-login.js';
import { DEMO, tokenRequests } from './env.js';

let serve: ServeHandle;
let browser: Browser | undefined;

beforeAll(async () => {
  if (!hasChromium) return;
  serve = await startServe();
  browser = await launchChromium([
    '--disable-quic',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
});

test.skipIf(!hasChromium)(
  `login in headless Chromium, then token from the store and refresh${skippedWithoutChromium}`,
  async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const env = demoLoginEnv(serve.baseUrl);
    const login = startLogin(ANY_PORT, env);
    const authorizeUrl = await login.authorizeUrl;

    const page = await (browser as Browser).newPage();
    // A style blocked by either page's CSP (a wrong hash) would show up here.
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    try {
      await page.goto(authorizeUrl.href);
      await expect.poll(() => page.title()).toBe('Sign in · Demo App');
      await page.screenshot({ path: resolve(ARTIFACTS, 'login-page.png'), fullPage: true });
      await page.getByLabel('Email').fill(DEMO.email);
      await page.getByLabel('Password').fill(DEMO.password);
      await Promise.all([
        page.waitForURL((url) => url.pathname === '/callback' && url.hostname === '127.0.0.1', {
          waitUntil: 'load',
        }),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      await expect.poll(() => page.locator('h1').textContent()).toContain('Logged in');
      expect(await page.locator('main').textContent()).toContain('You are logged in as demo@example.com.');
      await page.screenshot({ path: resolve(ARTIFACTS, 'login-success.png'), fullPage: true });
      expect(consoleErrors).toEqual([]);
    } finally {
      await page.close();
    }

    const result = await login.done;
    expect(result.stderr).toMatch(/Logged in as demo@example\.com \(profile default\)\./);
    expect(result.code).toBe(0);

    // The stored token is printed as it is: no create-token request reaches the service.
    const before = tokenRequests(serve.logs());
    const token = await runCli(['token'], { env });
    expect(token.code).toBe(0);
    expect(token.stdout).toMatch(/^\S{16,}\n$/);
    expect(tokenRequests(serve.logs())).toBe(before);

    const refreshed = await runCli(['refresh', '--json'], { env });
    expect(refreshed.code).toBe(0);
    const record = JSON.parse(refreshed.stdout) as { access_token: string; source: string };
    expect(record.source).toBe('refresh_token');
    expect(record.access_token).not.toBe(token.stdout.trim());
    expect(tokenRequests(serve.logs())).toBe(before + 1);
    expect((await runCli(['token'], { env })).stdout.trim()).toBe(record.access_token);
  },
  90_000,
);
