import { describe, expect, test } from 'vitest';
import { demoServiceConfig, type ServiceConfig } from '../../src/server/index.js';
import {
  clientCredentials,
  DEMO,
  exchangeCode,
  obtainCode,
  postLogin,
  refreshGrant,
  startService,
  tokenInfo,
} from './helpers.js';

const SESSION_018 = {
  error: {
    code: 403,
    message: 'Your session has been logged out as the same user is logged in elsewhere.',
    subcode: '018',
  },
};

function singleSessionConfig(): ServiceConfig {
  const config = demoServiceConfig();
  config.users.push({ email: 'solo@example.com', password: 'solo-password', single_session: true });
  return config;
}

const solo = { email: 'solo@example.com', password: 'solo-password' };

/** Logs the single-session user in through the login form; returns the code. */
async function soloCode(baseUrl: string, authorize: Record<string, string> = {}): Promise<string> {
  const login = await postLogin(baseUrl, { client_id: DEMO.clientId, ...authorize }, solo);
  expect(login.status).toBe(302);
  return new URL(login.headers.get('location') ?? '').searchParams.get('code') ?? '';
}

describe('single-session users (docs/contract.md §1 rule 10)', () => {
  test('a second client-credentials login gets 403 subcode 018', async () => {
    const service = await startService(singleSessionConfig());
    expect((await clientCredentials(service.baseUrl, solo)).status).toBe(200);
    const second = await clientCredentials(service.baseUrl, solo);
    expect(second.status).toBe(403);
    expect(second.body).toEqual(SESSION_018);
  });

  test('endOtherSessions=True (any case) ends the first session and starts the new one', async () => {
    const service = await startService(singleSessionConfig());
    const first = await clientCredentials(service.baseUrl, solo);
    const second = await clientCredentials(service.baseUrl, { ...solo, endOtherSessions: 'true' });
    expect(second.status).toBe(200);
    expect((await tokenInfo(service.baseUrl, first.body.access_token as string)).status).toBe(401);
    expect((await tokenInfo(service.baseUrl, second.body.access_token as string)).status).toBe(200);
  });

  test('once the session expired, a new login needs no endOtherSessions', async () => {
    const service = await startService(singleSessionConfig());
    await clientCredentials(service.baseUrl, solo);
    service.clock.advance(3600);
    expect((await clientCredentials(service.baseUrl, solo)).status).toBe(200);
  });

  test('the rule applies when the code is exchanged; the login page itself succeeds', async () => {
    const service = await startService(singleSessionConfig());
    await clientCredentials(service.baseUrl, solo);
    const code = await soloCode(service.baseUrl);
    const r = await exchangeCode(service.baseUrl, code);
    expect(r.status).toBe(403);
    expect(r.body).toEqual(SESSION_018);
  });

  test('endOtherSessions at the authorize endpoint carries into the exchange', async () => {
    const service = await startService(singleSessionConfig());
    const first = await clientCredentials(service.baseUrl, solo);
    const code = await soloCode(service.baseUrl, { endOtherSessions: 'True' });
    expect((await exchangeCode(service.baseUrl, code)).status).toBe(200);
    expect((await tokenInfo(service.baseUrl, first.body.access_token as string)).status).toBe(401);
  });

  test('the refresh of the live session itself is not refused', async () => {
    const service = await startService(singleSessionConfig());
    const tokens = await exchangeCode(service.baseUrl, await soloCode(service.baseUrl));
    expect(tokens.status).toBe(200);
    const refreshed = await refreshGrant(service.baseUrl, tokens.body.refresh_token as string);
    expect(refreshed.status).toBe(200);
  });
});

describe('endOtherSessions for any user', () => {
  test('a user who may hold several sessions does', async () => {
    const service = await startService();
    const a = await clientCredentials(service.baseUrl);
    const b = await clientCredentials(service.baseUrl);
    expect((await tokenInfo(service.baseUrl, a.body.access_token as string)).status).toBe(200);
    expect((await tokenInfo(service.baseUrl, b.body.access_token as string)).status).toBe(200);
  });

  test('ends the other sessions: access and refresh tokens, of every session', async () => {
    const service = await startService();
    const { code } = await obtainCode(service.baseUrl);
    const coded = await exchangeCode(service.baseUrl, code);
    const cc = await clientCredentials(service.baseUrl);
    const fresh = await clientCredentials(service.baseUrl, { endOtherSessions: 'True' });
    expect(fresh.status).toBe(200);
    for (const old of [coded.body.access_token, cc.body.access_token]) {
      const info = await tokenInfo(service.baseUrl, old as string);
      expect(info.status).toBe(401);
      expect(info.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    }
    const refreshed = await refreshGrant(service.baseUrl, coded.body.refresh_token as string);
    expect(refreshed.body).toEqual({
      error: 'invalid_grant',
      error_description: 'the refresh token is invalid, expired or revoked',
    });
    expect((await tokenInfo(service.baseUrl, fresh.body.access_token as string)).status).toBe(200);
  });

  test('other users keep their sessions', async () => {
    const service = await startService(singleSessionConfig());
    const other = await clientCredentials(service.baseUrl, solo);
    await clientCredentials(service.baseUrl, { endOtherSessions: 'True' });
    expect((await tokenInfo(service.baseUrl, other.body.access_token as string)).status).toBe(200);
  });

  test('a refresh with endOtherSessions=True keeps its own session and ends the others', async () => {
    const service = await startService();
    const { code } = await obtainCode(service.baseUrl);
    const coded = await exchangeCode(service.baseUrl, code);
    const other = await clientCredentials(service.baseUrl);
    const refresh = (extra: Record<string, string> = {}) =>
      refreshGrant(service.baseUrl, coded.body.refresh_token as string, extra);
    const r = await refresh({ endOtherSessions: 'TRUE' });
    expect(r.status).toBe(200);
    expect((await tokenInfo(service.baseUrl, other.body.access_token as string)).status).toBe(401);
    expect((await tokenInfo(service.baseUrl, r.body.access_token as string)).status).toBe(200);
    expect((await refresh()).status).toBe(200);
  });
});
