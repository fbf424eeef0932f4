/**
 * The login form refuses posts a browser sent from another site's page (cross-site request
 * forgery), as the control API does: 403 and no code. Its own page's posts, and programs that
 * post the form without a browser's headers, work as before.
 */
import { describe, expect, test } from 'vitest';
import { rawHttp } from '../helpers/raw-http.js';
import { DEMO, startService } from './helpers.js';

const FORM = new URLSearchParams({
  client_id: DEMO.clientId,
  response_type: 'code',
  state: 's1',
  email: DEMO.email,
  password: DEMO.password,
}).toString();

async function post(baseUrl: string, headers: Record<string, string>, body = FORM) {
  const url = new URL(`${baseUrl}/v2/oauth/authorize`);
  return rawHttp(
    {
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    },
    { body },
  );
}

describe('the login form and cross-site posts', () => {
  for (const [name, headers] of [
    ['an Origin of another site', { origin: 'https://evil.example' }],
    ['an Origin of another port on the same host', { origin: 'http://127.0.0.1:1' }],
    ['Origin: null (a sandboxed page)', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    [
      'Sec-Fetch-Site: cross-site with the service’s own Origin',
      { 'sec-fetch-site': 'cross-site', origin: 'SELF' },
    ],
  ] as const) {
    test(`${name}: 403, an error page, no code issued`, async () => {
      const service = await startService();
      const own = new URL(service.baseUrl).origin;
      const sent = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === 'SELF' ? own : v]));
      const r = await post(service.baseUrl, sent);
      expect(r.status).toBe(403);
      expect(r.headers.location).toBeUndefined();
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.body).toContain('This sign-in form was sent from another site');
      expect(service.stats().codes).toBe(0);
    });
  }

  test('Deny from another site is refused too: nothing is sent to the application', async () => {
    const service = await startService();
    const r = await post(
      service.baseUrl,
      { origin: 'https://evil.example' },
      new URLSearchParams({ client_id: DEMO.clientId, response_type: 'code', decision: 'deny' }).toString(),
    );
    expect(r.status).toBe(403);
    expect(r.headers.location).toBeUndefined();
  });

  for (const [name, headers] of [
    ['the service’s own Origin', { origin: 'SELF' }],
    ['its own Origin and Sec-Fetch-Site: same-origin', { origin: 'SELF', 'sec-fetch-site': 'same-origin' }],
    // Behind a proxy that rewrites Host the Origin differs; the browser's own verdict counts.
    ['Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin', origin: 'https://gw.example' }],
    ['no Origin and no Sec-Fetch-Site (a program)', {}],
  ] as const) {
    test(`${name}: 302 with a code, as before`, async () => {
      const service = await startService();
      const own = new URL(service.baseUrl).origin;
      const sent = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === 'SELF' ? own : v]));
      const r = await post(service.baseUrl, sent);
      expect(r.status, r.body).toBe(302);
      const location = new URL(String(r.headers.location));
      expect(location.searchParams.get('state')).toBe('s1');
      expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });
  }

  test('the Host header names the origin: localhost on the same port is the service too', async () => {
    const service = await startService();
    const port = new URL(service.baseUrl).port;
    const url = new URL(`${service.baseUrl}/v2/oauth/authorize`);
    const r = await rawHttp(
      {
        host: url.hostname,
        port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: `http://localhost:${port}`,
        },
      },
      { host: `localhost:${port}`, body: FORM },
    );
    expect(r.status).toBe(302);
  });
});
