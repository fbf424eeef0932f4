import { describe, expect, test } from 'vitest';
import { DEMO, pkcePair, postLogin, rawRequest, startService, withDemoApp } from './helpers.js';

async function getAuthorize(baseUrl: string, params: Record<string, string>): Promise<Response> {
  return fetch(`${baseUrl}/v2/oauth/authorize?${new URLSearchParams(params)}`, { redirect: 'manual' });
}

describe('the login page', () => {
  test('is a labelled form with the application name, posting back every request parameter', async () => {
    const service = await startService();
    const { challenge } = pkcePair();
    const r = await getAuthorize(service.baseUrl, {
      client_id: DEMO.clientId,
      response_type: 'code',
      redirect_uri: DEMO.redirectUri,
      state: 'st-1',
      scope: 'demoservices',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      endOtherSessions: 'True',
      nonce: 'ignored',
    });
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).toContain('<strong>Demo App</strong>');
    expect(html).toContain('<form method="post" action="authorize">');
    expect(html).toMatch(
      /<label for="email">Email<\/label>\s*<input type="text" inputmode="email" id="email" name="email"[^>]* autofocus/,
    );
    expect(html).toMatch(
      /<label for="password">Password<\/label>\s*<input type="password" id="password" name="password"/,
    );
    for (const [name, value] of [
      ['client_id', DEMO.clientId],
      ['response_type', 'code'],
      ['redirect_uri', DEMO.redirectUri],
      ['state', 'st-1'],
      ['scope', 'demoservices'],
      ['code_challenge', challenge],
      ['code_challenge_method', 'S256'],
      ['endOtherSessions', 'True'],
    ]) {
      expect(html).toContain(`<input type="hidden" name="${name}" value="${value}">`);
    }
    expect(html).not.toContain('nonce');
    expect(html).not.toMatch(/<script|<link|<img|src=|https?:\/\/(?!127\.0\.0\.1:8765)/);
  });

  test('carries security headers and an inline style allowed by its hash', async () => {
    const service = await startService();
    const r = await getAuthorize(service.baseUrl, { client_id: DEMO.clientId });
    const csp = r.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; base-uri 'none'; frame-ancestors 'none'$/,
    );
    const html = await r.text();
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    const { createHash } = await import('node:crypto');
    expect(csp).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    // same-origin: the form's post then carries the page's Origin (no-referrer would send null).
    expect(r.headers.get('referrer-policy')).toBe('same-origin');
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  test('escapes everything it echoes', async () => {
    const service = await startService(withDemoApp({ app_name: 'Evil <b>"App"</b> & \'co\'' }));
    const r = await getAuthorize(service.baseUrl, {
      client_id: DEMO.clientId,
      state: '"><script>alert(1)</script>',
    });
    const html = await r.text();
    expect(html).toContain('<strong>Evil &lt;b&gt;&quot;App&quot;&lt;/b&gt; &amp; &#39;co&#39;</strong>');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).not.toContain('<script>');
  });

  test('wrong credentials re-render the page with an error, the email kept, and no redirect', async () => {
    const service = await startService();
    const r = await postLogin(
      service.baseUrl,
      { client_id: DEMO.clientId, state: 's' },
      { email: 'demo@example.com"><x', password: 'wrong' },
    );
    expect(r.status).toBe(200);
    expect(r.headers.get('location')).toBeNull();
    const html = await r.text();
    expect(html).toContain(
      '<p class="error" id="login-error" role="alert">The email or password is incorrect.</p>',
    );
    expect(html).toContain('value="demo@example.com&quot;&gt;&lt;x"');
    expect(html).toMatch(/name="password"[^>]* autofocus/);
    expect(html).toContain('<input type="hidden" name="state" value="s">');
  });

  test('a form without a password asks for both', async () => {
    const service = await startService();
    const r = await postLogin(service.baseUrl, { client_id: DEMO.clientId }, { email: DEMO.email });
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('Enter your email and your password.');
  });

  test('the login form posts with a JSON body is refused with 415, not a redirect', async () => {
    const service = await startService();
    const r = await rawRequest(service.baseUrl, '/v2/oauth/authorize', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(r.status).toBe(415);
  });
});

describe('successful login', () => {
  test('302 to the registered redirect URI with code and state', async () => {
    const service = await startService();
    const r = await postLogin(service.baseUrl, {
      client_id: DEMO.clientId,
      state: 'a b&c',
      response_type: 'code',
    });
    expect(r.status).toBe(302);
    const location = new URL(r.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(DEMO.redirectUri);
    expect(location.searchParams.get('state')).toBe('a b&c');
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
  });

  test('without state, no state in the redirect', async () => {
    const service = await startService();
    const r = await postLogin(service.baseUrl, { client_id: DEMO.clientId });
    const location = new URL(r.headers.get('location') ?? '');
    expect([...location.searchParams.keys()]).toEqual(['code']);
  });

  test("the redirect URI's own query is kept", async () => {
    const service = await startService(
      withDemoApp({ redirect_uris: ['https://app.example/cb?tenant=a%20b&x=1'] }),
    );
    const r = await postLogin(service.baseUrl, { client_id: DEMO.clientId, state: 's' });
    expect(r.headers.get('location')).toMatch(
      /^https:\/\/app\.example\/cb\?tenant=a%20b&x=1&code=[A-Za-z0-9_-]{43}&state=s$/,
    );
  });

  test('a loopback redirect URI on another port is accepted and used (RFC 8252 §7.3)', async () => {
    const service = await startService();
    const r = await postLogin(service.baseUrl, {
      client_id: DEMO.clientId,
      redirect_uri: 'http://127.0.0.1:54321/callback',
    });
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:54321\/callback\?code=/);
  });
});

describe('requests that get an error page, never a redirect', () => {
  type Case = [name: string, params: Record<string, string>, message: string];
  const other = { client_id: DEMO.clientId };
  const cases: Case[] = [
    ['no client_id', {}, 'The request has no client_id.'],
    [
      'unknown client_id',
      { client_id: '<bad>' },
      'No application is registered with client_id &quot;&lt;bad&gt;&quot;.',
    ],
    [
      'unregistered redirect_uri',
      { ...other, redirect_uri: 'https://evil.example/cb' },
      'The redirect_uri &quot;https://evil.example/cb&quot; is not registered for Demo App.',
    ],
    [
      'loopback, other path',
      { ...other, redirect_uri: 'http://127.0.0.1:8765/other' },
      'The redirect_uri &quot;http://127.0.0.1:8765/other&quot; is not registered for Demo App.',
    ],
    [
      'loopback, other host',
      { ...other, redirect_uri: 'http://localhost:8765/callback' },
      'The redirect_uri &quot;http://localhost:8765/callback&quot; is not registered for Demo App.',
    ],
    [
      'loopback over https',
      { ...other, redirect_uri: 'https://127.0.0.1:8765/callback' },
      'The redirect_uri &quot;https://127.0.0.1:8765/callback&quot; is not registered for Demo App.',
    ],
    [
      'loopback with a fragment',
      { ...other, redirect_uri: 'http://127.0.0.1:9/callback#x' },
      'The redirect_uri &quot;http://127.0.0.1:9/callback#x&quot; is not registered for Demo App.',
    ],
    [
      'loopback with user info',
      { ...other, redirect_uri: 'http://u@127.0.0.1:9/callback' },
      'The redirect_uri &quot;http://u@127.0.0.1:9/callback&quot; is not registered for Demo App.',
    ],
  ];

  test.each(cases)('%s (GET and POST)', async (_name, params, message) => {
    const service = await startService();
    for (const response of [
      await getAuthorize(service.baseUrl, params),
      await postLogin(service.baseUrl, params),
    ]) {
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toContain(`<p class="error" role="alert">${message}</p>`);
    }
    expect(service.stats().codes).toBe(0);
  });

  test('a repeated parameter', async () => {
    const service = await startService();
    const r = await fetch(`${service.baseUrl}/v2/oauth/authorize?client_id=${DEMO.clientId}&state=a&state=b`);
    expect(r.status).toBe(400);
    expect(await r.text()).toContain('The parameter state is given more than once.');
  });
});

describe('requests refused back at the validated redirect URI (RFC 6749 §4.1.2.1)', () => {
  type Case = [name: string, params: Record<string, string>, error: string, description: string];
  const { challenge } = pkcePair();
  const other = { client_id: DEMO.clientId, state: 'st&ate' };
  const cases: Case[] = [
    [
      'response_type token',
      { ...other, response_type: 'token' },
      'unsupported_response_type',
      'response_type "token" is not supported; only "code" is',
    ],
    [
      'another scope',
      { ...other, scope: 'admin' },
      'invalid_scope',
      'scope "admin" is not supported; the only scope is "demoservices"',
    ],
    [
      'plain PKCE',
      { ...other, code_challenge: challenge, code_challenge_method: 'plain' },
      'invalid_request',
      'code_challenge_method must be S256; "plain" is not supported',
    ],
    [
      'PKCE without a method (plain by default)',
      { ...other, code_challenge: challenge },
      'invalid_request',
      'code_challenge_method must be S256; "plain (the default)" is not supported',
    ],
    [
      'a method without a challenge',
      { ...other, code_challenge_method: 'S256' },
      'invalid_request',
      'code_challenge_method was given without a code_challenge',
    ],
    [
      'a malformed challenge',
      { ...other, code_challenge: 'short', code_challenge_method: 'S256' },
      'invalid_request',
      'code_challenge must be 43 base64url characters: BASE64URL(SHA256(code_verifier))',
    ],
    [
      'endOtherSessions not a boolean',
      { ...other, endOtherSessions: 'maybe' },
      'invalid_request',
      'endOtherSessions must be True or False',
    ],
  ];

  test.each(cases)('%s (GET and POST)', async (_name, params, error, description) => {
    const service = await startService();
    for (const response of [
      await getAuthorize(service.baseUrl, { ...params, redirect_uri: 'http://127.0.0.1:40000/callback' }),
      await postLogin(service.baseUrl, params),
    ]) {
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location') ?? '');
      expect(location.origin + location.pathname).toMatch(/^http:\/\/127\.0\.0\.1:(40000|8765)\/callback$/);
      expect(Object.fromEntries(location.searchParams)).toEqual({
        error,
        error_description: description,
        state: 'st&ate',
      });
    }
    expect(service.stats().codes).toBe(0);
  });

  test('without a state, none is added', async () => {
    const service = await startService();
    const r = await getAuthorize(service.baseUrl, { client_id: DEMO.clientId, response_type: 'token' });
    expect(r.status).toBe(302);
    expect([...new URL(r.headers.get('location') ?? '').searchParams.keys()]).toEqual([
      'error',
      'error_description',
    ]);
  });

  test('an app not enabled for the authorization-code flow: unauthorized_client', async () => {
    const service = await startService(
      withDemoApp({ grants: ['client_credentials'], refresh_tokens: false }),
    );
    const r = await getAuthorize(service.baseUrl, { client_id: DEMO.clientId, state: 's' });
    expect(r.status).toBe(302);
    const location = new URL(r.headers.get('location') ?? '');
    expect(location.searchParams.get('error')).toBe('unauthorized_client');
    expect(location.searchParams.get('state')).toBe('s');
  });
});
