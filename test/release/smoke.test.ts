/**
 * The release smoke test (scripts/release/smoke.mjs) fails an executable that only looks right, in
 * one line naming the step and what it saw, and leaves no temporary directory either way. The real
 * executable's pass is .ci/run's (scripts/ci/test-binary.sh).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { archiveName } from '../../scripts/release/platform.mjs';
import { tempDir } from '../helpers/temp-dirs.js';

const root = resolve(import.meta.dirname, '../..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

/** Runs the smoke test on a shell script standing in for tokencli, with a TMPDIR of its own. */
function smoke(fakeTokencli: string, flags: string[] = []) {
  const dir = tempDir('tokencli-smoke-test-');
  const exe = join(dir, 'tokencli');
  writeFileSync(exe, `#!/bin/sh\n${fakeTokencli}\n`);
  chmodSync(exe, 0o755);
  const tmp = tempDir('tokencli-smoke-tmp-');
  const run = spawnSync(process.execPath, [join(root, 'scripts/release/smoke.mjs'), exe, ...flags], {
    env: { ...process.env, TMPDIR: tmp },
    encoding: 'utf8',
  });
  return { ...run, left: readdirSync(tmp) };
}

test.runIf(process.platform !== 'win32')(
  'a wrong --version fails at once, saying what it printed (skipped on Windows: the fake tokencli is a #! sh script)',
  () => {
    const run = smoke('echo 0.0.1');
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`smoke: --version prints ${version} failed (got "0.0.1")\n`);
    expect(run.left).toEqual([]);
  },
);

test.runIf(process.platform !== 'win32')(
  'a token the service never issued fails the token step (skipped on Windows: the fake tokencli is a #! sh script)',
  () => {
    // Prints a version, a service line and a long "token", but the service logs no token request.
    const run = smoke(
      [
        'case "$1" in',
        `  --version) echo ${version} ;;`,
        `  serve) echo '{"base_url":"http://127.0.0.1:9"}'; exec sleep 30 ;;`,
        '  token) echo 0123456789abcdef0123456789abcdef ;;',
        'esac',
      ].join('\n'),
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      'smoke: a token from tokencli serve failed (got {"token":"0123456789abcdef0123456789abcdef","requests":0})\n',
    );
    expect(run.stdout).toBe(`smoke: --version prints ${version}: ok\n`);
    expect(run.left).toEqual([]);
  },
  20_000,
);

test.runIf(process.platform !== 'win32')(
  'a keychain "token" that asks the service each time fails the round trip (skipped on Windows: the fake tokencli is a #! sh script)',
  async () => {
    // The real service and CLI; but its keychain token is a fresh --store none request printed as
    // one constant, and status claims the keychain holds both.
    const cli = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, 'bin/tokencli.js'))}`;
    const run = smoke(
      [
        'case "$1" in',
        `  --version) echo ${version} ;;`,
        `  serve) exec ${cli} "$@" ;;`,
        '  configure) cat >/dev/null ;;',
        `  token) [ -z "$TOKENCLI_STORE" ] && exec ${cli} "$@"`,
        `    TOKENCLI_CLIENT_SECRET=demo-secret ${cli} token --store none >/dev/null && echo 0123456789abcdef0123456789abcdef ;;`,
        '  status) echo "{\\"profiles\\":[{\\"profile\\":\\"$TOKENCLI_PROFILE\\",\\"store\\":\\"keychain\\",\\"logged_in\\":true,\\"client_secret_stored\\":true}]}" ;;',
        'esac',
      ].join('\n'),
      ['--keychain'],
    );
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toMatch(
      /^smoke: the keychain keeps the secret and the token failed \(got \{.*"requests_for_the_second":1\}\)\n$/,
    );
    expect(run.left).toEqual([]);
  },
  30_000,
);

test.runIf(process.platform !== 'win32')(
  'stopped while it waits for the service, it ends the service and leaves nothing (skipped on Windows: the fake tokencli is a #! sh script)',
  async () => {
    const dir = tempDir('tokencli-smoke-test-');
    const exe = join(dir, 'tokencli');
    const pidFile = join(dir, 'serve.pid');
    writeFileSync(
      exe,
      `#!/bin/sh\ncase "$1" in --version) echo ${version} ;; serve) echo $$ > ${JSON.stringify(pidFile)}; exec sleep 60 ;; esac\n`,
    );
    chmodSync(exe, 0o755);
    const tmp = tempDir('tokencli-smoke-tmp-');
    const child = spawn(process.execPath, [join(root, 'scripts/release/smoke.mjs'), exe], {
      env: { ...process.env, TMPDIR: tmp },
      stdio: 'ignore',
    });
    while (!existsSync(pidFile)) await new Promise((res) => setTimeout(res, 50));
    await new Promise((res) => setTimeout(res, 100));
    const code = new Promise((res) => child.once('exit', (status, signal) => res(status ?? signal)));
    child.kill('SIGTERM');
    expect(await code).toBe(143);
    expect(readdirSync(tmp)).toEqual([]);
    const servePid = Number(readFileSync(pidFile, 'utf8'));
    expect(() => process.kill(servePid, 0)).toThrow();
  },
  20_000,
);

test.runIf(process.platform !== 'win32')(
  'a flag it does not know is refused before anything runs: a typo would skip the keychain unseen (skipped on Windows: the fake tokencli is a #! sh script)',
  () => {
    const run = smoke(`echo ${version}`, ['--keychian']);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('smoke: usage: smoke.mjs PATH_TO_TOKENCLI|--release [--keychain]\n');
    expect(run.stdout).toBe('');
    expect(run.left).toEqual([]);
  },
);

test.runIf(process.platform !== 'win32')(
  'a tokencli that fails is said in one line, with the first line it said (skipped on Windows: the fake tokencli is a #! sh script)',
  () => {
    const run = smoke('echo "error: something broke" >&2; echo "more" >&2; exit 3');
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('smoke: tokencli --version exited with 3: error: something broke\n');
    expect(run.left).toEqual([]);
  },
);

test.runIf(process.platform !== 'win32')(
  "what a passing tokencli says on stderr reaches the job's log, a line each (skipped on Windows: the fake tokencli is a #! sh script)",
  () => {
    const run = smoke(
      [
        'case "$1" in',
        `  --version) echo ${version}; printf 'warning: first\\n\\nwarning: second\\n' >&2 ;;`,
        '  serve) echo "error: no port" >&2; exit 4 ;;',
        'esac',
      ].join('\n'),
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      [
        'smoke: tokencli --version said: warning: first',
        'smoke: tokencli --version said: warning: second',
        'smoke: serve exited with 4',
        '',
      ].join('\n'),
    );
    expect(run.stdout).toBe(`smoke: --version prints ${version}: ok\n`);
    expect(run.left).toEqual([]);
  },
);

test('a tokencli that is not there did not run, and says why', () => {
  const tmp = tempDir('tokencli-smoke-tmp-');
  const missing = join(tempDir('tokencli-smoke-test-'), 'tokencli');
  const run = spawnSync(process.execPath, [join(root, 'scripts/release/smoke.mjs'), missing], {
    env: { ...process.env, TMPDIR: tmp },
    encoding: 'utf8',
  });
  expect(run.status).toBe(1);
  expect(run.stderr).toBe('smoke: tokencli --version did not run (ENOENT)\n');
  expect(readdirSync(tmp)).toEqual([]);
});

describe.runIf(process.platform !== 'win32')(
  '--release (skipped on Windows: tar -czf makes the archives)',
  () => {
    const archive = `release/${archiveName(version)}`;

    /** smoke.mjs --release in a copy of the scripts whose release/ holds what `fill` puts there. */
    function smokeRelease(fill: (releaseDir: string) => void) {
      const copy = tempDir('tokencli-smoke-checkout-');
      cpSync(join(root, 'scripts'), join(copy, 'scripts'), { recursive: true });
      cpSync(join(root, 'package.json'), join(copy, 'package.json'));
      fill(join(copy, 'release'));
      const tmp = tempDir('tokencli-smoke-tmp-');
      const run = spawnSync(process.execPath, [join(copy, 'scripts/release/smoke.mjs'), '--release'], {
        env: { ...process.env, TMPDIR: tmp },
        encoding: 'utf8',
      });
      return { ...run, left: readdirSync(tmp) };
    }

    test('no archive: build the release first', () => {
      const run = smokeRelease(() => {});
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(`smoke: ${archive} is missing: run \`npm run build:release\` first\n`);
      expect(run.left).toEqual([]);
    });

    test('a damaged archive: cannot unpack it, with what tar said', () => {
      const run = smokeRelease((dir) => {
        mkdirSync(dir);
        writeFileSync(join(dir, archiveName(version)), 'not an archive\n');
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(`^smoke: cannot unpack ${archive.replaceAll('.', '\\.')} \\(.+\\)\n$`),
      );
      expect(run.left).toEqual([]);
    });

    test('an archive with tokencli in a directory rather than at its top', () => {
      const run = smokeRelease((dir) => {
        const stage = tempDir('tokencli-smoke-stage-');
        mkdirSync(join(stage, 'sub'));
        writeFileSync(join(stage, 'sub', 'tokencli'), `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });
        mkdirSync(dir);
        const tar = spawnSync('tar', ['-czf', join(dir, archiveName(version)), '-C', stage, 'sub'], {
          encoding: 'utf8',
        });
        expect(tar.status, tar.stderr).toBe(0);
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(`smoke: ${archive} holds no tokencli at its top\n`);
      expect(run.left).toEqual([]);
    });
  },
);

const releaseArchive = join(root, 'release', `tokencli-${version}-linux-x64.tar.gz`);

test.runIf(process.platform === 'linux' && process.arch === 'x64' && existsSync(releaseArchive))(
  "the builder's proxy settings do not carry the requests to its own service away",
  () => {
    const tmp = tempDir('tokencli-smoke-tmp-');
    // Nothing listens on port 9: a request sent to the proxy would fail.
    const proxy = 'http://127.0.0.1:9';
    const run = spawnSync(process.execPath, [join(root, 'scripts/release/smoke.mjs'), '--release'], {
      env: { ...process.env, TMPDIR: tmp, HTTP_PROXY: proxy, https_proxy: proxy, ALL_PROXY: proxy },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('smoke: a token from tokencli serve: ok');
    expect(readdirSync(tmp)).toEqual([]);
  },
  30_000,
);
