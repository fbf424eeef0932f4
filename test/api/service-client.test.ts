/**
 * A client that names its service (baseUrl and clientId, no profile) stands on its own: the
 * profile the user made active for another address is not read (no service_override, nothing
 * refused for being another service's), and its token is cached in memory for the client's life.
 * Against the token service on loopback, with a config directory whose active profile is another.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getToken, type SessionEvent, TokenClient } from '../../src/index.js';
import { demoServiceConfig } from '../../src/server/index.js';
import { writeConfig } from '../../src/session/config-file.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { DEMO, startService } from '../server/helpers.js';

async function setup() {
  const requests: string[] = [];
  const service = await startService(demoServiceConfig(), { log: (line) => requests.push(line) });
  const configDir = tempDir('tokencli-service-client-');
  await writeConfig(configDir, {
    active_profile: 'work',
    profiles: {
      work: { base_url: 'https://work.example', client_id: 'work-client', email: 'me@work.example' },
    },
  });
  const configText = readFileSync(join(configDir, 'config.json'), 'utf8');
  const tokenRequests = () => requests.filter((l) => l.includes('/v2/oauth/token ')).length;
  const options = {
    env: { TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_PROFILE: 'work' },
    baseUrl: service.baseUrl,
    clientId: DEMO.clientId,
    clientSecret: DEMO.clientSecret,
    email: DEMO.email,
    password: DEMO.password,
  };
  return { configDir, configText, options, tokenRequests };
}

describe('a client given baseUrl and clientId and no profile', () => {
  it('reads no active profile, asks the service once, then answers from memory', async () => {
    const { configDir, configText, options, tokenRequests } = await setup();
    const events: SessionEvent[] = [];
    const client = new TokenClient({ ...options, onEvent: (e) => events.push(e) });

    const first = await client.getToken();
    expect(first).toMatchObject({ source: 'client_credentials', email: DEMO.email });
    expect(first.profile).toMatch(/^service-[0-9a-f]{12}$/);
    const second = await client.getToken();
    expect(second).toMatchObject({ source: 'cache', accessToken: first.accessToken });
    await expect(client.getTokenInfo()).resolves.toMatchObject({ status: 'approved' });
    expect(tokenRequests()).toBe(1);
    expect(events.map((e) => e.code)).not.toContain('service_override');
    expect(events).toEqual([]);

    // Nothing was written: not the user's config, not a credentials file.
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(configText);
    expect(existsSync(join(configDir, 'credentials.json'))).toBe(false);
  });

  it('getToken works the same way for one call', async () => {
    const { options, tokenRequests } = await setup();
    const events: SessionEvent[] = [];
    await expect(getToken({ ...options, onEvent: (e) => events.push(e) })).resolves.toMatchObject({
      source: 'client_credentials',
    });
    expect(tokenRequests()).toBe(1);
    expect(events).toEqual([]);
  });

  it('with a store given, keeps its token there under its own profile for the next client', async () => {
    const { configDir, options, tokenRequests } = await setup();
    const first = await new TokenClient({ ...options, store: 'file' }).getToken();
    const again = await new TokenClient({ ...options, store: 'file' }).getToken();
    expect(again).toMatchObject({ source: 'cache', accessToken: first.accessToken, profile: first.profile });
    expect(tokenRequests()).toBe(1);
    const config = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
    expect(config.active_profile).toBe('work');
    expect(config.profiles.work).toEqual({
      base_url: 'https://work.example',
      client_id: 'work-client',
      email: 'me@work.example',
    });
  });

  it('a profile given by name is still that profile: its other service is reported', async () => {
    const { options } = await setup();
    const events: SessionEvent[] = [];
    // The file store: a named profile otherwise opens the default store, on macOS and Windows the
    // runner's own keychain.
    const client = new TokenClient({
      ...options,
      profile: 'work',
      store: 'file',
      onEvent: (e) => events.push(e),
    });
    await client.getToken({ save: false });
    expect(events.map((e) => e.code)).toContain('service_override');
  });
});
