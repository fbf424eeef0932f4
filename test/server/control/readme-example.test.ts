/**
 * The vitest example of "Testing your integration" in docs/serve.md, as it is there (only the
 * import path differs); the last test checks that the document still shows exactly this code.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'; // or jest's globals
import { startTokenService, type TokenServiceHandle } from '../../../src/server/index.js';

let service: TokenServiceHandle;
beforeAll(async () => {
  service = await startTokenService(); // demo configuration, free loopback port
});
afterEach(() => service.reset());
afterAll(() => service.close());

const demo = { client_id: 'demo-client', client_secret: 'demo-secret' };
type TokenBody = { access_token: string; error?: { subcode?: string } };

async function clientCredentials() {
  const response = await fetch(`${service.baseUrl}/v2/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      ...demo,
      grant_type: 'client_credentials',
      email: 'demo@example.com',
      password: 'demo-password',
    }),
  });
  return { status: response.status, body: (await response.json()) as TokenBody };
}

async function tokenInfo(token: string) {
  const response = await fetch(`${service.baseUrl}/v2/oauth/tokeninfo?client_id=demo-client`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return response.status;
}

test('expire: an hour later the token is refused', async () => {
  const { body } = await clientCredentials();
  service.clock.advance(3600);
  expect(await tokenInfo(body.access_token)).toBe(401);
});

test('revoke: the user is logged out everywhere', async () => {
  const { body } = await clientCredentials();
  expect(service.revoke({ email: 'demo@example.com' })).toEqual({ access_tokens: 1, refresh_tokens: 0 });
  expect(await tokenInfo(body.access_token)).toBe(401);
});

test('break: a 503 with Retry-After, then the 018 answer', async () => {
  service.fault({ endpoint: 'token', status: 503, retry_after: 2 });
  service.fault({ endpoint: 'token', subcode: '018' });
  expect((await clientCredentials()).status).toBe(503);
  expect((await clientCredentials()).body.error?.subcode).toBe('018');
  expect((await clientCredentials()).status).toBe(200);
});

test('deny: the login page sends the browser back with access_denied', async () => {
  const response = await fetch(`${service.baseUrl}/v2/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: 'demo-client',
      response_type: 'code',
      state: 's1',
      decision: 'deny',
    }),
    redirect: 'manual',
  });
  const location = new URL(response.headers.get('location') ?? '');
  expect(location.searchParams.get('error')).toBe('access_denied');
  expect(location.searchParams.get('state')).toBe('s1');
  // hand `location` to your client's redirect handler here
});

test('docs/serve.md shows this example unchanged', async () => {
  const { readFileSync } = await import('node:fs');
  const here = readFileSync(new URL(import.meta.url), 'utf8');
  const example = here
    .slice(here.indexOf('import { afterAll'), here.indexOf("\ntest('docs/serve.md shows"))
    .replace("'../../../src/server/index.js'", "'tokencli/server'");
  const guide = readFileSync(new URL('../../../docs/serve.md', import.meta.url), 'utf8');
  expect(guide).toContain(example);
});
