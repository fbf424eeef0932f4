/**
 * `refresh` now (refreshNow): the profile's stored refresh token of this service exchanged under
 * the lock and the new token kept; no exchange at all without one, or with an expired one. On the
 * real file store against `tokencli serve`'s service on loopback.
 */
import { describe, expect, it } from 'vitest';
import { NotLoggedInError } from '../../src/errors.js';
import { refreshNow } from '../../src/session/refresh.js';
import { SECRETS, serviceSession } from './service-session.js';

const OPTIONS = { endOtherSessions: false };

describe('refreshNow', () => {
  it('exchanges the stored refresh token and keeps the new access token with it', async () => {
    const { session, store, login, tokenRequests } = await serviceSession();
    const { accessToken, refreshToken } = await login();
    await store({ access_token: accessToken, refresh_token: refreshToken });
    const result = await refreshNow(session(), OPTIONS, SECRETS);
    expect(result).toMatchObject({
      stored: true,
      record: { grant: 'refresh_token', refresh_token: refreshToken },
    });
    expect(result.record.access_token).not.toBe(accessToken);
    expect(await (await session().tokens()).get()).toEqual(result.record);
    expect(tokenRequests()).toBe(2);
  });

  it.each([
    ['no refresh token', {}, 'no_refresh_token'],
    [
      'a refresh token of another service',
      { base_url: 'http://127.0.0.1:9', refresh_token: 'r' },
      'no_refresh_token',
    ],
    [
      'an expired refresh token',
      { refresh_token: 'r', refresh_token_expires_at: '2000-01-01T00:00:00Z' },
      'refresh_token_expired',
    ],
  ])('with %s, is "not logged in" without asking the service', async (_, record, reason) => {
    const { session, store, tokenRequests } = await serviceSession();
    await store({ refresh_token: undefined, ...record });
    const error = await refreshNow(session(), OPTIONS, SECRETS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotLoggedInError);
    expect(error).toMatchObject({ reason });
    expect(tokenRequests()).toBe(0);
  });
});
