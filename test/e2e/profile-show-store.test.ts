/**
 * `profile show` for a profile whose store cannot be reached: what it holds is unknown, which is
 * not a success — exit 4 with the error and hint `status` gives (docs/contract.md §2.6). No D-Bus
 * here, so a profile that records the keychain cannot reach it.
 */
import { afterAll, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { keychainCanBeAway, skippedWithKeychain } from '../helpers/keychain-away.js';
import { writeProfiles } from '../helpers/stored-credentials.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

afterAll(removeTempDirs);

const env = (configDir: string) => ({ TOKENCLI_CONFIG_DIR: configDir, DBUS_SESSION_BUS_ADDRESS: undefined });

test.runIf(keychainCanBeAway).each([[[]], [['--json']]])(
  `profile show %j exits 4 when the store cannot be reached${skippedWithKeychain}`,
  async (extra) => {
    const configDir = tempDir('tokencli-show-');
    writeProfiles(configDir, { work: { base_url: 'http://127.0.0.1:9', client_id: 'c', store: 'keychain' } });
    const show = await runCli(['profile', 'show', 'work', ...extra], { env: env(configDir) });
    expect(show.code, show.stderr).toBe(4);
    expect(show.stdout).toMatch(/unreachable|"store_problem"/);
    expect(show.stderr).toMatch(
      /^error: the store of profile "work" cannot be reached here, so what it holds is unknown$/m,
    );
    expect(show.stderr).toMatch(/^hint: run where the keychain is reachable/m);
  },
);

test('a reachable store still exits 0', async () => {
  const configDir = tempDir('tokencli-show-');
  writeProfiles(configDir, { files: { base_url: 'http://127.0.0.1:9', client_id: 'c', store: 'file' } });
  const show = await runCli(['profile', 'show', 'files'], { env: env(configDir) });
  expect(show.code, show.stderr).toBe(0);
  expect(show.stderr).toBe('');
});
