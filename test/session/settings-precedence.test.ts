/**
 * Settings precedence: option (the CLI's flag, the library's option) > environment > profile in
 * the config file > default (docs/contract.md §2.1).
 */
import { describe, expect, it } from 'vitest';
import { writeConfig } from '../../src/session/config-file.js';
import { Session } from '../../src/session/session.js';
import type { SettingOptions } from '../../src/session/settings.js';
import { tempDir } from '../helpers/temp-dirs.js';

async function configDir(): Promise<string> {
  const dir = tempDir('tokencli-settings-');
  await writeConfig(dir, {
    profiles: {
      default: {
        base_url: 'https://profile.example',
        client_id: 'profile-client',
        redirect_uri: 'http://127.0.0.1:9000/profile',
        email: 'profile@example.com',
        store: 'file',
        timeout: 7,
      },
      other: { base_url: 'https://other.example', client_id: 'other-client' },
    },
  });
  return dir;
}

function sessionWith(env: NodeJS.ProcessEnv, options: SettingOptions = {}) {
  return new Session({ ...options, env });
}

describe('settings precedence', () => {
  it('takes the profile over the defaults', async () => {
    const dir = await configDir();
    const settings = await sessionWith({ TOKENCLI_CONFIG_DIR: dir }).settings();
    expect(settings).toMatchObject({
      profile: 'default',
      baseUrl: 'https://profile.example',
      clientId: 'profile-client',
      redirectUri: 'http://127.0.0.1:9000/profile',
      email: 'profile@example.com',
      storeKind: 'file',
      timeoutMs: 7000,
    });
  });

  it('takes the environment over the profile', async () => {
    const dir = await configDir();
    const settings = await sessionWith({
      TOKENCLI_CONFIG_DIR: dir,
      TOKENCLI_BASE_URL: 'https://env.example/',
      TOKENCLI_CLIENT_ID: 'env-client',
      TOKENCLI_REDIRECT_URI: 'http://127.0.0.1:9001/env',
      TOKENCLI_EMAIL: 'env@example.com',
      TOKENCLI_STORE: 'none',
      TOKENCLI_TIMEOUT: '9',
    }).settings();
    expect(settings).toMatchObject({
      baseUrl: 'https://env.example',
      clientId: 'env-client',
      redirectUri: 'http://127.0.0.1:9001/env',
      email: 'env@example.com',
      storeKind: 'none',
      timeoutMs: 9000,
    });
  });

  it('takes options over the environment', async () => {
    const dir = await configDir();
    const session = sessionWith(
      {
        TOKENCLI_CONFIG_DIR: dir,
        TOKENCLI_BASE_URL: 'https://env.example',
        TOKENCLI_CLIENT_ID: 'env-client',
        TOKENCLI_EMAIL: 'env@example.com',
        TOKENCLI_STORE: 'none',
        TOKENCLI_TIMEOUT: '9',
        TOKENCLI_PROFILE: 'other',
      },
      {
        baseUrl: 'https://flag.example',
        clientId: 'flag-client',
        store: 'file',
        timeoutSeconds: '3',
        profile: 'default',
        email: 'flag@example.com',
      },
    );
    const settings = await session.settings();
    expect(settings).toMatchObject({
      profile: 'default',
      baseUrl: 'https://flag.example',
      clientId: 'flag-client',
      email: 'flag@example.com',
      storeKind: 'file',
      timeoutMs: 3000,
    });
  });

  it('picks the profile from TOKENCLI_PROFILE when no flag names one', async () => {
    const dir = await configDir();
    const settings = await sessionWith({ TOKENCLI_CONFIG_DIR: dir, TOKENCLI_PROFILE: 'other' }).settings();
    expect(settings).toMatchObject({ profile: 'other', baseUrl: 'https://other.example', email: undefined });
  });

  it('falls back to the defaults with no config file', async () => {
    const dir = tempDir('tokencli-settings-');
    const settings = await sessionWith({ TOKENCLI_CONFIG_DIR: dir }).settings();
    expect(settings).toMatchObject({
      profile: 'default',
      baseUrl: undefined,
      clientId: undefined,
      redirectUri: 'http://127.0.0.1:8765/callback',
      storeKind: undefined,
      timeoutMs: 30_000,
    });
  });

  it('names the source of a bad value, and asks for the service only when it is missing', async () => {
    const dir = await configDir();
    const bad = sessionWith({ TOKENCLI_CONFIG_DIR: dir, TOKENCLI_TIMEOUT: 'soon' });
    await expect(bad.settings()).rejects.toMatchObject({
      code: 'usage',
      reason: 'setting_invalid',
      setting: 'timeoutSeconds',
      origin: { kind: 'environment', variable: 'TOKENCLI_TIMEOUT' },
      problem: '"soon" is not a timeout in seconds',
    });
    const empty = tempDir('tokencli-settings-');
    const missing = sessionWith({ TOKENCLI_CONFIG_DIR: empty });
    await expect(missing.service()).rejects.toMatchObject({ code: 'usage', reason: 'not_configured' });
    await expect(missing.service()).rejects.toThrow('no base URL for profile "default"');
  });
});
