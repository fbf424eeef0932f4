/**
 * The config file (docs/contract.md §2.1) on disk in a temporary directory: a missing file is no
 * profile, a damaged one is an error naming the file and never overwritten, and an update applies
 * its change to what the file holds at that moment and replaces the file whole.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { configDirFrom, readConfig, updateConfig, writeConfig } from '../../src/session/config-file.js';
import { expectMode } from '../helpers/file-modes.js';
import { tempDir } from '../helpers/temp-dirs.js';

describe('readConfig', () => {
  it('reads a missing file, or a missing directory, as no profile', async () => {
    const dir = tempDir('tokencli-config-file-');
    await expect(readConfig(dir)).resolves.toEqual({ profiles: {} });
    await expect(readConfig(join(dir, 'not-made'))).resolves.toEqual({ profiles: {} });
  });

  it.each([
    ['{"profiles": {', /is invalid: not JSON/],
    ['[]', /is invalid: expected an object/],
    ['{"profiles": []}', /"profiles" must be an object/],
    ['{"profiles": {"a": "x"}}', /profiles\.a must be an object/],
    [
      '{"profiles": {"a": {"base_ulr": "https://a.example"}}}',
      /profiles\.a\.base_ulr is not a known setting/,
    ],
    ['{"profiles": {"a": {"timeout": "30"}}}', /profiles\.a\.timeout must be a number/],
    ['{"profiles": {}, "active_profile": 1}', /"active_profile" must be a string/],
    ['{"profiles": {}, "store_fallback_announced": "a"}', /"store_fallback_announced" must be a list/],
  ])('refuses a damaged file %s, naming it', async (text, problem) => {
    const dir = tempDir('tokencli-config-file-');
    writeFileSync(join(dir, 'config.json'), text, { mode: 0o600 });
    const error = await readConfig(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    // The library names no command: the CLI words the hint from the reason (error-hints.ts).
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'usage', reason: 'config_invalid', hint: undefined });
    expect((error as InputError).message).toMatch(problem);
    expect((error as InputError).message).toContain(join(dir, 'config.json'));
    expect((error as InputError).details).toEqual({ path: join(dir, 'config.json') });
  });
});

describe('updateConfig', () => {
  it('applies each change to what the file holds then, so neither undoes the other', async () => {
    const dir = tempDir('tokencli-config-file-');
    await writeConfig(dir, { profiles: { a: { base_url: 'https://a.example' } } });
    // What this run read at its start, then another run's write after that read.
    const read = await readConfig(dir);
    await writeConfig(dir, { ...read, active_profile: 'a' });
    await updateConfig(dir, (config) => {
      config.profiles.b = { client_id: 'b-client' };
      return true;
    });
    expect(await readConfig(dir)).toEqual({
      active_profile: 'a',
      profiles: { a: { base_url: 'https://a.example' }, b: { client_id: 'b-client' } },
    });
  });

  it('replaces the file whole, private, leaving no temporary file beside it', async () => {
    const dir = join(tempDir('tokencli-config-file-'), 'tokencli');
    await updateConfig(dir, (config) => {
      config.profiles.a = { timeout: 7 };
      return true;
    });
    expect(readdirSync(dir)).toEqual(['config.json']);
    expectMode(join(dir, 'config.json'), 0o600);
    expectMode(dir, 0o700);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({
      profiles: { a: { timeout: 7 } },
    });
  });

  it('writes nothing when the change says nothing changed', async () => {
    const dir = tempDir('tokencli-config-file-');
    const text = '{"profiles":{"a":{"base_url":"https://a.example"}}}';
    writeFileSync(join(dir, 'config.json'), text, { mode: 0o600 });
    await updateConfig(dir, () => false);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(text);
  });

  it('leaves a damaged file as it is', async () => {
    const dir = tempDir('tokencli-config-file-');
    writeFileSync(join(dir, 'config.json'), '{"profiles": {', { mode: 0o600 });
    await expect(updateConfig(dir, () => true)).rejects.toBeInstanceOf(InputError);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{"profiles": {');
  });
});

describe('configDirFrom', () => {
  it('takes TOKENCLI_CONFIG_DIR, else the platform’s place', () => {
    expect(configDirFrom({ TOKENCLI_CONFIG_DIR: '/x', XDG_CONFIG_HOME: '/y' }, 'linux')).toBe('/x');
    expect(configDirFrom({ XDG_CONFIG_HOME: '/y', HOME: '/h' }, 'linux')).toBe(join('/y', 'tokencli'));
    expect(configDirFrom({ HOME: '/h' }, 'linux')).toBe(join('/h', '.config', 'tokencli'));
    expect(configDirFrom({ HOME: '/h', XDG_CONFIG_HOME: '/y' }, 'darwin')).toBe(
      join('/h', 'Library', 'Application Support', 'tokencli'),
    );
    expect(configDirFrom({ APPDATA: 'C:\\AppData' }, 'win32')).toBe(join('C:\\AppData', 'tokencli'));
  });
});
