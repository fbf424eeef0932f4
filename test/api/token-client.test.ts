/**
 * TokenClient in-process against `tokencli serve`'s service on loopback: one session for the
 * client's life (the store is opened once, counted on the real openStore), the cache on the second
 * call, the one-call `getToken` agreeing; and errors naming options, never flags or variables.
 */
import { describe, expect, it, vi } from 'vitest';
import { getToken, SettingError, TokenClient, TokencliError } from '../../src/index.js';
import { demoServiceConfig } from '../../src/server/index.js';
import { writeConfig } from '../../src/session/config-file.js';
import { tempDir } from '../helpers/cli.js';
import { DEMO, startService } from '../server/helpers.js';

const opened = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/store/open-store.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/store/open-store.js')>();
  return {
    ...real,
    openStore: (options: Parameters<typeof real.openStore>[0]) => {
      opened.count += 1;
      return real.openStore(options);
    },
  };
});

async function setup() {
  const requests: string[] = [];
  const service = await startService(demoServiceConfig(), { log: (line) => requests.push(line) });
  const env = {
    TOKENCLI_CONFIG_DIR: tempDir('tokencli-client-'),
    TOKENCLI_BASE_URL: service.baseUrl,
    TOKENCLI_CLIENT_ID: DEMO.clientId,
    TOKENCLI_STORE: 'file',
  };
  const tokenRequests = () => requests.filter((l) => l.includes('/v2/oauth/token ')).length;
  return { env, tokenRequests };
}

describe('TokenClient', () => {
  it('obtains a token, then serves the same one from the cache, opening the store once', async () => {
    const { env, tokenRequests } = await setup();
    opened.count = 0;
    const client = new TokenClient({
      env,
      profile: 'ci',
      clientSecret: DEMO.clientSecret,
      email: DEMO.email,
      password: DEMO.password,
    });
    const first = await client.getToken();
    expect(first).toMatchObject({ source: 'client_credentials', profile: 'ci', email: DEMO.email });
    const second = await client.getToken();
    expect(second).toMatchObject({ source: 'cache', accessToken: first.accessToken });
    await expect(client.getTokenInfo()).resolves.toMatchObject({ status: 'approved' });
    expect(opened.count).toBe(1);
    expect(tokenRequests()).toBe(1);

    // The one-call function is a client of its own, over the same store and cache.
    const agreed = await getToken({ env, profile: 'ci' });
    expect(agreed).toMatchObject({ source: 'cache', accessToken: first.accessToken });
    expect(opened.count).toBe(2);
    expect(tokenRequests()).toBe(1);
  });
});

/** The error of a call, with its message checked for CLI wording. */
async function failure(call: Promise<unknown>): Promise<TokencliError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TokencliError);
  const { message } = error as TokencliError;
  expect(message).not.toMatch(/--|TOKENCLI_/);
  return error as TokencliError;
}

describe('errors name options', () => {
  it('a profile the config file does not have', async () => {
    const configDir = tempDir('tokencli-client-');
    await writeConfig(configDir, {
      profiles: { work: { base_url: 'https://work.example', client_id: 'w' } },
    });
    const error = await failure(getToken({ env: { TOKENCLI_CONFIG_DIR: configDir }, profile: 'nope' }));
    expect(error).toMatchObject({ code: 'usage', reason: 'no_such_profile' });
    expect(error.message).toBe('no profile "nope" (from the profile option)');
  });

  it('a plain http base URL off loopback', async () => {
    const env = { TOKENCLI_CONFIG_DIR: tempDir('tokencli-client-') };
    const error = await failure(getToken({ env, baseUrl: 'http://x.example', clientId: 'c' }));
    expect(error).toBeInstanceOf(SettingError);
    expect(error).toMatchObject({ code: 'usage', reason: 'setting_invalid', setting: 'baseUrl' });
    expect(error.message).toMatch(/^baseUrl: plain http:\/\/ is refused for x\.example/);
  });

  it('an unknown store', async () => {
    const env = { TOKENCLI_CONFIG_DIR: tempDir('tokencli-client-') };
    const error = await failure(getToken({ env, store: 'nope' as 'file' }));
    expect(error).toMatchObject({ code: 'usage', reason: 'setting_invalid', setting: 'store' });
    expect(error.message).toBe('store: unknown store "nope"');
  });

  it('an empty profile name', async () => {
    const env = { TOKENCLI_CONFIG_DIR: tempDir('tokencli-client-') };
    const error = await failure(getToken({ env, profile: '' }));
    expect(error).toMatchObject({ code: 'usage', reason: 'profile_name_empty' });
  });
});
