import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TokencliError } from '../../src/errors.js';
import { FileStore } from '../../src/store/file-store.js';
import { distModule } from '../helpers/dist-module.js';
import { expectMode } from '../helpers/file-modes.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { sampleRecord } from './records.js';

function setup(options: { create?: boolean } = {}) {
  const dir = join(tempDir('tokencli-store-'), 'config');
  if (options.create !== false) mkdirSync(dir, { mode: 0o700 });
  const path = join(dir, 'credentials.json');
  const warnings: string[] = [];
  const store = new FileStore({ path, warn: (line) => warnings.push(line) });
  return { dir, path, store, warnings };
}

const mode = (path: string) => statSync(path).mode & 0o777;
// Making a symbolic link needs a privilege (or developer mode) on Windows.
const symlinksSkipped = process.platform === 'win32';
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const backupsOf = (dir: string) =>
  readdirSync(dir).filter((name) => name.startsWith('credentials.json.corrupt-'));

afterAll(removeTempDirs);

describe('FileStore', () => {
  it('round-trips tokens and client secrets per profile in the documented format', async () => {
    const { path, store, warnings } = setup();
    const work = sampleRecord({ email: 'work@example.com' });
    const ci = sampleRecord({ grant: 'client_credentials', refresh_token: undefined });
    delete ci.refresh_token;
    delete ci.refresh_token_expires_at;
    await store.setTokens('work', work);
    await store.setClientSecret('work', 'work-secret');
    await store.setTokens('ci', ci);
    expect(await store.getTokens('work')).toEqual(work);
    expect(await store.getTokens('ci')).toEqual(ci);
    expect(await store.getTokens('other')).toBeUndefined();
    expect(await store.getClientSecret('work')).toBe('work-secret');
    expect(await store.getClientSecret('ci')).toBeUndefined();
    expect(await store.listProfiles()).toEqual(['ci', 'work']);
    expect(readJson(path)).toEqual({
      version: 1,
      profiles: { work: { tokens: work, client_secret: 'work-secret' }, ci: { tokens: ci } },
    });

    await store.deleteTokens('work');
    expect(await store.getTokens('work')).toBeUndefined();
    expect(await store.getClientSecret('work')).toBe('work-secret');
    expect(await store.listProfiles()).toEqual(['ci']);
    await store.deleteClientSecret('work');
    expect(readJson(path)).toEqual({ version: 1, profiles: { ci: { tokens: ci } } });
    expect(store).toMatchObject({ kind: 'file', location: path });
    expect(warnings).toEqual([]);
    expect(readdirSync(join(path, '..')).sort()).toEqual(['credentials.json']); // no temp or lock left
  });

  it('reads an absent file as empty and creates nothing for reads or deleting nothing', async () => {
    const { dir, store } = setup({ create: false });
    expect(await store.getTokens('default')).toBeUndefined();
    expect(await store.getClientSecret('default')).toBeUndefined();
    expect(await store.listProfiles()).toEqual([]);
    await store.deleteTokens('default');
    expect(existsSync(dir)).toBe(false);
  });

  describe.skipIf(process.platform === 'win32')(
    'under umask 000 (skipped on Windows: no umask or POSIX modes)',
    () => {
      let previous: number | undefined;
      afterEach(() => {
        if (previous !== undefined) process.umask(previous);
      });

      it('still makes the directory 0700 and the file 0600', async () => {
        previous = process.umask(0o000);
        const { dir, path, store } = setup({ create: false });
        await store.setClientSecret('default', 's3cret');
        expect(mode(dir)).toBe(0o700);
        expect(mode(path)).toBe(0o600);
        await store.setTokens('default', sampleRecord());
        expect(mode(path)).toBe(0o600);
      });
    },
  );

  it.skipIf(process.platform === 'win32')(
    'tightens an existing looser directory and file when it reads them (skipped on Windows: no POSIX modes)',
    async () => {
      const { dir, path, store } = setup();
      writeFileSync(path, JSON.stringify({ version: 1, profiles: { default: { client_secret: 'x' } } }));
      chmodSync(path, 0o644);
      chmodSync(dir, 0o755);
      expect(await store.getClientSecret('default')).toBe('x');
      expect(mode(path)).toBe(0o600);
      expect(mode(dir)).toBe(0o700);
    },
  );

  it.skipIf(symlinksSkipped)(
    'refuses a config directory that is a symbolic link when it reads the file inside, leaving it alone (skipped on Windows: making a symbolic link needs a privilege there)',
    async () => {
      const { dir } = setup();
      const real = join(dir, 'real');
      mkdirSync(real, { mode: 0o755 });
      writeFileSync(join(real, 'credentials.json'), JSON.stringify({ version: 1, profiles: {} }), {
        mode: 0o600,
      });
      const linked = join(dir, 'linked');
      symlinkSync(real, linked);
      const store = new FileStore({ path: join(linked, 'credentials.json'), warn: () => {} });
      const error = await store.getTokens('default').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TokencliError);
      expect(error).toMatchObject({
        code: 'usage',
        reason: 'config_dir_symlink',
        message: `refusing to use ${linked}: it is a symbolic link`,
      });
      expect(mode(real)).toBe(0o755);
    },
  );

  it.skipIf(symlinksSkipped)(
    'refuses a symbolic link at the store path, on read and on write, leaving its target alone (skipped on Windows: making a symbolic link needs a privilege there)',
    async () => {
      const { dir, path, store } = setup();
      const target = join(dir, 'elsewhere.json');
      writeFileSync(target, '{"version":1,"profiles":{}}');
      symlinkSync(target, path);
      const expected = {
        code: 'usage',
        message: `refusing to use ${path}: it is a symbolic link`,
        hint: 'remove the link; tokencli keeps its files as regular files',
      };
      for (const attempt of [() => store.getTokens('default'), () => store.setClientSecret('default', 'x')]) {
        const error = await attempt().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(TokencliError);
        expect(error).toMatchObject(expected);
      }
      expect(readFileSync(target, 'utf8')).toBe('{"version":1,"profiles":{}}');
    },
  );

  it.each([
    ['{"version":1,"profiles":{', 'it is not valid JSON'],
    ['', 'it is not valid JSON'],
    ['[1,2]', 'it is not a JSON object'],
    ['null', 'it is not a JSON object'],
    ['{"version":2,"profiles":{}}', 'unsupported "version" 2 (expected 1)'],
    ['{"profiles":{}}', 'unsupported "version" undefined (expected 1)'],
    ['{"version":1,"profiles":[]}', '"profiles" is not an object'],
    ['{"version":1}', '"profiles" is not an object'],
  ])(
    'sets a damaged file (%s) aside with one warning, reads it as empty, and writes anew',
    async (content, problem) => {
      const { dir, path, store, warnings } = setup();
      writeFileSync(path, content, { mode: 0o644 });
      expect(await store.getTokens('default')).toBeUndefined();
      expect(await store.listProfiles()).toEqual([]);
      const backups = backupsOf(dir);
      expect(backups).toHaveLength(1);
      const backup = join(dir, backups[0] ?? '');
      expect(backup).toMatch(/credentials\.json\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
      expect(readFileSync(backup, 'utf8')).toBe(content);
      expectMode(backup, 0o600);
      expect(warnings).toEqual([
        `warning: the credentials file ${path} is damaged (${problem}); moved it to ${backup} and started an empty one`,
      ]);
      await store.setTokens('default', sampleRecord());
      expect(await store.getTokens('default')).toEqual(sampleRecord());
      expect(warnings).toHaveLength(1);
      expect(backupsOf(dir)).toHaveLength(1);
    },
  );

  it('sets a damaged file aside when a write finds it, then writes', async () => {
    const { dir, path, store, warnings } = setup();
    writeFileSync(path, 'garbage');
    await store.setClientSecret('default', 'new');
    expect(readJson(path)).toEqual({ version: 1, profiles: { default: { client_secret: 'new' } } });
    expect(backupsOf(dir).map((name) => readFileSync(join(dir, name), 'utf8'))).toEqual(['garbage']);
    expect(warnings).toHaveLength(1);
  });

  it('treats an unreadable store (a directory at its path) as damaged: set aside, then empty', async () => {
    const { dir, path, store, warnings } = setup();
    mkdirSync(path);
    expect(await store.getClientSecret('default')).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/is damaged \(cannot read it: EISDIR\); moved it to /)]);
    expect(backupsOf(dir)).toHaveLength(1);
    await store.setClientSecret('default', 'x');
    expect(await store.getClientSecret('default')).toBe('x');
  });

  it('with leaveDamagedFile, refuses to read a damaged file and leaves it where it is, with no lock or warning', async () => {
    const { dir, path, warnings } = setup();
    const store = new FileStore({ path, warn: (line) => warnings.push(line), leaveDamagedFile: true });
    writeFileSync(path, '{ not json', { mode: 0o600 });
    const error = await store.getTokens('default').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokencliError);
    expect(error).toMatchObject({ code: 'store', reason: 'file_store_damaged', details: { path } });
    expect((error as Error).message).toBe(`${path} is damaged (it is not valid JSON); left where it is`);
    expect(readdirSync(dir)).toEqual(['credentials.json']);
    expect(readFileSync(path, 'utf8')).toBe('{ not json');
    expect(warnings).toEqual([]);
    // A sound file reads as it would without the option.
    writeFileSync(path, JSON.stringify({ version: 1, profiles: { default: { tokens: sampleRecord() } } }));
    expect(await store.getTokens('default')).toEqual(sampleRecord());
  });

  it('ignores a malformed record on its own, keeps it while others are written, backs up before replacing it', async () => {
    const { dir, path, store, warnings } = setup();
    const badTokens = { ...sampleRecord(), access_token: 17 };
    const good = sampleRecord({ email: 'good@example.com' });
    const original = {
      version: 1,
      profiles: { bad: { tokens: badTokens, client_secret: 5 }, odd: 'x', good: { tokens: good } },
    };
    writeFileSync(path, JSON.stringify(original));

    expect(await store.getTokens('bad')).toBeUndefined();
    expect(await store.getTokens('bad')).toBeUndefined(); // warned once only
    expect(await store.getClientSecret('bad')).toBeUndefined();
    expect(await store.getTokens('odd')).toBeUndefined();
    expect(await store.getTokens('good')).toEqual(good);
    expect(await store.listProfiles()).toEqual(['good']);
    expect(warnings).toEqual([
      `warning: ignoring the stored tokens of profile "bad" in ${path}: "access_token" is missing or not a string`,
      `warning: ignoring the stored client secret of profile "bad" in ${path}: not a string`,
      `warning: ignoring the entry of profile "odd" in ${path}: not an object`,
    ]);

    await store.setClientSecret('good', 'g');
    expect(readJson(path).profiles.bad).toEqual({ tokens: badTokens, client_secret: 5 });
    expect(readJson(path).profiles.odd).toBe('x');
    expect(backupsOf(dir)).toEqual([]);

    await store.setTokens('bad', sampleRecord());
    expect(await store.getTokens('bad')).toEqual(sampleRecord());
    const backups = backupsOf(dir);
    expect(backups).toHaveLength(1);
    const beforeReplacing = {
      version: 1,
      profiles: { ...original.profiles, good: { tokens: good, client_secret: 'g' } },
    };
    expect(readJson(join(dir, backups[0] ?? ''))).toEqual(beforeReplacing);
    expect(warnings.at(-1)).toBe(
      `warning: replacing the malformed tokens of profile "bad"; the old file is kept as ${join(dir, backups[0] ?? '')}`,
    );
  });

  it('keeps every profile when several processes write different profiles at once', async () => {
    const { path } = setup();
    const profiles = ['p1', 'p2', 'p3', 'p4'];
    const rounds = 6;
    const writer = resolve(import.meta.dirname, 'fixtures/file-store-writer.mjs');
    const results = await Promise.all(
      profiles.map(
        (profile) =>
          new Promise<{ code: number | null; stderr: string }>((done, reject) => {
            const child = spawn(
              process.execPath,
              [writer, distModule('store/file-store.js'), path, profile, String(rounds)],
              { stdio: ['ignore', 'ignore', 'pipe'] },
            );
            let stderr = '';
            child.stderr.on('data', (chunk) => {
              stderr += chunk;
            });
            child.on('error', reject);
            child.on('close', (code) => done({ code, stderr }));
          }),
      ),
    );
    for (const result of results) expect(result).toEqual({ code: 0, stderr: '' });
    const doc = readJson(path);
    expect(Object.keys(doc.profiles).sort()).toEqual(profiles);
    for (const profile of profiles) {
      expect(doc.profiles[profile].tokens.access_token).toBe(`${profile}-access-${rounds - 1}`);
      expect(doc.profiles[profile].client_secret).toBe(`${profile}-secret-${rounds - 1}`);
    }
    expectMode(path, 0o600);
  });

  describe('temporary files of writers killed before their rename', () => {
    const killedWriter = resolve(import.meta.dirname, 'fixtures/killed-writer.mjs');
    const killed = process.platform === 'win32' ? 'exit 1' : 'SIGKILL';
    const tempsOf = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.tmp'));

    /**
     * Runs a writer that SIGKILLs itself between writing its temp file and renaming it; how it
     * ended. On Windows a process that kills itself is terminated with exit code 1 and no signal
     * (libuv's uv_kill), which is what `killed` names there.
     */
    function killWriter(path: string, profile: string, secret: string): Promise<string> {
      return new Promise((done, reject) => {
        const child = spawn(
          process.execPath,
          [killedWriter, distModule('store/file-store.js'), path, profile, secret],
          { stdio: 'ignore' },
        );
        child.on('error', reject);
        child.on('close', (code, signal) => done(signal ?? `exit ${code}`));
      });
    }

    it('are removed by the next locked write', async () => {
      const { dir, path, store } = setup();
      await store.setClientSecret('kept', 'kept-secret');
      expect(await killWriter(path, 'victim', 'CANARY-secret-1')).toBe(killed);
      const left = tempsOf(dir);
      expect(left).toHaveLength(1);
      expect(readFileSync(join(dir, left[0] ?? ''), 'utf8')).toContain('CANARY-secret-1');

      await store.setClientSecret('other', 'other-secret');
      expect(tempsOf(dir)).toEqual([]);
      expect(readFileSync(path, 'utf8')).not.toContain('CANARY');
      expect(await store.getClientSecret('kept')).toBe('kept-secret');
    });

    it('are removed by a delete (logout), even when the credentials file was never written', async () => {
      const { dir, path, store } = setup();
      expect(await killWriter(path, 'victim', 'CANARY-secret-2')).toBe(killed);
      expect(existsSync(path)).toBe(false);
      expect(tempsOf(dir)).toHaveLength(1);
      await store.deleteClientSecret('victim');
      expect(tempsOf(dir)).toEqual([]);

      expect(await killWriter(path, 'victim', 'CANARY-secret-3')).toBe(killed);
      await store.deleteTokens('someone-else');
      expect(tempsOf(dir)).toEqual([]);
    });

    it('of a live writer are left alone unless they are old', async () => {
      const { dir, path, store } = setup();
      const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
      try {
        const live = `${path}.${sleeper.pid}.abc.1.xyz.tmp`;
        writeFileSync(live, 'in flight', { mode: 0o600 });
        await store.setClientSecret('p', 's');
        expect(existsSync(live)).toBe(true);
        const twoMinutesAgo = new Date(Date.now() - 120_000);
        utimesSync(live, twoMinutesAgo, twoMinutesAgo);
        await store.deleteClientSecret('p');
        expect(existsSync(live)).toBe(false);
      } finally {
        sleeper.kill('SIGKILL');
      }
      // Unrelated files that only look similar stay.
      const unrelated = join(dir, 'credentials.json.backup.tmp');
      writeFileSync(unrelated, 'x');
      await store.setClientSecret('p', 's2');
      expect(existsSync(unrelated)).toBe(true);
    });
  });
});
