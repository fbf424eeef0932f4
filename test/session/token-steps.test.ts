/**
 * The token steps (docs/contract.md §2.3) in-process, on the real file store in a temporary
 * directory and against `tokencli serve`'s service on loopback, whose clock the session shares:
 * the cached token; else, under the lock, the store re-read, the refresh token, client credentials.
 */
import { describe, expect, it } from 'vitest';
import { NotLoggedInError } from '../../src/errors.js';
import { demoServiceConfig } from '../../src/server/index.js';
import type { SessionEvent } from '../../src/session/events.js';
import { givenSecrets } from '../../src/session/secret-source.js';
import { Session } from '../../src/session/session.js';
import { cachedToken, getToken, type TokenStepOptions } from '../../src/session/token-steps.js';
import type { TokenRecord } from '../../src/store/types.js';
import { tempDir } from '../fs/temp-dirs.js';
import { demoClientEnv } from '../helpers/in-process-cli.js';
import { DEMO, exchangeCode, obtainCode, startService } from '../server/helpers.js';

const STEPS: TokenStepOptions = { minTtlSeconds: 60, force: false, save: true, endOtherSessions: false };
const SECRETS = givenSecrets({ clientSecret: DEMO.clientSecret, password: DEMO.password });

async function setup() {
  const requests: string[] = [];
  const service = await startService(demoServiceConfig(), { log: (line) => requests.push(line) });
  const configDir = tempDir('tokencli-token-steps-');
  const events: SessionEvent[] = [];
  /** A new session over the same config directory, as a second run of the CLI would make. */
  const session = ({ email }: { email?: string } = { email: DEMO.email }) =>
    new Session({
      env: demoClientEnv(service.baseUrl, configDir),
      email,
      now: () => new Date(service.clock.ms),
      onEvent: (event) => events.push(event),
    });
  const tokenRequests = () => requests.filter((l) => l.includes('/v2/oauth/token ')).length;
  /** Stores `record` for the default profile, as an earlier run would have. */
  const store = async (record: Partial<TokenRecord>) => {
    const now = new Date(service.clock.ms);
    await (await session().store()).setTokens('default', {
      base_url: service.baseUrl,
      client_id: DEMO.clientId,
      access_token: 'stored-access-token',
      token_type: 'BearerToken',
      expires_at: new Date(now.getTime() + 3_600_000).toISOString(),
      grant: 'authorization_code',
      email: DEMO.email,
      obtained_at: now.toISOString(),
      ...record,
    });
  };
  return { service, session, events, tokenRequests, store };
}

describe('getToken', () => {
  it('obtains a token by client credentials, then answers from the cache without a request', async () => {
    const { session, tokenRequests } = await setup();
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
    const { session, tokenRequests } = await setup();
    const first = await getToken(session(), STEPS, SECRETS);
    const forced = await getToken(session(), { ...STEPS, force: true }, SECRETS);
    expect(forced.source).toBe('client_credentials');
    expect(forced.record.access_token).not.toBe(first.record.access_token);
    expect(tokenRequests()).toBe(2);
  });

  it('re-reads the store under the lock: two sessions at once make one exchange', async () => {
    const { session, tokenRequests } = await setup();
    const both = await Promise.all([
      getToken(session(), STEPS, SECRETS),
      getToken(session(), STEPS, SECRETS),
    ]);
    expect(both.map((o) => o.source).sort()).toEqual(['cache', 'client_credentials']);
    expect(both[0]?.record.access_token).toBe(both[1]?.record.access_token);
    expect(tokenRequests()).toBe(1);
  });

  it('renews with the stored refresh token before client credentials, keeping the refresh token', async () => {
    const { service, session, tokenRequests, store } = await setup();
    const { code } = await obtainCode(service.baseUrl);
    const login = (await exchangeCode(service.baseUrl, code)).body;
    const refreshToken = login.refresh_token as string;
    await store({
      access_token: login.access_token as string,
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
    const { service, session, events, tokenRequests, store } = await setup();
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
    const { session, events, tokenRequests, store } = await setup();
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
    const { session, tokenRequests } = await setup();
    const noPassword = givenSecrets({ clientSecret: DEMO.clientSecret });
    const steps = { ...STEPS, save: false };
    await expect(getToken(session({}), steps, noPassword)).rejects.toBeInstanceOf(NotLoggedInError);
    expect(tokenRequests()).toBe(0);
  });

  it('counts a min-ttl as long as the whole life as half the life, and says so', async () => {
    const { service, session, events, tokenRequests } = await setup();
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
