/**
 * The errors settings resolution throws carry structured details a program can read as they are:
 * lists as arrays, never a string to split.
 */
import { describe, expect, it } from 'vitest';
import { writeConfig } from '../../src/session/config-file.js';
import { checkProfileName, noSuchProfile, resolveSettings } from '../../src/session/settings.js';
import { sampleStrings } from '../helpers/sample-strings.js';
import { tempDir } from '../helpers/temp-dirs.js';

describe('noSuchProfile', () => {
  it('lists the profiles there are as an array, sorted', async () => {
    const configDir = tempDir('tokencli-settings-');
    await writeConfig(configDir, {
      profiles: {
        par: { base_url: 'https://par.example', client_id: 'p' },
        demo: { base_url: 'https://demo.example', client_id: 'd' },
      },
    });
    const settings = await resolveSettings({ profile: 'nope' }, { TOKENCLI_CONFIG_DIR: configDir });
    const error = noSuchProfile(settings);
    expect(error).toMatchObject({ code: 'usage', reason: 'no_such_profile' });
    expect(error.details).toEqual({ profile: 'nope', names: ['demo', 'par'], source: 'option' });
  });

  it('an empty array when there is no profile at all', async () => {
    const configDir = tempDir('tokencli-settings-');
    const settings = await resolveSettings({ profile: 'nope' }, { TOKENCLI_CONFIG_DIR: configDir });
    expect(noSuchProfile(settings).details.names).toEqual([]);
  });
});

describe('checkProfileName', () => {
  const isValid = (name: string) => {
    try {
      checkProfileName(name);
      return true;
    } catch {
      return false;
    }
  };

  it('takes ASCII letters and digits, then also ".", "_" and "-", up to 64 characters', () => {
    for (const name of ['ci', 'a', 'Work-2.prod_x', '0', 'a'.repeat(64)])
      expect(isValid(name), name).toBe(true);
    for (const name of ['', '.hidden', '-x', '_x', 'a'.repeat(65), 'a b', 'a/b', '..', 'a\n'])
      expect(isValid(name), name).toBe(false);
  });

  it('refuses letters outside ASCII, even those that case-fold to ASCII (Kelvin sign, dotless i)', () => {
    for (const name of ['caf\u00e9', '\u0131d', '\u212a', 'ci\u200b'])
      expect(isValid(name), name).toBe(false);
  });

  it('says what was wrong, as a usage error with a hint', () => {
    expect(() => checkProfileName('a/b')).toThrow(
      expect.objectContaining({
        code: 'usage',
        message: 'invalid profile name "a/b"',
        hint: 'use letters, digits, ".", "_" and "-" (at most 64)',
      }),
    );
  });

  it('agrees with /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/ on every short string at its edges', () => {
    const rule = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
    const alphabet = ['a', 'Z', '0', '.', '_', '-', '\u212a', ' ', '/', '\n'];
    for (const name of sampleStrings(alphabet, 3)) expect(isValid(name), name).toBe(rule.test(name));
  });
});
