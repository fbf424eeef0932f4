/**
 * The token steps (docs/contract.md §2.3) in-process, on the real file store in a temporary
 * directory and against `tokencli serve`'s service on loopback, whose clock the session shares:
 * the cached token; else, under the lock, the store re-read, the refresh token, client credentials.
 */
import { describe, expect, it } from 'vitest';
import { NotLoggedInError } from '../../src/errors.js';
import { demoServiceConfig } from '../../src/server/index.js';
import { givenSecrets } from '../../src/session/secret-source.js';
import { cachedToken, getToken, type TokenStepOptions } from '../../src/session/token-steps.js';
import { DEMO } from '../server/helpers.js';
import { SECRETS, serviceSession } from './service-session.js';

const STEPS: TokenStepOptions = { minTtlSeconds: 60, force: false, save: true, endOtherSessions: false };

describe('getToken', () => {
  it('obtains a token by client credentials, then answers from the cache without a request', async () => {
    const { session, tokenRequests } = await serviceSession();
    const first = await getToken(session(), STEPS, SECRETS);
    expect(first.source).toBe('client_credentials');
    expect(tokenRequests()).toBe(1);

    const next = session();
    await expect(cachedToken(next, 60)).resolves.toEqual(first.record);
    const second = await getToken(next, STEPS, SECRETS);
    expect(second).toEqual({ record: first.record, source: 'cache' });
    expect(tokenRequests()).toBe(1);
  });

  it('with force, skips a fresh cached token and asks the service again', async () => {
    const { session, tokenRequests } = await serviceSession();
    const first = await getToken(session(), STEPS, SECRETS);
    const forced = await getToken(session(), { ...STEPS, force: true }, SECRETS);
    expect(forced.source).toBe('client_credentials');
    expect(forced.record.access_token).not.toBe(first.record.access_token);
    expect(tokenRequests()).toBe(2);
  });

  it('re-reads the store under the lock: two sessions at once make one exchange', async () => {
    const { session, tokenRequests } = await serviceSession();
    const both = await Promise.all([
      getToken(session(), STEPS, SECRETS),
      getToken(session(), STEPS, SECRETS),
    ]);
    expect(both.map((o) => o.source).sort()).toEqual(['cache', 'client_credentials']);
    expect(both[0]?.record.access_token).toBe(both[1]?.record.access_token);
    expect(tokenRequests()).toBe(1);
  });

  it('renews with the stored refresh token before client credentials, keeping the refresh token', async () => {
    const { service, session, tokenRequests, store, login } = await serviceSession();
    const { accessToken, refreshToken } = await login();
    await store({
      access_token: accessToken,
      refresh_token: refreshToken,
      // Expired: the cached step has nothing to give.
      expires_at: new Date(service.clock.ms - 1000).toISOString(),
    });
    const renewed = await getToken(session(), STEPS, SECRETS);
    expect(renewed.source).toBe('refresh_token');
    expect(renewed.record).toMatchObject({ refresh_token: refreshToken, grant: 'refresh_token' });
    // The code exchange above, then the refresh: no client-credentials request.
    expect(tokenRequests()).toBe(2);
  });

  it('falls through to client credentials when the service refuses the refresh token', async () => {
    const { service, session, events, tokenRequests, store } = await serviceSession();
    await store({
      refresh_token: 'revoked-refresh-token',
      expires_at: new Date(service.clock.ms - 1000).toISOString(),
    });
    const renewed = await getToken(session(), STEPS, SECRETS);
    expect(renewed.source).toBe('client_credentials');
    expect(events.map((e) => e.code)).toContain('refresh_refused');
    expect(tokenRequests()).toBe(2);
  });

  it('never uses a stored record of another service, not even its refresh token', async () => {
    const { session, events, tokenRequests, store } = await serviceSession();
    await store({ base_url: 'http://127.0.0.1:9', refresh_token: 'another-services-refresh-token' });
    const next = session();
    await expect(cachedToken(next, 0)).resolves.toBeUndefined();
    const obtained = await getToken(next, STEPS, SECRETS);
    expect(obtained.source).toBe('client_credentials');
    expect(obtained.record.access_token).not.toBe('stored-access-token');
    expect(events.map((e) => e.code)).not.toContain('refresh_refused');
    expect(tokenRequests()).toBe(1);
  });

  it('without a usable token nor a password, is "not logged in" and asks nothing of the service', async () => {
    const { session, tokenRequests } = await serviceSession();
    const noPassword = givenSecrets({ clientSecret: DEMO.clientSecret });
    const steps = { ...STEPS, save: false };
    await expect(getToken(session({}), steps, noPassword)).rejects.toBeInstanceOf(NotLoggedInError);
    expect(tokenRequests()).toBe(0);
  });

  it('counts a min-ttl as long as the whole life as half the life, and says so', async () => {
    const { service, session, events, tokenRequests } = await serviceSession();
    const life = demoServiceConfig().access_token_ttl;
    const steps = { ...STEPS, minTtlSeconds: life };
    const first = await getToken(session(), steps, SECRETS);
    expect(events).toContainEqual({ code: 'min_ttl_too_long', minTtlSeconds: life, lifeSeconds: life });

    // More than half the life left: the cached token still serves.
    service.clock.advance(life / 2 - 10);
    await expect(getToken(session(), steps, SECRETS)).resolves.toMatchObject({
      source: 'cache',
      record: { access_token: first.record.access_token },
    });
    expect(tokenRequests()).toBe(1);

    // Less than half left: renewed.
    service.clock.advance(20);
    await expect(getToken(session(), steps, SECRETS)).resolves.toMatchObject({
      source: 'client_credentials',
    });
    expect(tokenRequests()).toBe(2);
  });
});
