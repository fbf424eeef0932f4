import { describe, expect, test } from 'vitest';
import { demoServiceConfig } from '../../src/server/index.js';
import {
  DEMO,
  exchangeCode,
  obtainCode,
  postToken,
  refreshGrant,
  startService,
  tokenInfo,
  withOtherClient,
} from './helpers.js';

async function login(baseUrl: string): Promise<{ access: string; refresh: string }> {
  const { code } = await obtainCode(baseUrl);
  const r = await exchangeCode(baseUrl, code);
  return { access: r.body.access_token as string, refresh: r.body.refresh_token as string };
}

const INVALID = {
  error: 'invalid_grant',
  error_description: 'the refresh token is invalid, expired or revoked',
};

describe('refresh token grant', () => {
  test('issues a new access token and keeps the same refresh token with its remaining lifetime', async () => {
    const service = await startService();
    const tokens = await login(service.baseUrl);
    service.clock.advance(100);
    const r = await refreshGrant(service.baseUrl, tokens.refresh);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      token_type: 'BearerToken',
      expires_in: 3600,
      refresh_token: tokens.refresh,
      refresh_token_expires_in: 2592000 - 100,
      redirect_url: DEMO.redirectUri,
      email: DEMO.email,
    });
    expect(r.body.access_token).not.toBe(tokens.access);
    // Not rotated: the same refresh token keeps working.
    expect((await refreshGrant(service.baseUrl, tokens.refresh)).status).toBe(200);
    // The earlier access token is not revoked by a refresh.
    expect((await tokenInfo(service.baseUrl, tokens.access)).status).toBe(200);
  });

  test('works until the refresh token expires (fake clock)', async () => {
    const service = await startService();
    const tokens = await login(service.baseUrl);
    service.clock.advance(2592000 - 1);
    const last = await refreshGrant(service.baseUrl, tokens.refresh);
    expect(last.status).toBe(200);
    expect(last.body.refresh_token_expires_in).toBe(1);
    service.clock.advance(1);
    const late = await refreshGrant(service.baseUrl, tokens.refresh);
    expect(late.status).toBe(400);
    expect(late.body).toEqual(INVALID);
  });

  test('refresh_token_ttl comes from the configuration', async () => {
    const service = await startService({ ...demoServiceConfig(), refresh_token_ttl: 120 });
    const tokens = await login(service.baseUrl);
    service.clock.advance(120);
    expect((await refreshGrant(service.baseUrl, tokens.refresh)).body).toEqual(INVALID);
  });

  test('an access token is not a refresh token', async () => {
    const service = await startService();
    const tokens = await login(service.baseUrl);
    expect((await refreshGrant(service.baseUrl, tokens.access)).body).toEqual(INVALID);
  });

  test('an unknown refresh token is invalid_grant', async () => {
    const service = await startService();
    const r = await refreshGrant(service.baseUrl, 'unknown');
    expect(r.status).toBe(400);
    expect(r.body).toEqual(INVALID);
  });

  test('a missing refresh_token is invalid_request', async () => {
    const service = await startService();
    const r = await postToken(service.baseUrl, {
      grant_type: 'refresh_token',
      client_id: DEMO.clientId,
      client_secret: DEMO.clientSecret,
    });
    expect(r.body).toEqual({ error: 'invalid_request', error_description: 'refresh_token is required' });
  });

  test("another client's refresh token is refused", async () => {
    const service = await startService(withOtherClient(true));
    const tokens = await login(service.baseUrl);
    const r = await refreshGrant(service.baseUrl, tokens.refresh, {
      client_id: 'other-client',
      client_secret: 'other-secret',
    });
    expect(r.body).toEqual(INVALID);
  });
});
