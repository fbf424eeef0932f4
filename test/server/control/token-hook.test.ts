/** `onTokenRequest`: code decides the answer to a create-token request, or lets the service answer. */
import { afterEach, expect, test } from 'vitest';
import {
  demoServiceConfig,
  startTokenService,
  type TokenRequest,
  type TokenServiceHandle,
} from '../../../src/server/index.js';
import { clientCredentials, DEMO, postToken } from '../helpers.js';

let service: TokenServiceHandle | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

test('the hook sees the parsed request and may answer instead of the service', async () => {
  const seen: TokenRequest[] = [];
  service = await startTokenService(demoServiceConfig(), {
    onTokenRequest: (request) => {
      seen.push(request);
      if (request.params.email === 'locked@example.com') {
        return { status: 423, body: { error: 'account_locked' }, headers: { 'x-why': 'test' } };
      }
      return undefined;
    },
  });
  const locked = await clientCredentials(service.baseUrl, { email: 'locked@example.com' });
  expect(locked.status).toBe(423);
  expect(locked.body).toEqual({ error: 'account_locked' });
  expect(locked.headers.get('x-why')).toBe('test');
  expect(locked.headers.get('cache-control')).toBe('no-store');
  const normal = await clientCredentials(service.baseUrl);
  expect(normal.status).toBe(200);
  expect(seen.map((r) => [r.grantType, r.params.client_id])).toEqual([
    ['client_credentials', DEMO.clientId],
    ['client_credentials', DEMO.clientId],
  ]);
});

test('an async hook, a text body, and a fault that goes first', async () => {
  service = await startTokenService(demoServiceConfig(), {
    onTokenRequest: async () => ({ status: 502, body: 'upstream down' }),
  });
  const text = await fetch(`${service.baseUrl}/v2/oauth/token`, { method: 'POST' });
  expect(text.status).toBe(502);
  expect(await text.text()).toBe('upstream down');
  service.fault({ endpoint: 'token', status: 429, retry_after: 3 });
  const r = await postToken(service.baseUrl, { grant_type: 'client_credentials' });
  expect(r.status).toBe(429);
});

test('a hook that throws: 500 without details, and the service keeps serving', async () => {
  let calls = 0;
  const lines: string[] = [];
  service = await startTokenService(demoServiceConfig(), {
    log: (line) => lines.push(line),
    onTokenRequest: () => {
      calls += 1;
      if (calls === 1) throw new Error('boom');
      return undefined;
    },
  });
  const failed = await clientCredentials(service.baseUrl);
  expect(failed.status).toBe(500);
  expect(failed.body).toEqual({ error: 'server_error', error_description: 'internal error' });
  expect((await clientCredentials(service.baseUrl)).status).toBe(200);
  expect(lines.some((l) => l.includes('internal error: boom'))).toBe(true);
});

test('close() does not wait for a delayed answer', async () => {
  service = await startTokenService(demoServiceConfig());
  service.fault({ endpoint: 'tokeninfo', delay_ms: 60_000 });
  const pending = fetch(`${service.baseUrl}/v2/oauth/tokeninfo`).catch((error: unknown) => error);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = Date.now();
  await service.close();
  expect(Date.now() - started).toBeLessThan(1000);
  expect(await pending).toBeInstanceOf(Error);
  service = undefined;
});
