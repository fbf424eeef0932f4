/**
 * requestToken against a real loopback server: what goes on the wire (docs/contract.md §2.4) and how every
 * kind of answer comes back (docs/contract.md §1, §2.6).
 */
import { describe, expect, it } from 'vitest';
import { hintFor, TOKEN_TYPE_HINT } from '../../src/cli/output/error-hints.js';
import { exitCodeOf } from '../../src/cli/output/exit-codes.js';
import { ExitCode } from '../../src/errors.js';
import { ServiceError } from '../../src/oauth/service-error.js';
import { requestToken } from '../../src/oauth/token-request.js';
import type { GrantRequest } from '../../src/oauth/types.js';
import { GrantType } from '../../src/protocol/grants.js';
import { VERSION } from '../../src/version.js';
import { described } from '../helpers/described.js';
import { rejectionOf } from '../helpers/rejection.js';
import {
  FIXED_NOW,
  json,
  startServerForTest,
  TOKEN_BODY,
  testClient,
  testHttp,
} from '../http/loopback-server.js';

const CLIENT_CREDENTIALS: GrantRequest = {
  grant_type: GrantType.clientCredentials,
  email: 'demo@example.com',
  password: 'p&ss=word +1',
};

const serviceError = (promise: Promise<unknown>) => rejectionOf(promise, ServiceError);

describe('requestToken: the request', () => {
  it('POSTs every parameter form-encoded with an empty query, and normalises the answer', async () => {
    const server = await startServerForTest((_req, res) => json(res, 200, TOKEN_BODY));
    const tokens = await requestToken(
      testClient(server.origin, testHttp(), 'demo-secret'),
      CLIENT_CREDENTIALS,
    );
    const [req] = server.requests;
    expect(req?.method).toBe('POST');
    expect(req?.url).toBe('/v2/oauth/token');
    expect(req?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req?.headers['user-agent']).toBe(`tokencli/${VERSION}`);
    expect(Object.fromEntries(new URLSearchParams(req?.body))).toStrictEqual({
      grant_type: 'client_credentials',
      client_id: 'demo-client',
      client_secret: 'demo-secret',
      email: 'demo@example.com',
      password: 'p&ss=word +1',
    });
    expect(tokens).toStrictEqual({
      access_token: 'at-123',
      token_type: 'BearerToken',
      expires_in: 3599,
      expires_at: new Date(FIXED_NOW.getTime() + 3599_000).toISOString(),
      email: 'demo@example.com',
      redirect_uri: 'http://127.0.0.1:8765/callback',
    });
  });

  it('sends endOtherSessions=True only when asked', async () => {
    const server = await startServerForTest((_req, res) => json(res, 200, TOKEN_BODY));
    const client = testClient(server.origin, testHttp(), 'demo-secret');
    await requestToken(client, { grant_type: GrantType.refreshToken, refresh_token: 'rt' });
    await requestToken(
      client,
      { grant_type: GrantType.refreshToken, refresh_token: 'rt' },
      { endOtherSessions: false },
    );
    await requestToken(
      client,
      { grant_type: GrantType.refreshToken, refresh_token: 'rt' },
      { endOtherSessions: true },
    );
    const params = server.requests.map((r) => new URLSearchParams(r.body));
    expect(params.map((p) => p.get('endOtherSessions'))).toStrictEqual([null, null, 'True']);
    expect(params[2]?.get('refresh_token')).toBe('rt');
  });

  it.each([
    ['/api', '/api/v2/oauth/token'],
    ['/api/', '/api/v2/oauth/token'],
    ['/', '/v2/oauth/token'],
    ['', '/v2/oauth/token'],
  ])('honours the base URL path prefix %j', async (prefix, path) => {
    const server = await startServerForTest((_req, res) => json(res, 200, TOKEN_BODY));
    await requestToken(
      testClient(`${server.origin}${prefix}`, testHttp(), 'demo-secret'),
      CLIENT_CREDENTIALS,
    );
    expect(server.requests[0]?.url).toBe(path);
  });

  it('sends the authorization_code fields, and never retries that grant', async () => {
    const server = await startServerForTest((_req, res) =>
      json(res, 503, { error: 'down' }, { 'retry-after': '0' }),
    );
    const http = testHttp();
    const error = await serviceError(
      requestToken(testClient(server.origin, http, 'demo-secret'), {
        grant_type: GrantType.authorizationCode,
        code: 'the-code',
        redirect_uri: 'http://127.0.0.1:8765/callback',
        code_verifier: 'the-verifier',
      }),
    );
    expect(server.requests).toHaveLength(1);
    expect(http.slept).toStrictEqual([]);
    expect(exitCodeOf(error)).toBe(ExitCode.unavailable);
    expect(Object.fromEntries(new URLSearchParams(server.requests[0]?.body))).toStrictEqual({
      grant_type: 'authorization_code',
      client_id: 'demo-client',
      client_secret: 'demo-secret',
      code: 'the-code',
      redirect_uri: 'http://127.0.0.1:8765/callback',
      code_verifier: 'the-verifier',
    });
  });

  it('retries other grants on 503 + Retry-After, then succeeds', async () => {
    const server = await startServerForTest((_req, res, _body, i) =>
      i < 2 ? json(res, 503, {}, { 'retry-after': '1' }) : json(res, 200, TOKEN_BODY),
    );
    const http = testHttp();
    const tokens = await requestToken(testClient(server.origin, http, 'demo-secret'), CLIENT_CREDENTIALS);
    expect(tokens.access_token).toBe('at-123');
    expect(server.requests).toHaveLength(3);
    expect(http.slept).toStrictEqual([1000, 1000]);
  });

  it('sends a SAML response as a form value', async () => {
    const server = await startServerForTest((_req, res) => json(res, 200, TOKEN_BODY));
    await requestToken(testClient(server.origin, testHttp(), 'demo-secret'), {
      grant_type: GrantType.saml2Bearer,
      SAMLResponse: 'PHNhbWw+PC9zYW1sPg==',
    });
    const params = new URLSearchParams(server.requests[0]?.body);
    expect(params.get('grant_type')).toBe('urn:ietf:params:oauth:client-assertion-type:saml2-bearer');
    expect(params.get('SAMLResponse')).toBe('PHNhbWw+PC9zYW1sPg==');
  });
});

describe('requestToken: the answers', () => {
  const shapes: [string, number, unknown, Partial<ServiceError>][] = [
    [
      'the unknown-client body',
      400,
      {
        ErrorCode: 'invalid_request',
        Error: 'invalid or null consumer key: demo-client',
        Hint: 'pass client_id',
      },
      { status: 400, serviceCode: 'invalid_request', subcode: undefined, code: 'service_refused' },
    ],
    [
      'subcode 017',
      403,
      {
        error: {
          code: 403,
          message: 'Credential provided is invalid. or there was problem with your account.',
          subcode: '017',
        },
      },
      {
        status: 403,
        serviceCode: '403',
        subcode: '017',
        code: 'service_refused',
        message:
          'the token service refused the request (HTTP 403, subcode 017): Credential provided is invalid. or there was problem with your account.',
      },
    ],
    [
      'subcode 018',
      403,
      {
        error: {
          code: 403,
          message: 'Your session has been logged out as the same user is logged in elsewhere.',
          subcode: '018',
        },
      },
      {
        subcode: '018',
        code: 'service_refused',
        hint: 'run again with --end-other-sessions to end your other sessions',
      },
    ],
    [
      'RFC 6749 invalid_grant',
      400,
      { error: 'invalid_grant', error_description: 'wrong email or password' },
      {
        status: 400,
        serviceCode: 'invalid_grant',
        description: 'wrong email or password',
        code: 'service_refused',
        message: 'the token service refused the request (HTTP 400, invalid_grant): wrong email or password',
      },
    ],
    [
      'an HTML 502',
      502,
      '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>',
      {
        status: 502,
        code: 'service_unavailable',
        message: 'the token service failed (HTTP 502): 502 Bad Gateway',
      },
    ],
    [
      'an empty 500',
      500,
      '',
      {
        status: 500,
        code: 'service_unavailable',
        message: 'the token service failed (HTTP 500) with an empty body',
      },
    ],
    [
      'a 200 with HTML',
      200,
      '<!DOCTYPE html><html><body><p>Please sign in</p></body></html>',
      {
        status: 200,
        code: 'service_unavailable',
        message:
          'the token service sent an unexpected response (HTTP 200): the body is not JSON (text/html, 62 characters): Please sign in',
      },
    ],
    [
      'a 200 with broken JSON',
      200,
      '{"',
      {
        code: 'service_unavailable',
        message:
          'the token service sent an unexpected response (HTTP 200): the body is not JSON (application/json, 2 characters): {"',
      },
    ],
    [
      'a 200 without an access token',
      200,
      { token_type: 'BearerToken', expires_in: 3599 },
      {
        code: 'service_unavailable',
        message:
          'the token service sent an unexpected response (HTTP 200): access_token is missing from the token response',
      },
    ],
    [
      'a 200 that is null',
      200,
      'null',
      {
        code: 'service_unavailable',
        message:
          'the token service sent an unexpected response (HTTP 200): the token response is null, not a JSON object',
      },
    ],
  ];

  it.each(shapes)('turns %s into the right ServiceError', async (_name, status, body, expected) => {
    const server = await startServerForTest((_req, res) => {
      const isText = typeof body === 'string';
      const html = isText && body.startsWith('<');
      res.writeHead(status, { 'content-type': html ? 'text/html' : 'application/json' });
      res.end(isText ? body : JSON.stringify(body));
    });
    const error = await serviceError(
      requestToken(testClient(server.origin, testHttp(), 'demo-secret'), CLIENT_CREDENTIALS),
    );
    expect(described(error)).toMatchObject(expected);
    expect(server.requests).toHaveLength(1);
  });

  it('accepts a UTF-8 byte-order mark before the JSON', async () => {
    const server = await startServerForTest((_req, res) =>
      json(res, 200, `\ufeff${JSON.stringify(TOKEN_BODY)}`),
    );
    const tokens = await requestToken(
      testClient(server.origin, testHttp(), 'demo-secret'),
      CLIENT_CREDENTIALS,
    );
    expect(tokens.access_token).toBe('at-123');
  });

  it('refuses a token that is not a Bearer token, with a hint about the token type (RFC 6749 §7.1)', async () => {
    const server = await startServerForTest((_req, res) =>
      json(res, 200, { ...TOKEN_BODY, token_type: 'mac' }),
    );
    const error = await serviceError(
      requestToken(testClient(server.origin, testHttp(), 'demo-secret'), CLIENT_CREDENTIALS),
    );
    expect(exitCodeOf(error)).toBe(ExitCode.unavailable);
    expect(error.message).toBe(
      'the token service sent an unexpected response (HTTP 200): token_type is "mac", not Bearer: tokencli only uses Bearer tokens (RFC 6749 §7.1)',
    );
    expect(hintFor(error)).toBe(TOKEN_TYPE_HINT);
    expect(error.message).not.toContain('at-123');
  });

  it('reports a redirect without following it or re-sending the credentials', async () => {
    const server = await startServerForTest((req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${server?.port}/login?next=token` });
      res.end(req.url);
    });
    const error = await serviceError(
      requestToken(testClient(server.origin, testHttp(), 'demo-secret'), CLIENT_CREDENTIALS),
    );
    expect(exitCodeOf(error)).toBe(ExitCode.unavailable);
    expect(error.status).toBe(302);
    expect(error.message).toBe(
      `the token service answered with a redirect (HTTP 302) to http://127.0.0.1:${server.port}/login?next=token; redirects are not followed so that credentials are never sent elsewhere`,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('keeps secrets out of the error even when the service echoes them', async () => {
    const server = await startServerForTest((_req, res, body) =>
      json(res, 400, {
        error: 'invalid_request',
        error_description: `you sent: ${decodeURIComponent(body)}`,
      }),
    );
    const error = await serviceError(
      requestToken(testClient(server.origin, testHttp(), 'SECRET-CANARY-1'), {
        grant_type: GrantType.clientCredentials,
        email: 'demo@example.com',
        password: 'PASSWORD-CANARY-2',
      }),
    );
    expect(error.message).toContain('you sent: grant_type=client_credentials');
    expect(error.message).not.toContain('SECRET-CANARY-1');
    expect(error.message).not.toContain('PASSWORD-CANARY-2');
  });
});
