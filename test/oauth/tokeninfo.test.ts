/** fetchTokenInfo against a real loopback server (docs/contract.md §1 rule 8-9, §2.4, §2.6). */
import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/cli/exit-codes.js';
import { ExitCode, InputError } from '../../src/errors.js';
import { ServiceError } from '../../src/oauth/service-error.js';
import { fetchTokenInfo } from '../../src/oauth/tokeninfo.js';
import { VERSION } from '../../src/version.js';
import { described } from '../helpers/described.js';
import { FIXED_NOW, json, startServerForTest, testClient, testHttp } from '../http/loopback-server.js';

const INFO = {
  access_token: 'at-123',
  token_type: 'BearerToken',
  expires_in: 3599,
  status: 'approved',
  scope: 'demoservices',
  redirect_url: 'http://127.0.0.1:8765/callback',
  email: 'demo@example.com',
  app_name: 'Demo App',
};

describe('fetchTokenInfo', () => {
  it('GETs tokeninfo with the Bearer header and client_id in the query, and normalises the answer', async () => {
    const server = await startServerForTest((_req, res) => json(res, 200, INFO));
    const info = await fetchTokenInfo(testClient(`${server.origin}/prefix/`, testHttp()), 'at-123');
    const [req] = server.requests;
    expect(req?.method).toBe('GET');
    expect(req?.url).toBe('/prefix/v2/oauth/tokeninfo?client_id=demo-client');
    expect(req?.headers.authorization).toBe('Bearer at-123');
    expect(req?.headers['user-agent']).toBe(`tokencli/${VERSION}`);
    expect(req?.body).toBe('');
    const { redirect_url: _, ...rest } = INFO;
    expect(info).toStrictEqual({
      ...rest,
      redirect_uri: 'http://127.0.0.1:8765/callback',
      expires_at: new Date(FIXED_NOW.getTime() + 3599_000).toISOString(),
    });
  });

  it('encodes an unusual client id in the query', async () => {
    const server = await startServerForTest((_req, res) => json(res, 200, INFO));
    await fetchTokenInfo({ ...testClient(server.origin, testHttp()), clientId: 'a b&c=d' }, 'at-123');
    expect(new URL(server.requests[0]?.url ?? '', server.origin).searchParams.get('client_id')).toBe(
      'a b&c=d',
    );
  });

  it('reports an invalid token (401 + WWW-Authenticate) as a refusal, exit 3', async () => {
    const server = await startServerForTest((_req, res) => {
      res.writeHead(401, {
        'www-authenticate': 'Bearer error="invalid_token", error_description="the token expired"',
      });
      res.end();
    });
    const error = await fetchTokenInfo(testClient(server.origin, testHttp()), 'at-123').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServiceError);
    expect(described(error)).toMatchObject({
      status: 401,
      serviceCode: 'invalid_token',
      description: 'the token expired',
      code: 'service_refused',
      message: 'the token service refused the request (HTTP 401, invalid_token): the token expired',
      hint: 'the access token is invalid, expired or revoked; get a new one with `tokencli token --force` (the cache may hold it) or `tokencli login`',
    });
  });

  it('reports the refresh-token refusal (400) with a tokeninfo hint', async () => {
    const server = await startServerForTest((_req, res) =>
      json(res, 400, {
        error: 'invalid_request',
        error_description: 'refresh token information is not supported',
      }),
    );
    const error = await fetchTokenInfo(testClient(server.origin, testHttp()), 'rt-456').catch(
      (e: unknown) => e,
    );
    expect(described(error)).toMatchObject({
      code: 'service_refused',
      message:
        'the token service refused the request (HTTP 400, invalid_request): refresh token information is not supported',
      hint: 'tokeninfo inspects access tokens only (not refresh tokens); check the token and the client id',
    });
  });

  it.each([['at 123'], ['at\r\nX-Injected: 1'], ['']])(
    'refuses a token that cannot go in a header (%j) before sending anything',
    async (token) => {
      const server = await startServerForTest((_req, res) => json(res, 200, INFO));
      const error = await fetchTokenInfo(testClient(server.origin, testHttp()), token).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(InputError);
      expect(exitCodeOf(error as InputError)).toBe(ExitCode.usage);
      expect((error as InputError).message).not.toContain('X-Injected');
      expect(server.requests).toHaveLength(0);
    },
  );

  it('rejects a 200 with no token information (exit 5)', async () => {
    const server = await startServerForTest((_req, res) => json(res, 200, { hello: 'world' }));
    const error = await fetchTokenInfo(testClient(server.origin, testHttp()), 'at-123').catch(
      (e: unknown) => e,
    );
    expect(described(error)).toMatchObject({
      code: 'service_unavailable',
      message:
        'the token service sent an unexpected response (HTTP 200): the token information carries none of the documented fields',
    });
  });
});
