/**
 * The login page's "Deny" button and its email field: denial goes back to the
 * application with access_denied and the state; any configured email works, internationalised too.
 */
import { expect, test } from 'vitest';
import { demoServiceConfig } from '../../src/server/index.js';
import { DEMO, postLogin, startService, withDemoApp } from './helpers.js';

const AUTHORIZE = {
  client_id: DEMO.clientId,
  response_type: 'code',
  state: 'st/1 ü',
  redirect_uri: DEMO.redirectUri,
};

test('the page offers Deny, names the application, and takes any text as the email', async () => {
  const service = await startService();
  const html = await (
    await fetch(`${service.baseUrl}/v2/oauth/authorize?${new URLSearchParams(AUTHORIZE)}`)
  ).text();
  expect(html).toContain('<strong>Demo App</strong> asks to use your account');
  expect(html).toContain(
    '<button type="submit" name="decision" value="deny" class="secondary" formnovalidate>Deny</button>',
  );
  expect(html).not.toContain('type="email"');
});

test('Deny: 302 to the redirect URI with error=access_denied and the state, and no code issued', async () => {
  const service = await startService();
  const form = new URLSearchParams({ ...AUTHORIZE, decision: 'deny' });
  const r = await fetch(`${service.baseUrl}/v2/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  expect(r.status).toBe(302);
  const location = new URL(r.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(DEMO.redirectUri);
  expect(location.searchParams.get('error')).toBe('access_denied');
  expect(location.searchParams.get('state')).toBe('st/1 ü');
  expect(location.searchParams.get('code')).toBeNull();
  expect(service.stats().codes).toBe(0);
});

test('Deny keeps the redirect URI query (RFC 6749 §4.1.2.1)', async () => {
  const service = await startService(
    withDemoApp({ redirect_uris: ['http://127.0.0.1:8765/callback?tenant=a'] }),
  );
  const r = await fetch(`${service.baseUrl}/v2/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: DEMO.clientId,
      response_type: 'code',
      decision: 'deny',
    }).toString(),
    redirect: 'manual',
  });
  expect(r.headers.get('location')).toMatch(
    /^http:\/\/127\.0\.0\.1:8765\/callback\?tenant=a&error=access_denied&error_description=[^&]+$/,
  );
});

test('an internationalised email signs in', async () => {
  const config = demoServiceConfig();
  config.users.push({ email: 'jörg@example.com', password: 'pw-jörg', single_session: false });
  const service = await startService(config);
  const r = await postLogin(
    service.baseUrl,
    { client_id: DEMO.clientId, response_type: 'code' },
    { email: 'jörg@example.com', password: 'pw-jörg' },
  );
  expect(r.status).toBe(302);
  expect(new URL(r.headers.get('location') ?? '').searchParams.get('code')).toBeTruthy();
});
