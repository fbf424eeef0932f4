/**
 * Asking the service about the profile's stored access token (docs/contract.md §1 rule 9): a token
 * the service refuses is dropped so the next token step renews it; one refused earlier, or one of
 * another service, is never sent. On the real file store against the service on loopback.
 */
import { describe, expect, it } from 'vitest';
import { NotLoggedInError, TokencliError } from '../../src/errors.js';
import { ServiceError } from '../../src/oauth/service-error.js';
import { inspectToken } from '../../src/session/inspect.js';
import { getToken } from '../../src/session/token-steps.js';
import { SECRETS, serviceSession } from './service-session.js';

const TOKENINFO = '/v2/oauth/tokeninfo';

describe('inspectToken', () => {
  it('asks about the stored token of this service', async () => {
    const { session, countRequests } = await serviceSession();
    const steps = { minTtlSeconds: 60, force: false, save: true, endOtherSessions: false };
    await getToken(session(), steps, SECRETS);
    await expect(inspectToken(session())).resolves.toMatchObject({ status: 'approved' });
    expect(countRequests(TOKENINFO)).toBe(1);
  });

  it('drops a token the service refuses, saying whether a refresh token can renew it', async () => {
    const { session, store } = await serviceSession();
    const stored = await store({ access_token: 'unknown-access-token', refresh_token: 'r' });
    const error = await inspectToken(session()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ reason: 'access_token_refused', details: { canRenew: 1 } });
    const after = await (await session().tokens()).stored();
    expect(after).toMatchObject({ access_token: stored.access_token, refresh_token: 'r' });
    expect(after?.access_token_refused_at).toBeDefined();
    await expect((await session().tokens()).fresh(0)).resolves.toBeUndefined();
  });

  it('never sends a token refused earlier, nor one of another service', async () => {
    const { session, store, countRequests } = await serviceSession();
    await store({ access_token_refused_at: '2000-01-01T00:00:00.000Z' });
    await expect(inspectToken(session())).rejects.toMatchObject({
      code: 'service_refused',
      reason: 'access_token_refused',
      details: { canRenew: 0 },
    });
    await store({ base_url: 'http://127.0.0.1:9' });
    const error = await inspectToken(session()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotLoggedInError);
    expect(countRequests(TOKENINFO)).toBe(0);
  });

  it('with nothing stored, is "not logged in"', async () => {
    const { session } = await serviceSession();
    const error = await inspectToken(session()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokencliError);
    expect(error).toMatchObject({ reason: 'no_access_token' });
  });
});
