/**
 * `tokencli token` through the launcher with the keychain store, in a private D-Bus session with
 * gnome-keyring: the first run obtains a token (full CLI), the second answers from the keychain
 * (the cached-token fast path, src/cli/launcher/light-token.ts), with the same output and warnings the full
 * CLI gives.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { pipeHandleBindings } from '../../src/store/pipe-handle-socket.js';
import { partsRequired } from '../helpers/ci-required.js';
import { BIN, BINARY, CLI_SH } from '../helpers/cli.js';
import { serveForFile } from '../helpers/serve.js';
import { fallbackWarning, missingSecretServiceTools, runSession, sandbox } from '../store/store-child.js';
import { DEMO, tokenRequests } from './env.js';

const missing = missingSecretServiceTools();
const skip = missing !== undefined && !partsRequired();
const title = `tokencli token with the OS keychain${skip ? ` (skipped: ${missing})` : ''}`;

const serve = serveForFile({ skip });

/** What a session's runs of `tokencli token` need: the demo client of the local service. */
function tokenEnv(configDir: string): NodeJS.ProcessEnv {
  return {
    BIN,
    TOKENCLI_BASE_URL: serve.baseUrl,
    TOKENCLI_CLIENT_ID: DEMO.clientId,
    TOKENCLI_CLIENT_SECRET: DEMO.clientSecret,
    TOKENCLI_EMAIL: DEMO.email,
    TOKENCLI_PASSWORD: DEMO.password,
    TOKENCLI_CONFIG_DIR: configDir,
  };
}

/** Runs `tokencli token` twice in one session, each run's stdout, stderr and exit code marked. */
async function twice(keyring: 'unlocked' | 'locked', store?: string, nodeOptions = '') {
  const { env, configDir } = sandbox();
  const run = (n: number) =>
    `${nodeOptions ? `NODE_OPTIONS='${nodeOptions}' ` : ''}${CLI_SH} token >"$HOME/out${n}" 2>"$HOME/err${n}"; echo "{\\"run\\":${n},\\"code\\":$?}"; ` +
    `echo "== out${n}"; cat "$HOME/out${n}"; echo "== err${n}"; cat "$HOME/err${n}"; echo "== end${n}"`;
  const result = await runSession(
    { keyring, body: `${run(1)}; ${run(2)}` },
    { ...env, ...tokenEnv(configDir), ...(store ? { TOKENCLI_STORE: store } : {}) },
    configDir,
  );
  const section = (name: string, n: number) =>
    result.stdout.split(`== ${name}${n}\n`)[1]?.split(name === 'out' ? `== err${n}\n` : `== end${n}\n`)[0];
  const runs = [1, 2].map((n) => ({
    code: (result.reports.find((r) => r.run === n) as { code?: number } | undefined)?.code,
    stdout: section('out', n),
    stderr: section('err', n),
  }));
  return { runs, configDir, sessionStderr: result.stderr };
}

describe.skipIf(skip)(title, () => {
  beforeAll(() => {
    if (missing) throw new Error(`CI must provide the Secret Service: ${missing}`);
  });

  test('the second run answers from the keychain with the same token and no request', async () => {
    const before = tokenRequests(serve.logs());
    const { runs, sessionStderr } = await twice('unlocked', 'keychain');
    const [first, second] = runs;
    expect(first, sessionStderr).toMatchObject({ code: 0, stderr: '' });
    expect(first?.stdout).toMatch(/^\S{20,}\n$/);
    expect(second).toEqual({ code: 0, stdout: first?.stdout, stderr: '' });
    expect(tokenRequests(serve.logs()) - before).toBe(1);
  });

  // The executable takes no NODE_OPTIONS (scripts/release/sea-executable.mjs), so nothing can forbid the module there.
  test.skipIf(BINARY)(
    'on Linux no run loads the native keyring module: neither the one that stores nor the cached one',
    async () => {
      // Neither run can load @napi-rs/keyring; were it needed, a run would fall back to the file
      // store (a warning, a new token) or fail.
      const forbid = resolve(import.meta.dirname, 'fixtures/forbid-native-keyring.cjs');
      const { runs, sessionStderr } = await twice('unlocked', 'keychain', `--require ${forbid}`);
      const [first, second] = runs;
      expect(first, sessionStderr).toMatchObject({ code: 0, stderr: '' });
      expect(second).toEqual({ code: 0, stdout: first?.stdout, stderr: '' });
    },
  );

  // The same promise kept by the executable, which carries no native module on Linux: it stages
  // none in its cache directory, and a run that stores and one that reads answer alike.
  test.runIf(BINARY)(
    `on Linux the executable stores and reads the keychain without staging any native module${BINARY ? '' : ' (skipped: no TOKENCLI_BINARY; the package has no module to stage)'}`,
    async () => {
      // The launcher keeps no cache under TMPDIR: this run's TMPDIR is a directory of its own.
      const { env, configDir, home } = sandbox();
      const tmp = join(home, 'tmp');
      mkdirSync(tmp);
      const native = join(home, 'cache', 'tokencli', 'native');
      const run = (n: number) => `${CLI_SH} token >"$HOME/out${n}" 2>&1 || echo "failed: ${n}"`;
      const body = [
        run(1),
        `test -e '${native}' && echo "staged by the first run"`,
        run(2),
        `test -e '${native}' && echo "staged by the second run"`,
        'cmp -s "$HOME/out1" "$HOME/out2" || echo "outputs differ"',
        'true',
      ].join('; ');
      const result = await runSession(
        { keyring: 'unlocked', body },
        { ...env, ...tokenEnv(configDir), TOKENCLI_STORE: 'keychain', TMPDIR: tmp },
        configDir,
      );
      expect(result.stdout, result.stderr).not.toMatch(/failed|staged|outputs differ/);
    },
  );

  test("a keychain run makes the keychain client's code cache once, and leaves the light answer's alone", async () => {
    // The launcher keeps no code cache under TMPDIR: this run's TMPDIR is a directory of its own.
    const { env, configDir, home } = sandbox();
    const tmp = join(home, 'tmp');
    mkdirSync(tmp);
    // One directory per node; the executable's node is not this one.
    const cacheDir = join(home, 'cache', 'tokencli', 'code-cache');
    const run = (store: string) =>
      `TOKENCLI_STORE=${store} ${CLI_SH} token >/dev/null || echo "failed: ${store}" >&2`;
    // The first line of each cache file (the builtins its runs read), and its inode.
    const cache = (label: string, bundle: string) =>
      `echo "${label} ${bundle} $(head -n 1 "${cacheDir}"/*/${bundle}-* 2>/dev/null | tr -d '\\0')"; ` +
      `echo "${label} ${bundle} inode $(stat -c %i "${cacheDir}"/*/${bundle}-* 2>/dev/null)"`;
    const caches = (label: string) => `${cache(label, 'light-token')}; ${cache(label, 'light-keychain')}`;
    // Each store filled by the full CLI, then read from the cache by the light answer.
    const body = [
      run('file'),
      run('file'),
      caches('file:'),
      run('keychain'),
      run('keychain'),
      caches('keychain:'),
      run('keychain'),
      caches('again:'),
    ].join('; ');
    const result = await runSession(
      { keyring: 'unlocked', body },
      { ...env, ...tokenEnv(configDir), TMPDIR: tmp },
      configDir,
    );
    expect(result.stderr).not.toContain('failed');
    const line = (label: string, what: string) =>
      result.stdout
        .split('\n')
        .find((l) => l.startsWith(`${label} ${what} `))
        ?.slice(label.length + what.length + 2);
    // light-token reads node:fs and node:path; the executable's own cache of it knows that, so
    // those runs write none of their own.
    const tokenPaths = BINARY ? '' : 'tokencli code cache 1:node:fs,node:path';
    expect(line('file:', 'light-token')).toBe(tokenPaths);
    expect(line('file:', 'light-keychain')).toBe('');
    // The keychain's client is a bundle of its own (scripts/bundle.mjs): light-token's cache stays
    // as it was, the client's is made by the first keychain run, with the builtins its D-Bus
    // client reads (node:net only where its socket is not node's pipe handle).
    expect(line('keychain:', 'light-token')).toBe(tokenPaths);
    expect(line('keychain:', 'light-token inode')).toBe(line('file:', 'light-token inode'));
    const dbusBuiltins = pipeHandleBindings() ? ['node:timers'] : ['node:net', 'node:timers'];
    expect(line('keychain:', 'light-keychain')).toBe(`tokencli code cache 1:${dbusBuiltins.join(',')}`);
    // Seen now: the next keychain run leaves it alone (a rewrite renames a new file into place).
    expect(line('again:', 'light-keychain inode')).toMatch(/^\d+$/);
    expect(line('again:', 'light-keychain inode')).toBe(line('keychain:', 'light-keychain inode'));
  });

  test('a cache directory that cannot be used costs the keychain nothing, and leaves nothing in TMPDIR', async () => {
    // The executable puts the keychain's native module under the cache directory; here that is a
    // file, so it must go to a private temporary directory, removed at once.
    const { env, configDir, home } = sandbox();
    const tmp = join(home, 'tmp');
    mkdirSync(tmp);
    const cacheFile = join(home, 'cache-file');
    writeFileSync(cacheFile, '');
    const body = [
      `${CLI_SH} token >/dev/null 2>"$HOME/err1" || echo "token failed: $(cat "$HOME/err1")" >&2`,
      `${CLI_SH} logout >/dev/null 2>"$HOME/err2" || echo "logout failed: $(cat "$HOME/err2")" >&2`,
      'echo "left: $(ls -A "$TMPDIR")"',
    ].join('; ');
    const result = await runSession(
      { keyring: 'unlocked', body },
      { ...env, ...tokenEnv(configDir), TOKENCLI_STORE: 'keychain', XDG_CACHE_HOME: cacheFile, TMPDIR: tmp },
      configDir,
    );
    expect(result.stderr).not.toContain('failed');
    expect(result.stdout).toContain('left: \n');
  });

  test('the default store falling back to the file is announced once per profile, not on every run', async () => {
    // A session without a default keyring: the default store keeps credentials in the file.
    const { runs, configDir, sessionStderr } = await twice('locked');
    const warning = fallbackWarning('the Secret Service has no default keyring', configDir).replace(
      'keeping credentials in',
      'keeping the credentials of profile "default" in',
    );
    const [first, second] = runs;
    expect(first, sessionStderr).toMatchObject({ code: 0 });
    expect(first?.stderr).toContain(`${warning}\n`);
    expect(first?.stderr).toMatch(/hint: said once per profile; .*TOKENCLI_STORE=file/);
    // The profile now records the file store: the cached run opens it directly and says nothing.
    expect(second).toEqual({ code: 0, stdout: first?.stdout, stderr: '' });
  });
});
