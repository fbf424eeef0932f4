/**
 * TokenClient.login() for a program that shows the login its own way: progress arrives through
 * onEvent (the URL to open, the wait, the code received), and an AbortSignal ends the wait — the
 * listener closed, nothing stored, a rejection with code `interrupted`. In-process against the
 * token service on loopback, with a browser that follows the URL over HTTP.
 */
import { describe, expect, it } from 'vitest';
import { type SessionEvent, TokenClient, TokencliError } from '../../src/index.js';
import { demoServiceConfig } from '../../src/server/index.js';
import { demoClientEnv } from '../helpers/in-process-cli.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { rawGet } from '../login/http-get.js';
import { DEMO, postLogin, startService } from '../server/helpers.js';

async function setup() {
  const service = await startService(demoServiceConfig());
  const env = demoClientEnv(service.baseUrl, tempDir('tokencli-login-progress-'));
  const options = { env, clientSecret: DEMO.clientSecret, redirectUri: 'http://127.0.0.1:0/callback' };
  return { service, options };
}

describe('TokenClient.login progress', () => {
  it('reports the URL, the wait and the code received, in that order', async () => {
    const { service, options } = await setup();
    const events: SessionEvent[] = [];
    const client = new TokenClient({
      ...options,
      onEvent: (event) => events.push(event),
      // The browser: posts the demo user's login form and follows the redirect.
      openBrowser: async (url) => {
        const answer = await postLogin(service.baseUrl, Object.fromEntries(new URL(url).searchParams));
        await (await fetch(answer.headers.get('location') ?? '')).text();
      },
    });
    const result = await client.login({ loginTimeoutSeconds: 30 });
    expect(result).toMatchObject({ source: 'authorization_code', email: DEMO.email });

    const steps = events.filter((e) => ['login_url', 'login_waiting', 'login_received'].includes(e.code));
    expect(steps.map((e) => e.code)).toEqual(['login_url', 'login_waiting', 'login_received']);
    const url = new URL((steps[0] as { url: string }).url);
    const waiting = steps[1] as Extract<SessionEvent, { code: 'login_waiting' }>;
    // The listener's real address (port 0 asked for any), as sent in the authorize URL.
    expect(waiting.redirectUri).toBe(url.searchParams.get('redirect_uri'));
    expect(waiting.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*\/callback$/);
    expect(waiting.timeoutSeconds).toBe(30);
    expect(steps[2]).toEqual({ code: 'login_received', via: 'redirect' });
  });

  for (const where of ['the call', 'the client'] as const) {
    it(`an AbortSignal given to ${where} ends the wait: listener closed, code interrupted, nothing stored`, async () => {
      const { options } = await setup();
      const controller = new AbortController();
      let redirectUri = '';
      const client = new TokenClient({
        ...options,
        ...(where === 'the client' ? { signal: controller.signal } : {}),
        // A browser that never comes back: the login waits until it is cancelled.
        openBrowser: async () => {},
        onEvent: (event) => {
          if (event.code === 'login_waiting') {
            redirectUri = event.redirectUri;
            controller.abort();
          }
        },
      });
      const started = Date.now();
      const error = await client
        .login({ loginTimeoutSeconds: 60, ...(where === 'the call' ? { signal: controller.signal } : {}) })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TokencliError);
      expect(error).toMatchObject({ code: 'interrupted' });
      expect(Date.now() - started).toBeLessThan(10_000);

      // The listener is gone: its port refuses connections.
      const port = Number(new URL(redirectUri).port);
      await expect(rawGet(port, '/callback')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      // Nothing was stored for the profile.
      await expect(new TokenClient(options).getTokenInfo()).rejects.toMatchObject({ code: 'not_logged_in' });
    });
  }

  it('aborted while the authorize URL is being checked, it rejects with code interrupted too', async () => {
    const { service, options } = await setup();
    service.fault({ endpoint: 'authorize', delay_ms: 5000 });
    const controller = new AbortController();
    const client = new TokenClient({ ...options, openBrowser: async () => {} });
    setTimeout(() => controller.abort(), 200);
    const error = await client.login({ signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokencliError);
    expect(error).toMatchObject({ code: 'interrupted' });
  });

  it('a signal aborted before the call starts nothing', async () => {
    const { options } = await setup();
    const events: SessionEvent[] = [];
    const client = new TokenClient({
      ...options,
      onEvent: (e) => events.push(e),
      openBrowser: async () => {},
    });
    const error = await client.login({ signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'interrupted' });
    expect(events.map((e) => e.code)).not.toContain('login_waiting');
  });
});
