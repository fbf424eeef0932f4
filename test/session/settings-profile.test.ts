/**
 * Which profile, and whether the session's service is the profile's: the profile option >
 * TOKENCLI_PROFILE > the active profile > default; a base URL or client id that differs from the
 * recorded one (compared in URL normal form) is an override for the session.
 */
import { describe, expect, it } from 'vitest';
import { writeConfig } from '../../src/session/config-file.js';
import { resolveSettings, type SettingOptions } from '../../src/session/settings.js';
import { tempDir } from '../helpers/temp-dirs.js';

async function configDir(): Promise<string> {
  const dir = tempDir('tokencli-profile-settings-');
  await writeConfig(dir, {
    active_profile: 'work',
    profiles: {
      work: { base_url: 'https://work.example', client_id: 'work-client', store: 'file' },
      home: { base_url: 'https://home.example', client_id: 'home-client' },
    },
  });
  return dir;
}

function settingsWith(env: NodeJS.ProcessEnv, options: SettingOptions = {}) {
  return resolveSettings(options, env);
}

describe('profile precedence', () => {
  it('--profile > TOKENCLI_PROFILE > the active profile > default', async () => {
    const dir = await configDir();
    const env = { TOKENCLI_CONFIG_DIR: dir };
    expect(await settingsWith(env)).toMatchObject({ profile: 'work', profileSource: 'active profile' });
    expect(await settingsWith({ ...env, TOKENCLI_PROFILE: 'home' })).toMatchObject({
      profile: 'home',
      profileSource: 'environment',
      baseUrl: 'https://home.example',
    });
    expect(await settingsWith({ ...env, TOKENCLI_PROFILE: 'home' }, { profile: 'work' })).toMatchObject({
      profile: 'work',
      profileSource: 'option',
      storeKind: 'file',
      storeSource: 'profile',
    });
    const empty = tempDir('tokencli-profile-settings-');
    expect(await settingsWith({ TOKENCLI_CONFIG_DIR: empty })).toMatchObject({
      profile: 'default',
      profileSource: 'default',
      profileExists: false,
    });
  });

  it('a differing base URL or client id is an override; the same one in another spelling is not', async () => {
    const dir = await configDir();
    const env = { TOKENCLI_CONFIG_DIR: dir };
    expect((await settingsWith(env, { baseUrl: 'HTTPS://Work.Example:443/' })).overrides).toEqual([]);
    expect((await settingsWith({ ...env, TOKENCLI_CLIENT_ID: 'work-client' })).overrides).toEqual([]);
    expect((await settingsWith(env, { baseUrl: 'https://other.example' })).overrides).toEqual([
      {
        setting: 'baseUrl',
        recorded: 'https://work.example',
        given: 'https://other.example',
        origin: { kind: 'option' },
      },
    ]);
    expect((await settingsWith({ ...env, TOKENCLI_CLIENT_ID: 'x' })).overrides).toEqual([
      {
        setting: 'clientId',
        recorded: 'work-client',
        given: 'x',
        origin: { kind: 'environment', variable: 'TOKENCLI_CLIENT_ID' },
      },
    ]);
  });
});
