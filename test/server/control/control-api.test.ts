/**
 * The control API over HTTP: clock, revoke, faults, state, reset, and the guards
 * (off by default, Bearer control token, JSON only, strict bodies naming the bad key).
 */
import { afterEach, describe, expect, test } from 'vitest';
import {
  demoServiceConfig,
  startTokenService,
  type TokenServiceHandle,
  type TokenServiceOptions,
} from '../../../src/server/index.js';
import {
  clientCredentials,
  DEMO,
  obtainCode,
  postToken,
  REFUSED_CREDENTIALS_BODY,
  refreshGrant,
  tokenInfo,
} from '../helpers.js';

const running: TokenServiceHandle[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(options: TokenServiceOptions = { control: true }): Promise<TokenServiceHandle> {
  const service = await startTokenService(demoServiceConfig(), options);
  running.push(service);
  return service;
}

async function control(
  service: TokenServiceHandle,
  method: string,
  name: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${service.baseUrl}/_control/${name}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

async function accessToken(baseUrl: string): Promise<string> {
  const r = await clientCredentials(baseUrl);
  expect(r.status).toBe(200);
  return r.body.access_token as string;
}

describe('off by default', () => {
  test('without control: true the control paths are 404 like any unknown path', async () => {
    const service = await start({});
    const r = await control(service, 'GET', 'state');
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('not_found');
  });

  test('an empty or unprintable control token is a TypeError', async () => {
    for (const controlToken of ['', 'with space', 'tab\there']) {
      await expect(
        startTokenService(demoServiceConfig(), { control: true, host: '0.0.0.0', controlToken }),
      ).rejects.toThrow(TypeError);
    }
  });

  test('refused at start on a non-loopback bind without a control token', async () => {
    await expect(startTokenService(demoServiceConfig(), { control: true, host: '0.0.0.0' })).rejects.toThrow(
      /control API is refused on 0\.0\.0\.0/,
    );
  });
});

describe('clock', () => {
  test('advance 3600 s: the access token is expired for tokeninfo', async () => {
    const service = await start();
    const token = await accessToken(service.baseUrl);
    const before = await control(service, 'GET', 'clock');
    const moved = await control(service, 'POST', 'clock', { advance_seconds: 3600 });
    expect(moved.status).toBe(200);
    expect(moved.body.clock_offset_seconds).toBe(3600);
    expect(
      Date.parse(moved.body.time as string) - Date.parse(before.body.time as string),
    ).toBeGreaterThanOrEqual(3600_000);
    const info = await tokenInfo(service.baseUrl, token);
    expect(info.status).toBe(401);
    expect(info.body.error).toBe('invalid_token');
  });

  test('advance 19 s keeps a code good, 21 s expires it', async () => {
    const service = await start();
    const { code } = await obtainCode(service.baseUrl);
    service.clock.advance(21);
    const r = await postToken(service.baseUrl, {
      grant_type: 'authorization_code',
      client_id: DEMO.clientId,
      client_secret: DEMO.clientSecret,
      code,
      redirect_uri: DEMO.redirectUri,
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_grant');
  });

  test.each([
    [{ advance_seconds: -1 }, 'advance_seconds'],
    [{ advance_seconds: '60' }, 'advance_seconds'],
    [{}, 'advance_seconds'],
    [{ advance_seconds: 1, extra: true }, 'extra'],
  ])('bad body %j: 400 naming %s', async (body, key) => {
    const service = await start();
    const r = await control(service, 'POST', 'clock', body);
    expect(r.status).toBe(400);
    expect(r.body.key).toBe(key);
    expect(r.body.error_description).toContain(key);
    expect(service.clock.offsetSeconds).toBe(0);
  });
});

describe('revoke', () => {
  test('by access_token: tokeninfo 401, the refresh token issued with it refused', async () => {
    const service = await start();
    const { code } = await obtainCode(service.baseUrl);
    const issued = await postToken(service.baseUrl, {
      grant_type: 'authorization_code',
      client_id: DEMO.clientId,
      client_secret: DEMO.clientSecret,
      code,
      redirect_uri: DEMO.redirectUri,
    });
    const access = issued.body.access_token as string;
    const r = await control(service, 'POST', 'revoke', { access_token: access });
    expect(r.body.revoked).toEqual({ access_tokens: 1, refresh_tokens: 1 });
    expect((await tokenInfo(service.baseUrl, access)).status).toBe(401);
    const refresh = await refreshGrant(service.baseUrl, issued.body.refresh_token as string);
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe('invalid_grant');
  });

  test('by email and by client_id: every token of the user or app', async () => {
    const service = await start();
    const [a, b] = [await accessToken(service.baseUrl), await accessToken(service.baseUrl)];
    expect((await control(service, 'POST', 'revoke', { email: 'DEMO@example.com' })).body.revoked).toEqual({
      access_tokens: 2,
      refresh_tokens: 0,
    });
    expect((await tokenInfo(service.baseUrl, a)).status).toBe(401);
    expect((await tokenInfo(service.baseUrl, b)).status).toBe(401);
    const c = await accessToken(service.baseUrl);
    expect(service.revoke({ client_id: DEMO.clientId })).toEqual({ access_tokens: 1, refresh_tokens: 0 });
    expect((await tokenInfo(service.baseUrl, c)).status).toBe(401);
  });

  test.each([
    [{}, ''],
    [{ email: DEMO.email, client_id: DEMO.clientId }, 'client_id'],
    [{ email: 'nobody@example.com' }, 'email'],
    [{ client_id: 'nope' }, 'client_id'],
    [{ access_token: 42 }, 'access_token'],
    [{ token: 'x' }, 'token'],
    [[], ''],
  ])('bad body %j: 400 naming "%s"', async (body, key) => {
    const service = await start();
    const r = await control(service, 'POST', 'revoke', body);
    expect(r.status).toBe(400);
    expect(r.body.key).toBe(key);
  });
});

describe('faults', () => {
  test('503 with Retry-After for the next request only, then the service answers again', async () => {
    const service = await start();
    const added = await control(service, 'POST', 'faults', {
      endpoint: 'token',
      status: 503,
      retry_after: 2,
    });
    expect(added.status).toBe(201);
    const first = await fetch(`${service.baseUrl}/v2/oauth/token`, { method: 'POST' });
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('2');
    expect(((await first.json()) as { error: string }).error).toBe('temporarily_unavailable');
    expect((await clientCredentials(service.baseUrl)).status).toBe(200);
  });

  test('a gateway HTML 502 on tokeninfo, count 2', async () => {
    const service = await start();
    const token = await accessToken(service.baseUrl);
    service.fault({ endpoint: 'tokeninfo', body: 'html', count: 2 });
    for (let i = 0; i < 2; i++) {
      const r = await fetch(`${service.baseUrl}/v2/oauth/tokeninfo?client_id=${DEMO.clientId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(r.status).toBe(502);
      expect(r.headers.get('content-type')).toBe('text/html');
      expect(await r.text()).toContain('<h1>502 Bad Gateway</h1>');
    }
    expect((await tokenInfo(service.baseUrl, token)).status).toBe(200);
  });

  test('subcode 018 and 017: the platform bodies; grant_type filters', async () => {
    const service = await start();
    service.fault({ endpoint: 'token', subcode: '018', grant_type: 'refresh_token' });
    service.fault({ endpoint: 'token', subcode: '017', grant_type: 'client_credentials' });
    const r = await clientCredentials(service.baseUrl);
    expect(r.status).toBe(403);
    expect(r.body).toEqual(REFUSED_CREDENTIALS_BODY);
    expect(service.state().faults).toEqual([
      { endpoint: 'token', subcode: '018', grant_type: 'refresh_token', remaining: 1 },
    ]);
  });

  test('an object body, an empty body, a delay that answers normally', async () => {
    const service = await start();
    service.fault({ endpoint: 'token', body: { error: 'invalid_grant', error_description: 'nope' } });
    const r = await clientCredentials(service.baseUrl);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid_grant', error_description: 'nope' });
    service.fault({ endpoint: 'token', status: 500, body: 'empty' });
    const empty = await fetch(`${service.baseUrl}/v2/oauth/token`, { method: 'POST' });
    expect(empty.status).toBe(500);
    expect(await empty.text()).toBe('');
    service.fault({ endpoint: 'token', delay_ms: 300 });
    const started = Date.now();
    expect((await clientCredentials(service.baseUrl)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  test('DELETE clears pending faults', async () => {
    const service = await start();
    await control(service, 'POST', 'faults', { endpoint: 'token', count: 5 });
    expect((await control(service, 'GET', 'faults')).body.faults).toHaveLength(1);
    expect((await control(service, 'DELETE', 'faults', {})).status).toBe(200);
    expect((await clientCredentials(service.baseUrl)).status).toBe(200);
  });

  test.each([
    [{ status: 503 }, 'endpoint'],
    [{ endpoint: 'login' }, 'endpoint'],
    [{ endpoint: 'token', status: 99 }, 'status'],
    [{ endpoint: 'token', count: 0 }, 'count'],
    [{ endpoint: 'token', retry_after: 1.5 }, 'retry_after'],
    [{ endpoint: 'token', body: 'xml' }, 'body'],
    [{ endpoint: 'token', body: [1] }, 'body'],
    [{ endpoint: 'token', subcode: '019' }, 'subcode'],
    [{ endpoint: 'token', subcode: '018', body: 'json' }, 'body'],
    [{ endpoint: 'tokeninfo', grant_type: 'refresh_token' }, 'grant_type'],
    [{ endpoint: 'token', grant_type: 'password' }, 'grant_type'],
    [{ endpoint: 'token', delay_ms: -5 }, 'delay_ms'],
    [{ endpoint: 'token', retryAfter: 1 }, 'retryAfter'],
  ])('bad fault %j: 400 naming %s, nothing added', async (body, key) => {
    const service = await start();
    const r = await control(service, 'POST', 'faults', body);
    expect(r.status).toBe(400);
    expect(r.body.key).toBe(key);
    expect(service.state().faults).toEqual([]);
    expect(() => service.fault(body as never)).toThrow(TypeError);
  });
});

describe('state and reset', () => {
  test('state lists apps, users, live sessions and masked tokens; reset forgets them', async () => {
    const service = await start({ control: true, now: () => 1_800_000_000_000 });
    const token = await accessToken(service.baseUrl);
    service.clock.advance(60);
    service.fault({ endpoint: 'authorize', status: 500 });
    const state = await control(service, 'GET', 'state');
    expect(state.status).toBe(200);
    expect(JSON.stringify(state.body)).not.toContain(token);
    expect(state.body.live).toEqual({ codes: 0, access_tokens: 1, refresh_tokens: 0 });
    expect(state.body.clock_offset_seconds).toBe(60);
    expect(state.body.time).toBe(new Date(1_800_000_060_000).toISOString());
    expect(state.body.apps).toEqual([
      expect.objectContaining({ client_id: DEMO.clientId, app_name: 'Demo App' }),
    ]);
    const users = state.body.users as Array<Record<string, unknown>>;
    expect(users[0]).toMatchObject({ email: DEMO.email, live_session: true });
    expect(users[0]?.tokens).toEqual([
      {
        kind: 'access',
        client_id: DEMO.clientId,
        token: `${token.slice(0, 4)}…${token.slice(-4)}`,
        expires_in: 3540,
      },
    ]);
    expect(state.body.faults).toHaveLength(1);

    expect((await control(service, 'POST', 'reset')).status).toBe(200);
    const after = service.state();
    expect(after.live).toEqual({ codes: 0, access_tokens: 0, refresh_tokens: 0 });
    expect(after.faults).toEqual([]);
    expect(after.clock_offset_seconds).toBe(0);
    expect(after.users[0]?.live_session).toBe(false);
    expect((await tokenInfo(service.baseUrl, token)).status).toBe(401);
    expect((await accessToken(service.baseUrl)).length).toBeGreaterThan(0);
  });
});

describe('guards', () => {
  test('a control token is required as Bearer, compared whole', async () => {
    const service = await start({ control: true, controlToken: 's3cret-control' });
    expect((await control(service, 'GET', 'state')).status).toBe(401);
    expect(
      (await control(service, 'GET', 'state', undefined, { authorization: 'Bearer s3cret' })).status,
    ).toBe(401);
    const ok = await control(service, 'GET', 'state', undefined, { authorization: 'Bearer s3cret-control' });
    expect(ok.status).toBe(200);
  });

  test('reset and DELETE faults take no keys: an unknown one is a 400 naming it, nothing changed', async () => {
    const service = await start();
    service.clock.advance(5);
    service.fault({ endpoint: 'token' });
    const reset = await control(service, 'POST', 'reset', { keep_users: true });
    expect(reset.status).toBe(400);
    expect(reset.body).toMatchObject({ error: 'invalid_request', key: 'keep_users' });
    const clear = await control(service, 'DELETE', 'faults', { endpoint: 'token' });
    expect(clear.status).toBe(400);
    expect(clear.body).toMatchObject({ key: 'endpoint' });
    expect(service.clock.offsetSeconds).toBe(5);
    expect(service.state().faults).toHaveLength(1);
    expect((await control(service, 'POST', 'reset', {})).status).toBe(200);
    expect(service.clock.offsetSeconds).toBe(0);
  });

  test('no cross-site requests: a body must be JSON, a request from a web page is refused', async () => {
    const service = await start();
    service.clock.advance(5);
    const plain = await fetch(`${service.baseUrl}/_control/reset`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(plain.status).toBe(415);
    const fromPage = await control(service, 'POST', 'reset', undefined, { origin: 'https://evil.example' });
    expect(fromPage.status).toBe(403);
    const fetchMeta = await control(service, 'POST', 'reset', undefined, { 'sec-fetch-site': 'cross-site' });
    expect(fetchMeta.status).toBe(403);
    expect(service.clock.offsetSeconds).toBe(5);
  });

  test('unknown control endpoint 404, wrong method 405, bad JSON 400', async () => {
    const service = await start();
    expect((await control(service, 'GET', 'nope')).status).toBe(404);
    const wrong = await control(service, 'DELETE', 'state', {});
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    expect((await control(service, 'POST', 'clock', '{"advance_seconds":')).status).toBe(400);
  });

  test('the Host check holds for control requests too', async () => {
    const service = await start();
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${service.baseUrl}/_control/state`,
        { headers: { host: 'evil.example' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});
