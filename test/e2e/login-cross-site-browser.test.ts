/**
 * The login form against cross-site posts, in real headless Chromium: a page of another origin
 * that posts the form gets the 403 page and no code; the service's own page still signs in where
 * the browser sends no Sec-Fetch-Site (a host name that is not loopback, as in a compose network),
 * which works only because the page lets the browser send its real Origin with the post.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTokenService, type TokenServiceHandle } from '../../src/server/index.js';
import { hasChromium, launchChromium, skippedWithoutChromium } from '../helpers/chromium.js';
import { DEMO } from '../server/helpers.js';

let browser: Browser | undefined;
let service: TokenServiceHandle;
let elsewhere: Server;
let elsewhereUrl = '';

beforeAll(async () => {
  if (!hasChromium) return;
  service = await startTokenService(undefined, { allowHosts: ['tokens.test'] });
  // A page on another origin (another port) that posts the login form as soon as it loads.
  elsewhere = createServer((_req, res) => {
    const action = `${service.baseUrl}/v2/oauth/authorize`;
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><form method="post" action="${action}">
<input name="client_id" value="${DEMO.clientId}"><input name="response_type" value="code">
<input name="email" value="${DEMO.email}"><input name="password" value="${DEMO.password}">
</form><script>document.forms[0].submit()</script>`);
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`;
  // tokens.test is not a loopback name to Chromium, so it sends no Sec-Fetch-* headers there.
  browser = await launchChromium(['--host-resolver-rules=MAP tokens.test 127.0.0.1']);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
  await new Promise((resolve) => (elsewhere ? elsewhere.close(resolve) : resolve(undefined)));
});

test.skipIf(!hasChromium)(
  `a page elsewhere that posts the login form gets 403 and no code${skippedWithoutChromium}`,
  async () => {
    const page = await (browser as Browser).newPage();
    try {
      const answer = page.waitForResponse((r) => r.url().endsWith('/v2/oauth/authorize'));
      await page.goto(elsewhereUrl);
      expect((await answer).status()).toBe(403);
      await expect.poll(() => page.locator('main').textContent()).toContain('sent from another site');
      expect(service.stats().codes).toBe(0);
    } finally {
      await page.close();
    }
  },
);

test.skipIf(!hasChromium)(
  `the service's own page signs in on a host name without Sec-Fetch-Site${skippedWithoutChromium}`,
  async () => {
    const port = new URL(service.baseUrl).port;
    const page = await (browser as Browser).newPage();
    try {
      const query = new URLSearchParams({ client_id: DEMO.clientId, response_type: 'code', state: 's9' });
      await page.goto(`http://tokens.test:${port}/v2/oauth/authorize?${query}`);
      await page.getByLabel('Email').fill(DEMO.email);
      await page.getByLabel('Password').fill(DEMO.password);
      const posted = page.waitForRequest((r) => r.method() === 'POST');
      const answer = page.waitForResponse((r) => r.request().method() === 'POST');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const headers = await (await posted).allHeaders();
      expect(headers['sec-fetch-site']).toBeUndefined();
      expect(headers.origin).toBe(`http://tokens.test:${port}`);
      const response = await answer;
      expect(response.status()).toBe(302);
      const location = new URL((await response.allHeaders()).location ?? '');
      expect(location.searchParams.get('state')).toBe('s9');
      expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    } finally {
      await page.close();
    }
  },
);
