/**
 * The library (src/index.ts) in-process against a real token service on loopback: getToken's
 * steps, settings from options over the environment, getTokenInfo, login with an openBrowser
 * hook, and errors with stable codes. Never a prompt.
 */
import { describe, expect, it } from 'vitest';
import {
  getToken,
  getTokenInfo,
  login,
  NotLoggedInError,
  ServiceError,
  type SessionEvent,
  TokencliError,
} from '../../src/index.js';
import { demoServiceConfig } from '../../src/server/index.js';
import { demoClientEnv } from '../helpers/in-process-cli.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { DEMO, postLogin, startService } from '../server/helpers.js';

async function setup() {
  const requests: string[] = [];
  const service = await startService(demoServiceConfig(), { log: (line) => requests.push(line) });
  const env = demoClientEnv(service.baseUrl, tempDir('tokencli-library-'));
  const tokenRequests = () => requests.filter((l) => l.includes('/v2/oauth/token ')).length;
  return { service, env, tokenRequests };
}

describe('getToken', () => {
  it('uses client credentials from the options, then the cache of the same profile', async () => {
    const { env, tokenRequests } = await setup();
    const first = await getToken({
      env,
      profile: 'ci',
      clientSecret: DEMO.clientSecret,
      email: DEMO.email,
      password: DEMO.password,
    });
    expect(first).toMatchObject({
      tokenType: expect.any(String),
      profile: 'ci',
      source: 'client_credentials',
      email: DEMO.email,
    });
    expect(first.expiresAt).toBeInstanceOf(Date);
    const again = await getToken({ env, profile: 'ci' });
    expect(again).toMatchObject({ accessToken: first.accessToken, source: 'cache' });
    expect(tokenRequests()).toBe(1);
  });

  it('refuses a minTtlSeconds that is not a number of seconds, without a request', async () => {
    const { env, tokenRequests } = await setup();
    const options = { env, clientSecret: DEMO.clientSecret, email: DEMO.email, password: DEMO.password };
    await getToken(options);
    for (const minTtlSeconds of [Number.NaN, -1, '300' as unknown as number]) {
      const error = await getToken({ ...options, minTtlSeconds }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'usage', message: expect.stringMatching(/^minTtlSeconds: /) });
    }
    expect(tokenRequests()).toBe(1);
  });

  it('takes options over the environment', async () => {
    const { env } = await setup();
    const error = await getToken({ env, baseUrl: 'http://10.0.0.1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokencliError);
    expect(error).toMatchObject({ code: 'usage' });
  });

  it('never prompts: without credentials it is not logged in (code not_logged_in)', async () => {
    const { env } = await setup();
    const error = await getToken({ env, clientSecret: DEMO.clientSecret }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotLoggedInError);
    expect(error).toMatchObject({ code: 'not_logged_in' });
  });

  it('reports a refusal with the service fields (code service_refused)', async () => {
    const { env } = await setup();
    const error = await getToken({
      env,
      clientSecret: DEMO.clientSecret,
      email: DEMO.email,
      password: 'wrong',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: 'service_refused', status: 403, subcode: '017' });
  });
});

describe('login and getTokenInfo', () => {
  it('logs in through the openBrowser hook, then inspects the stored token', async () => {
    const { service, env } = await setup();
    const opened: string[] = [];
    const events: SessionEvent[] = [];
    const result = await login({
      env,
      onEvent: (event) => events.push(event),
      clientSecret: DEMO.clientSecret,
      redirectUri: 'http://127.0.0.1:0/callback',
      openBrowser: async (url) => {
        opened.push(url);
        const answer = await postLogin(service.baseUrl, Object.fromEntries(new URL(url).searchParams));
        await (await fetch(answer.headers.get('location') ?? '')).text();
      },
    });
    expect(opened).toHaveLength(1);
    // The URL is announced as an event as well as opened, for a caller that shows it.
    expect(events).toContainEqual({ code: 'login_url', url: opened[0] });
    expect(result).toMatchObject({ source: 'authorization_code', email: DEMO.email, profile: 'default' });
    const info = await getTokenInfo({ env });
    expect(info).toMatchObject({ status: 'approved', email: DEMO.email });
    const cached = await getToken({ env });
    expect(cached.accessToken).toBe(result.accessToken);
  });

  it('says not logged in when nothing is stored', async () => {
    const { env } = await setup();
    await expect(getTokenInfo({ env })).rejects.toMatchObject({ code: 'not_logged_in' });
  });
});
