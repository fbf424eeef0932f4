/**
 * The commands that only look — `status`, `info`, `profile list|show` — through the built CLI:
 * they never write the config file or create the config directory (the keychain fallback notice,
 * said once per profile, is left for the first command that keeps credentials), they make up no
 * profile, and a profile whose keychain cannot be reached is shown as unknown, exit 4.
 * No D-Bus here (or a bus socket nobody listens on), so the default store rule falls back. Off
 * Linux the keychain cannot be taken away (test/helpers/keychain-away.ts): there the file store is
 * chosen explicitly, and the tests of the fallback and of an unreachable keychain skip.
 */
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { keychainAwayEnv, keychainCanBeAway, skippedWithKeychain } from '../helpers/keychain-away.js';
import { writeProfiles, writeStoredProfiles } from '../helpers/stored-credentials.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

afterAll(removeTempDirs);

const BASE_URL = 'http://127.0.0.1:9';

/** The commands that only look, as a user would type them. */
const LOOKS: string[][] = [
  ['status'],
  ['status', '--json'],
  ['status', '--check'],
  ['profile', 'list'],
  ['profile', 'list', '--json'],
  ['profile', 'show'],
  ['profile', 'show', '--json'],
  ['info'],
  ['--base-url', BASE_URL, '--client-id', 'c', 'info'],
];

function bareEnv(configDir: string, extra: Record<string, string | undefined> = {}) {
  return { TOKENCLI_CONFIG_DIR: configDir, ...keychainAwayEnv, ...extra };
}

/** Every entry under `dir` with its mode, size, times and content: any write changes it. */
function snapshot(dir: string): string[] {
  const entries: string[] = [];
  const walk = (path: string) => {
    const stats = lstatSync(path);
    const content = stats.isFile() ? readFileSync(path, 'utf8') : '';
    entries.push(`${path} ${stats.mode} ${stats.size} ${stats.mtimeMs} ${stats.ctimeMs} ${content}`);
    if (stats.isDirectory()) for (const name of readdirSync(path).sort()) walk(join(path, name));
  };
  walk(dir);
  return entries;
}

describe('a fresh config directory', () => {
  test.each(LOOKS.map((args) => [args.join(' '), args] as const))('%s: creates nothing', async (_, args) => {
    const configDir = join(tempDir('tokencli-readonly-'), 'tokencli');
    const r = await runCli(args, { env: bareEnv(configDir) });
    expect(r.stderr).not.toMatch(/internal error|keychain unavailable/);
    expect(existsSync(configDir), `${args.join(' ')} created ${configDir}`).toBe(false);
  });

  test('status makes up no profile: it says there is none, as `profile list` does', async () => {
    const configDir = join(tempDir('tokencli-readonly-'), 'tokencli');
    const env = bareEnv(configDir);
    const text = await runCli(['status'], { env });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^active profile: default \(not configured\)$/m);
    expect(text.stdout).not.toMatch(/\(active\)|access token|client secret/);
    expect(text.stderr).toMatch(/^No profiles yet: `tokencli configure`/m);
    expect((await runCli(['profile', 'list'], { env })).stderr).toMatch(/^No profiles yet/m);

    const json = await runCli(['status', '--json'], { env });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ active_profile: 'default', profiles: [] });

    // Nothing to check is not "every profile is usable".
    const check = await runCli(['status', '--check'], { env });
    expect(check.code).toBe(4);
    expect(check.stderr).toMatch(/^error: no profile to check: none is configured$/m);

    const show = await runCli(['profile', 'show'], { env });
    expect(show.code).toBe(2);
    expect(show.stdout).toBe('');
    expect(show.stderr).toMatch(/^error: no profile "default"$/m);
    expect(show.stderr).toMatch(/^hint: no profiles are configured yet/m);
  });
});

describe.runIf(keychainCanBeAway)(
  `a configured profile without a recorded store${skippedWithKeychain}`,
  () => {
    test('the commands that only look change nothing; the fallback notice is still said later', async () => {
      const configDir = tempDir('tokencli-readonly-');
      writeProfiles(configDir, { work: { base_url: BASE_URL, client_id: 'c' } });
      const before = snapshot(configDir);
      for (const args of LOOKS) {
        const r = await runCli(args, { env: bareEnv(configDir, { TOKENCLI_PROFILE: 'work' }) });
        expect(r.stderr, args.join(' ')).not.toMatch(/internal error|keychain unavailable/);
        expect(snapshot(configDir), args.join(' ')).toEqual(before);
      }

      // The first command that keeps credentials is the one that tells, and records that it did.
      const configure = await runCli(['--profile', 'work', 'configure', '--no-secret'], {
        env: bareEnv(configDir),
      });
      expect(configure.code, configure.stderr).toBe(0);
      expect(configure.stderr).toMatch(
        /^warning: OS keychain unavailable \(.*\); keeping the credentials of profile "work" in /m,
      );
      const config = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
      expect(config.store_fallback_announced).toEqual(['work']);
    });
  },
);

describe.runIf(keychainCanBeAway)(`a profile whose keychain cannot be reached${skippedWithKeychain}`, () => {
  /** Both ways a keychain is out of reach: no session bus, and a bus socket nobody listens on. */
  const away = (configDir: string) => [
    bareEnv(configDir),
    bareEnv(configDir, { DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(configDir, 'no-bus')}` }),
  ];

  test('status says what it holds is unknown, not "none stored", and exits 4', async () => {
    const configDir = tempDir('tokencli-readonly-');
    writeProfiles(configDir, {
      files: { base_url: BASE_URL, client_id: 'c', store: 'file' },
      work: { base_url: BASE_URL, client_id: 'c', store: 'keychain' },
    });
    writeStoredProfiles(configDir, {});
    for (const env of away(configDir)) {
      const before = snapshot(configDir);
      const text = await runCli(['--profile', 'work', 'status'], { env });
      expect(text.code, text.stderr).toBe(4);
      expect(text.stdout).toMatch(
        /store\s+unreachable: the credentials of profile "work" are in the OS keychain/,
      );
      expect(text.stdout).toMatch(/^ {2}access token {3}unknown \(store unreachable\)$/m);
      expect(text.stdout).toMatch(/^ {2}client secret {2}unknown \(store unreachable\)$/m);
      expect(text.stdout).not.toMatch(/none stored|not stored/);
      expect(text.stderr).toMatch(
        /^error: the store of profile "work" cannot be reached here, so what it holds is unknown$/m,
      );
      expect(text.stderr).toMatch(/^hint: run where the keychain is reachable/m);

      // Every profile: the one in the file is known, the one in the keychain is not; still exit 4.
      const all = await runCli(['status', '--json'], { env });
      expect(all.code, all.stderr).toBe(4);
      const doc = JSON.parse(all.stdout);
      expect(doc.profiles).toEqual([
        expect.objectContaining({ profile: 'files', logged_in: false, client_secret_stored: false }),
        expect.objectContaining({
          profile: 'work',
          logged_in: null,
          client_secret_stored: null,
          store: 'keychain',
          store_problem: expect.stringMatching(/OS keychain, which cannot be reached here/),
        }),
      ]);
      expect(snapshot(configDir)).toEqual(before);
    }
  });

  test('an explicit --store keychain that cannot be had is the usual usage error (exit 2)', async () => {
    const configDir = tempDir('tokencli-readonly-');
    writeProfiles(configDir, { work: { base_url: BASE_URL, client_id: 'c', store: 'keychain' } });
    const r = await runCli(['--store', 'keychain', 'status'], { env: bareEnv(configDir) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: the OS keychain cannot be used: /m);
    expect(r.stderr).toMatch(/^hint: use --store file/m);
  });

  test('profile show says so too (unknown, not "not logged in"), and exits 4', async () => {
    const configDir = tempDir('tokencli-readonly-');
    writeProfiles(configDir, { work: { base_url: BASE_URL, client_id: 'c', store: 'keychain' } });
    const show = await runCli(['--profile', 'work', 'profile', 'show', '--json'], {
      env: bareEnv(configDir),
    });
    expect(show.code, show.stderr).toBe(4);
    expect(JSON.parse(show.stdout)).toMatchObject({
      profile: 'work',
      logged_in: null,
      client_secret_stored: null,
      store_problem: expect.stringMatching(/cannot be reached here/),
    });
  });
});

test('an active profile that is not configured is said to be so, and not listed', async () => {
  const configDir = tempDir('tokencli-readonly-');
  writeProfiles(configDir, { work: { base_url: BASE_URL, client_id: 'c', store: 'file' } });
  const r = await runCli(['status'], { env: bareEnv(configDir) });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^active profile: default \(not configured\)$/m);
  expect(r.stdout).toMatch(/^work$/m);
  expect(r.stdout).not.toMatch(/^default/m);
});
