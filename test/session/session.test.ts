/**
 * One session: the client secret given, else stored, else asked; a session that only looks never
 * writes the config file; a service that differs from the profile's is said once. On the real file
 * store in a temporary directory; nothing here needs the network.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig, writeConfig } from '../../src/session/config-file.js';
import type { SessionEvent } from '../../src/session/events.js';
import type { SecretSource } from '../../src/session/secret-source.js';
import { Session } from '../../src/session/session.js';
import { tempDir } from '../helpers/temp-dirs.js';

function secrets(given?: string, asked?: string): SecretSource {
  return {
    clientSecret: async () => given,
    askClientSecret: async () => asked,
    password: async () => undefined,
    passwordGiven: () => false,
    canAsk: asked !== undefined,
  };
}

function session(
  configDir: string,
  options: { readOnly?: boolean; onEvent?: (e: SessionEvent) => void } = {},
) {
  const env = {
    TOKENCLI_CONFIG_DIR: configDir,
    TOKENCLI_BASE_URL: 'http://127.0.0.1:8080',
    TOKENCLI_CLIENT_ID: 'demo-client',
    TOKENCLI_STORE: 'file',
  };
  return new Session({ env, ...options });
}

describe('Session.clientSecret', () => {
  it('takes the given one over the stored one, the stored one over asking', async () => {
    const dir = tempDir('tokencli-session-');
    const asking = session(dir);
    await expect(asking.clientSecret(secrets(undefined, 'typed'))).resolves.toBe('typed');
    expect(asking.clientSecretOrigin()).toBe('asked');
    expect(asking.typedClientSecret()).toBe('typed');

    await (await session(dir).store()).setClientSecret('default', 'stored');
    const storing = session(dir);
    await expect(storing.clientSecret(secrets(undefined, 'typed'))).resolves.toBe('stored');
    expect(storing.clientSecretOrigin()).toBe('stored');
    expect(storing.typedClientSecret()).toBeUndefined();

    const giving = session(dir);
    await expect(giving.clientSecret(secrets('given', 'typed'))).resolves.toBe('given');
    expect(giving.clientSecretOrigin()).toBe('given');
  });

  it('with none given, stored or asked, is a usage error', async () => {
    const dir = tempDir('tokencli-session-');
    await expect(session(dir).clientSecret(secrets())).rejects.toMatchObject({
      code: 'usage',
      reason: 'client_secret_missing',
    });
  });
});

describe('a read-only session', () => {
  it('refuses to write the config file, and makes no config directory', async () => {
    const dir = join(tempDir('tokencli-session-'), 'tokencli');
    const looking = session(dir, { readOnly: true });
    await expect(looking.updateConfig(() => true)).rejects.toMatchObject({ code: 'internal' });
    expect(existsSync(dir)).toBe(false);
    const writing = session(dir);
    await writing.updateConfig((config) => {
      config.active_profile = 'default';
      return true;
    });
    expect((await readConfig(dir)).active_profile).toBe('default');
  });
});

describe('Session.service', () => {
  it('says once that the service differs from the profile’s', async () => {
    const dir = tempDir('tokencli-session-');
    await writeConfig(dir, {
      profiles: { default: { base_url: 'https://work.example', client_id: 'demo-client' } },
    });
    const events: SessionEvent[] = [];
    const overridden = session(dir, { onEvent: (e) => events.push(e) });
    await overridden.service();
    await overridden.service();
    expect(events).toEqual([
      {
        code: 'service_override',
        profile: 'default',
        overrides: [
          {
            setting: 'baseUrl',
            recorded: 'https://work.example',
            given: 'http://127.0.0.1:8080',
            origin: { kind: 'environment', variable: 'TOKENCLI_BASE_URL' },
          },
        ],
      },
    ]);
  });

  it('without a base URL, says which is missing', async () => {
    const dir = tempDir('tokencli-session-');
    const bare = new Session({ env: { TOKENCLI_CONFIG_DIR: dir } });
    await expect(bare.service()).rejects.toMatchObject({ code: 'usage', reason: 'not_configured' });
  });
});

describe('the session clock', () => {
  it('is the `now` option, in milliseconds too, when one is given', () => {
    const at = new Date('2030-01-01T00:00:00.000Z');
    const clocked = new Session({ now: () => at });
    expect(clocked.now()).toBe(at);
    expect(clocked.time()).toBe(at.getTime());
  });

  it('is the system clock without one', () => {
    const before = Date.now();
    const time = new Session().time();
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(Date.now());
  });
});
