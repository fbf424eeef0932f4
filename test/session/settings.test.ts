/**
 * The errors settings resolution throws carry structured details a program can read as they are:
 * lists as arrays, never a string to split.
 */
import { describe, expect, it } from 'vitest';
import { writeConfig } from '../../src/session/config-file.js';
import { noSuchProfile, resolveSettings } from '../../src/session/settings.js';
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
