import { describe, expect, test } from 'vitest';
import { demoServiceConfig } from '../../src/server/index.js';
import {
  clientCredentials,
  DEMO,
  exchangeCode,
  obtainCode,
  rawRequest,
  startService,
  tokenInfo,
  withOtherClient,
} from './helpers.js';

const INVALID_TOKEN = {
  error: 'invalid_token',
  error_description: 'the access token is invalid, expired or revoked, or not issued to this client',
};

describe('tokeninfo', () => {
  test('answers every token-information field for a client-credentials token', async () => {
    const service = await startService();
    const token = (await clientCredentials(service.baseUrl)).body.access_token as string;
    service.clock.advance(1);
    const r = await tokenInfo(service.baseUrl, token);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      access_token: token,
      token_type: 'BearerToken',
      expires_in: 3599,
      status: 'approved',
      scope: 'demoservices',
      redirect_url: DEMO.redirectUri,
      email: DEMO.email,
      app_name: 'Demo App',
    });
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  test('includes the refresh token issued alongside, with its remaining lifetime', async () => {
    const service = await startService();
    const { code } = await obtainCode(service.baseUrl);
    const tokens = (await exchangeCode(service.baseUrl, code)).body;
    service.clock.advance(60);
    const r = await tokenInfo(service.baseUrl, tokens.access_token as string);
    expect(r.body).toMatchObject({
      expires_in: 3540,
      refresh_token: tokens.refresh_token,
      refresh_token_expires_in: 2592000 - 60,
    });
  });

  test('reports the configured scope, each service its own when several run in one process', async () => {
    const other = await startService({ ...demoServiceConfig(), scope: 'otherservices' });
    const demo = await startService();
    const otherToken = (await clientCredentials(other.baseUrl)).body.access_token as string;
    const demoToken = (await clientCredentials(demo.baseUrl)).body.access_token as string;
    // In turn, twice: the serialised scope is kept between answers and must follow the service.
    for (let round = 0; round < 2; round++) {
      expect((await tokenInfo(other.baseUrl, otherToken)).body.scope).toBe('otherservices');
      expect((await tokenInfo(demo.baseUrl, demoToken)).body.scope).toBe('demoservices');
    }
  });

  test('client_id may come in a client_id header', async () => {
    const service = await startService();
    const token = (await clientCredentials(service.baseUrl)).body.access_token as string;
    const r = await fetch(`${service.baseUrl}/v2/oauth/tokeninfo`, {
      headers: { authorization: `bearer ${token}`, client_id: DEMO.clientId },
    });
    expect(r.status).toBe(200);
  });

  test('a refresh token gets 400: not supported', async () => {
    const service = await startService();
    const { code } = await obtainCode(service.baseUrl);
    const tokens = (await exchangeCode(service.baseUrl, code)).body;
    const r = await tokenInfo(service.baseUrl, tokens.refresh_token as string);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'invalid_request',
      error_description: 'information for a refresh token is not supported; pass an access token',
    });
  });

  test('an expired access token gets 401 invalid_token (fake clock)', async () => {
    const service = await startService();
    const token = (await clientCredentials(service.baseUrl)).body.access_token as string;
    service.clock.advance(3599);
    expect((await tokenInfo(service.baseUrl, token)).body.expires_in).toBe(1);
    service.clock.advance(1);
    const r = await tokenInfo(service.baseUrl, token);
    expect(r.status).toBe(401);
    expect(r.body).toEqual(INVALID_TOKEN);
    expect(r.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  test('access_token_ttl comes from the configuration', async () => {
    const service = await startService({ ...demoServiceConfig(), access_token_ttl: 30 });
    const r = await clientCredentials(service.baseUrl);
    expect(r.body.expires_in).toBe(30);
    service.clock.advance(30);
    expect((await tokenInfo(service.baseUrl, r.body.access_token as string)).status).toBe(401);
  });

  test('an unknown token gets 401 invalid_token', async () => {
    const service = await startService();
    const r = await tokenInfo(service.baseUrl, 'unknown-token');
    expect(r.status).toBe(401);
    expect(r.body).toEqual(INVALID_TOKEN);
    expect(r.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  test("another client's access token gets the same 401", async () => {
    const service = await startService(withOtherClient());
    const token = (await clientCredentials(service.baseUrl)).body.access_token as string;
    const r = await tokenInfo(service.baseUrl, token, 'other-client');
    expect(r.status).toBe(401);
    expect(r.body).toEqual(INVALID_TOKEN);
  });

  test('a missing client_id gets the platform body', async () => {
    const service = await startService();
    const r = await rawRequest(service.baseUrl, '/v2/oauth/tokeninfo', {
      headers: { authorization: 'Bearer x' },
    });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toEqual({
      ErrorCode: 'invalid_request',
      Error: 'invalid or null consumer key: ',
      Hint: "please ensure that you are passing the consumer key like so: 'client_id={consumer_key}'",
    });
  });

  test('an unknown client_id is echoed', async () => {
    const service = await startService();
    const r = await tokenInfo(service.baseUrl, 'x', 'who');
    expect(r.status).toBe(400);
    expect(r.body.Error).toBe('invalid or null consumer key: who');
  });

  test.each([
    ['no Authorization header', {}],
    ['another scheme', { authorization: 'Basic eDp5' }],
    ['Bearer without a token', { authorization: 'Bearer ' }],
  ])('%s gets 401 with a bare Bearer challenge (RFC 6750 §3.1)', async (_name, headers) => {
    const service = await startService();
    const r = await rawRequest(service.baseUrl, `/v2/oauth/tokeninfo?client_id=${DEMO.clientId}`, {
      headers,
    });
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toBe('Bearer');
    // No error code anywhere (RFC 6750 §3.1), not a 401 that says invalid_request.
    expect(JSON.parse(r.body)).toEqual({
      error_description: 'pass the access token in an Authorization: Bearer header',
    });
  });
});
