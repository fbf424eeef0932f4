/**
 * What `status` reports (docs/contract.md §2.2), gathered by the session on the real file store in
 * a temporary directory: only profiles that exist, sorted; the named one alone when it was chosen;
 * a store that cannot be reached makes what it holds unknown, never "none"; nothing is written.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TokencliError } from '../../src/errors.js';
import { writeConfig } from '../../src/session/config-file.js';
import { profilesStatus, type StoreFor } from '../../src/session/profile-status.js';
import { Session } from '../../src/session/session.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { sampleRecord } from '../store/records.js';

function session(configDir: string, env: NodeJS.ProcessEnv = {}) {
  return new Session({
    env: { TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_STORE: 'file', ...env },
    readOnly: true,
  });
}

/** Every profile in the session's own store. */
const sameStore =
  (s: Session): StoreFor =>
  () =>
    s.store();

/** Profiles `a` and `b` in the config file; tokens for `a` and for `c`, which only the store knows. */
async function configured(): Promise<string> {
  const dir = tempDir('tokencli-profile-status-');
  await writeConfig(dir, {
    active_profile: 'b',
    profiles: { b: { base_url: 'https://b.example', client_id: 'b-client' }, a: { email: 'a@example.com' } },
  });
  const store = await new Session({ env: { TOKENCLI_CONFIG_DIR: dir, TOKENCLI_STORE: 'file' } }).store();
  await store.setTokens('a', sampleRecord({ email: undefined }));
  await store.setTokens(
    'c',
    sampleRecord({ base_url: 'https://c.example', refresh_token_expires_at: undefined }),
  );
  await store.setClientSecret('c', 'c-secret');
  return dir;
}

describe('profilesStatus', () => {
  it('reports no profile for an empty config directory, and creates nothing', async () => {
    const dir = join(tempDir('tokencli-profile-status-'), 'tokencli');
    const s = session(dir);
    const status = await profilesStatus(s, sameStore(s));
    expect(status).toMatchObject({
      selectedProfile: 'default',
      selectedSource: 'default',
      selectedExists: false,
      activeProfile: 'default',
    });
    expect(status.profiles).toEqual([]);
    expect(existsSync(dir)).toBe(false);
  });

  it('reports every profile of the config file and of the store, sorted, from the record first', async () => {
    const dir = await configured();
    const s = session(dir);
    const status = await profilesStatus(s, sameStore(s));
    expect(status).toMatchObject({
      selectedProfile: 'b',
      selectedSource: 'active profile',
      selectedExists: true,
      activeProfile: 'b',
    });
    expect(status.profiles.map((p) => p.profile)).toEqual(['a', 'b', 'c']);
    const [a, b, c] = status.profiles;
    expect(a).toEqual({
      profile: 'a',
      active: false,
      selected: false,
      base_url: sampleRecord().base_url,
      client_id: sampleRecord().client_id,
      email: 'a@example.com',
      logged_in: true,
      grant: 'authorization_code',
      access_token_expires_at: sampleRecord().expires_at,
      access_token_refused_at: null,
      refresh_token_expires_at: sampleRecord().refresh_token_expires_at,
      client_secret_stored: false,
      store: 'file',
    });
    expect(b).toMatchObject({ active: true, base_url: 'https://b.example', logged_in: false, grant: null });
    expect(c).toMatchObject({
      base_url: 'https://c.example',
      refresh_token_expires_at: null,
      client_secret_stored: true,
    });
    expect(status.records.get('a')).toEqual(sampleRecord({ email: undefined }));
    expect(status.records.get('b')).toBeUndefined();
  });

  it('reports only the profile chosen by option or variable; one that does not exist is an error', async () => {
    const dir = await configured();
    const byVariable = session(dir, { TOKENCLI_PROFILE: 'c' });
    const status = await profilesStatus(byVariable, sameStore(byVariable));
    expect(status.profiles.map((p) => p.profile)).toEqual(['c']);
    expect(status.selectedSource).toBe('environment');
    expect(status.activeProfile).toBe('c');

    const missing = new Session({
      env: { TOKENCLI_CONFIG_DIR: dir, TOKENCLI_STORE: 'file' },
      profile: 'nope',
    });
    await expect(profilesStatus(missing, sameStore(missing))).rejects.toMatchObject({
      code: 'usage',
      reason: 'no_such_profile',
    });
  });

  it('says what a store it cannot reach holds is unknown, for that profile only', async () => {
    const dir = await configured();
    const s = session(dir);
    const unreachable: StoreFor = async (profile) => {
      if (profile !== 'a') return s.store();
      throw new TokencliError('the keychain is locked', { code: 'store' });
    };
    const status = await profilesStatus(s, unreachable);
    expect(status.profiles[0]).toMatchObject({
      profile: 'a',
      email: 'a@example.com',
      logged_in: null,
      grant: null,
      access_token_expires_at: null,
      client_secret_stored: null,
      store_problem: 'the keychain is locked',
    });
    expect(status.profiles[2]).toMatchObject({ profile: 'c', logged_in: true });
    expect(status.records.get('a')).toBeUndefined();
  });
});
