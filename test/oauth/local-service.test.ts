/**
 * The protocol layer against the project's own token service (src/server, what `tokencli serve`
 * runs), in process over loopback: the client must understand every answer the faithful service
 * gives — successes, the three error shapes, the concurrent-session rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hintFor } from '../../src/cli/error-hints.js';
import { exitCodeOf } from '../../src/cli/exit-codes.js';
import { ExitCode } from '../../src/errors.js';
import { ServiceError } from '../../src/oauth/service-error.js';
import { requestToken } from '../../src/oauth/token-request.js';
import { fetchTokenInfo } from '../../src/oauth/tokeninfo.js';
import type { ServiceClient } from '../../src/oauth/types.js';
import { GrantType } from '../../src/protocol/grants.js';
import { demoServiceConfig, startTokenService, type TokenServiceHandle } from '../../src/server/index.js';
import { described } from '../helpers/described.js';
import { rejectionOf } from '../helpers/rejection.js';
import { testHttp } from '../http/loopback-server.js';

let service: TokenServiceHandle;
let client: ServiceClient;

beforeAll(async () => {
  const config = demoServiceConfig();
  config.users.push({ email: 'single@example.com', password: 'single-password', single_session: true });
  service = await startTokenService(config);
  client = {
    baseUrl: service.baseUrl,
    clientId: 'demo-client',
    clientSecret: 'demo-secret',
    http: testHttp(),
  };
});
afterAll(async () => {
  await service?.close();
});

const demoUser = {
  grant_type: GrantType.clientCredentials,
  email: 'demo@example.com',
  password: 'demo-password',
} as const;

const serviceError = (promise: Promise<unknown>) => rejectionOf(promise, ServiceError);

describe('against the local token service', () => {
  it('obtains a client-credentials token and reads its information', async () => {
    const before = Date.now();
    const tokens = await requestToken(client, demoUser);
    expect(tokens.token_type).toBe('BearerToken');
    expect(tokens.email).toBe('demo@example.com');
    expect(tokens.redirect_uri).toBe('http://127.0.0.1:8765/callback');
    expect(tokens.expires_in).toBeGreaterThan(3500);
    expect(Date.parse(tokens.expires_at)).toBeGreaterThanOrEqual(before + tokens.expires_in * 1000);
    expect(tokens.refresh_token).toBeUndefined();

    const info = await fetchTokenInfo({ ...client, clientSecret: undefined }, tokens.access_token);
    expect(info).toMatchObject({
      access_token: tokens.access_token,
      status: 'approved',
      email: 'demo@example.com',
      app_name: 'Demo App',
      redirect_uri: 'http://127.0.0.1:8765/callback',
    });
    expect(info).not.toHaveProperty('redirect_url');
    expect(typeof info.expires_at).toBe('string');
  });

  it('bad user credentials: subcode 017, exit 3', async () => {
    const error = await serviceError(requestToken(client, { ...demoUser, password: 'wrong-password' }));
    expect(described(error)).toMatchObject({ status: 403, subcode: '017', code: 'service_refused' });
    expect(hintFor(error)).toMatch(/email and password/);
    expect(error.message).not.toContain('wrong-password');
  });

  it('unknown client: the ErrorCode body, exit 3, hint naming the client id', async () => {
    const error = await serviceError(requestToken({ ...client, clientId: 'nobody' }, demoUser));
    expect(described(error)).toMatchObject({ status: 400, code: 'service_refused' });
    expect(hintFor(error)).toMatch(/client id "nobody"/);
  });

  it('wrong client secret: refused, exit 3, secret not repeated', async () => {
    const error = await serviceError(requestToken({ ...client, clientSecret: 'not-the-secret' }, demoUser));
    expect(exitCodeOf(error)).toBe(ExitCode.refused);
    expect(error.message).not.toContain('not-the-secret');
  });

  it('a used-up or invented code: invalid_grant, exit 3, the login hint', async () => {
    const error = await serviceError(
      requestToken(client, {
        grant_type: GrantType.authorizationCode,
        code: 'invented-code',
        redirect_uri: 'http://127.0.0.1:8765/callback',
      }),
    );
    expect(described(error)).toMatchObject({
      status: 400,
      serviceCode: 'invalid_grant',
      code: 'service_refused',
    });
    expect(hintFor(error)).toMatch(/tokencli login/);
  });

  it('an invalid refresh token: invalid_grant, exit 3', async () => {
    const error = await serviceError(
      requestToken(client, { grant_type: GrantType.refreshToken, refresh_token: 'no-such-refresh-token' }),
    );
    expect(described(error)).toMatchObject({ serviceCode: 'invalid_grant', code: 'service_refused' });
    expect(hintFor(error)).toBe('the refresh token is invalid, expired or revoked; run `tokencli login`');
  });

  it('an unknown access token on tokeninfo: 401, exit 3', async () => {
    const error = await serviceError(fetchTokenInfo(client, 'no-such-access-token'));
    expect(described(error)).toMatchObject({ status: 401, code: 'service_refused' });
    expect(hintFor(error)).toMatch(/invalid, expired or revoked/);
    expect(error.message).not.toContain('no-such-access-token');
  });

  it('a single-session user: subcode 018 with the hint, then endOtherSessions=True succeeds', async () => {
    const single = {
      grant_type: GrantType.clientCredentials,
      email: 'single@example.com',
      password: 'single-password',
    } as const;
    const first = await requestToken(client, single);
    const error = await serviceError(requestToken(client, single));
    expect(described(error)).toMatchObject({ status: 403, subcode: '018', code: 'service_refused' });
    expect(hintFor(error)).toBe('run again with --end-other-sessions to end your other sessions');
    const second = await requestToken(client, single, { endOtherSessions: true });
    expect(second.access_token).not.toBe(first.access_token);
    const revoked = await serviceError(fetchTokenInfo(client, first.access_token));
    expect(exitCodeOf(revoked)).toBe(ExitCode.refused);
  });
});
