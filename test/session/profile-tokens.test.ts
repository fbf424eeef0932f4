/**
 * Whether a stored record is this service's and usable (docs/contract.md §2.3, §2.7): a record of
 * another base URL or client id is never handed out, whatever its life; saving and dropping go
 * through the profile's object on the real file store in a temporary directory.
 */
import { describe, expect, it } from 'vitest';
import { readConfig, writeConfig } from '../../src/session/config-file.js';
import { belongsTo, freshRecord, requiredLifeMs } from '../../src/session/profile-tokens.js';
import { Session } from '../../src/session/session.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { sampleRecord } from '../store/records.js';

const SERVICE = { baseUrl: 'http://127.0.0.1:8080', clientId: 'demo-client' };
// sampleRecord's token: obtained at 00:00, expires at 01:00 (a life of 3600 s).
const AT = (time: string) => new Date(`2030-01-01T${time}Z`);
const MS = (time: string) => AT(time).getTime();

describe('freshRecord', () => {
  it('gives this service’s record with enough life left', () => {
    expect(freshRecord(sampleRecord(), SERVICE, 60, MS('00:30:00'))).toEqual(sampleRecord());
  });

  it.each([
    ['another base URL', { base_url: 'http://127.0.0.1:8081' }],
    ['another client id', { client_id: 'other-client' }],
  ])('never gives a record of %s, however fresh', (_, other) => {
    const record = sampleRecord(other);
    expect(belongsTo(record, SERVICE)).toBe(false);
    expect(freshRecord(record, SERVICE, 0, MS('00:00:01'))).toBeUndefined();
  });

  it('never gives a token the service refused, nor an expired one', () => {
    const refused = sampleRecord({ access_token_refused_at: '2030-01-01T00:10:00.000Z' });
    expect(freshRecord(refused, SERVICE, 0, MS('00:30:00'))).toBeUndefined();
    expect(freshRecord(sampleRecord(), SERVICE, 0, MS('01:00:00'))).toBeUndefined();
    expect(freshRecord(undefined, SERVICE, 0, MS('00:30:00'))).toBeUndefined();
  });

  it('asks for the min-ttl left, or half the life when the min-ttl is the whole life or more', () => {
    expect(freshRecord(sampleRecord(), SERVICE, 600, MS('00:50:00'))).toBeDefined();
    expect(freshRecord(sampleRecord(), SERVICE, 601, MS('00:50:00'))).toBeUndefined();
    expect(requiredLifeMs(sampleRecord(), 3599)).toBe(3_599_000);
    expect(requiredLifeMs(sampleRecord(), 3600)).toBe(1_800_000);
    expect(requiredLifeMs(sampleRecord(), 86_400)).toBe(1_800_000);
    expect(freshRecord(sampleRecord(), SERVICE, 86_400, MS('00:30:00'))).toBeDefined();
    expect(freshRecord(sampleRecord(), SERVICE, 86_400, MS('00:30:01'))).toBeUndefined();
  });
});

/** A session of the default profile for SERVICE (or `env`'s), its clock at `time`, on the file store. */
function session(configDir: string, env: NodeJS.ProcessEnv = {}, time = '00:30:00') {
  return new Session({
    env: {
      TOKENCLI_CONFIG_DIR: configDir,
      TOKENCLI_BASE_URL: SERVICE.baseUrl,
      TOKENCLI_CLIENT_ID: SERVICE.clientId,
      TOKENCLI_STORE: 'file',
      ...env,
    },
    now: () => AT(time),
  });
}

describe('ProfileTokens', () => {
  it('reads a stored record of another service as there, but not as its own', async () => {
    const configDir = tempDir('tokencli-profile-tokens-');
    const other = sampleRecord({ base_url: 'http://127.0.0.1:8081' });
    await (await session(configDir).store()).setTokens('default', other);
    const tokens = await session(configDir).tokens();
    expect(await tokens.stored()).toEqual(other);
    expect(tokens.belongs(other)).toBe(false);
    expect(await tokens.get()).toBeUndefined();
    expect(await tokens.fresh(0)).toBeUndefined();
  });

  it('saves a token and records the profile’s service and store', async () => {
    const configDir = tempDir('tokencli-profile-tokens-');
    const tokens = await session(configDir).tokens();
    await expect(tokens.save(sampleRecord())).resolves.toBe(true);
    expect(await (await session(configDir).tokens()).fresh(60)).toEqual(sampleRecord());
    expect((await readConfig(configDir)).profiles.default).toEqual({
      base_url: SERVICE.baseUrl,
      client_id: SERVICE.clientId,
      store: 'file',
    });
  });

  it('keeps nothing when the session names another service than the profile’s', async () => {
    const configDir = tempDir('tokencli-profile-tokens-');
    await writeConfig(configDir, {
      profiles: {
        default: { base_url: 'http://127.0.0.1:8081', client_id: SERVICE.clientId, store: 'file' },
      },
    });
    const tokens = await session(configDir).tokens();
    expect(tokens.keeps).toBe(false);
    await expect(tokens.save(sampleRecord())).resolves.toBe(false);
    expect(await tokens.stored()).toBeUndefined();
  });

  it('drops a refused token: marked, its expiry brought forward, its refresh token kept', async () => {
    const configDir = tempDir('tokencli-profile-tokens-');
    const record = sampleRecord();
    await (await session(configDir).store()).setTokens('default', record);
    const tokens = await session(configDir).tokens();
    await expect(tokens.drop(record)).resolves.toBe(true);
    expect(await tokens.stored()).toEqual({
      ...record,
      expires_at: '2030-01-01T00:30:00.000Z',
      access_token_refused_at: '2030-01-01T00:30:00.000Z',
    });
    expect(await tokens.fresh(0)).toBeUndefined();

    // A token another run has renewed meanwhile is not the refused one: left alone.
    const renewed = sampleRecord({ access_token: 'renewed' });
    await tokens.store.setTokens('default', renewed);
    await tokens.drop(record);
    expect(await tokens.stored()).toEqual(renewed);
  });
});
