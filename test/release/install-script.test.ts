/**
 * install.sh against a release served on 127.0.0.1 (TOKENCLI_DOWNLOAD_URL): a good install puts a
 * working tokencli in the install directory; every refusal (a tampered archive, no checksum line,
 * an unknown platform, no SHA-256 tool) is one line on stderr, a non-zero exit, and leaves nothing
 * installed and no temporary directory behind. The good install of the real executable needs
 * release/ (`npm run build:release`, which CI runs); the other cases build a small fake release.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cleanEnv, tempDir } from '../helpers/cli.js';
import {
  fakeRelease,
  INSTALL_TOOLS,
  pathWith,
  type ReleaseServer,
  serveRelease,
  THIS_PLATFORM,
  writeSums,
} from '../helpers/release-server.js';

const root = resolve(import.meta.dirname, '../..');
const script = join(root, 'install.sh');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const linuxX64 = process.platform === 'linux' && process.arch === 'x64';
const realArchive = join(root, 'release', `tokencli-${version}-linux-x64.tar.gz`);

const servers: ReleaseServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function serve(dir: string): Promise<ReleaseServer> {
  const server = await serveRelease(dir);
  servers.push(server);
  return server;
}

interface Install {
  status: number | null;
  stdout: string;
  stderr: string;
  installDir: string;
  /** What the run left in its TMPDIR: nothing, when it cleans up. */
  leftInTmp: string[];
}

function install(url: string, env: Record<string, string> = {}): Install {
  const installDir = join(tempDir('tokencli-install-home-'), 'bin');
  const tmp = tempDir('tokencli-install-tmp-');
  const result = spawnSync('sh', [script], {
    env: cleanEnv({ TOKENCLI_DOWNLOAD_URL: url, TOKENCLI_INSTALL_DIR: installDir, TMPDIR: tmp, ...env }),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { ...result, installDir, leftInTmp: readdirSync(tmp) };
}

/** A refusal: one line naming the problem, exit 1, nothing installed, nothing left. */
function expectRefused(run: Install, message: RegExp) {
  expect(run.status, run.stderr).toBe(1);
  expect(run.stderr).toMatch(/^tokencli install: .+\n$/);
  expect(run.stderr).toMatch(message);
  expect(existsSync(run.installDir)).toBe(false);
  expect(run.leftInTmp).toEqual([]);
}

// install.sh is for POSIX shells; Windows users take the .zip (README).
describe.skipIf(process.platform === 'win32')('install.sh (skipped on Windows: a POSIX sh script)', () => {
  test('defaults to the version it is released with: package.json', () => {
    expect(readFileSync(script, 'utf8')).toContain(`\nRELEASED_VERSION=${version}\n`);
  });

  test.runIf(linuxX64 && existsSync(realArchive))(
    'installs the release executable, verified, and it runs with no node on PATH',
    { timeout: 120_000 },
    async () => {
      const server = await serve(join(root, 'release'));
      const run = install(server.url, { TOKENCLI_VERSION: version });
      expect(run.status, run.stderr).toBe(0);
      const bin = join(run.installDir, 'tokencli');
      expect(run.stdout).toContain(`tokencli ${version} installed: ${bin}\n`);
      expect(run.stdout).toContain(`${run.installDir} is not on your PATH`);
      expect(readdirSync(run.installDir)).toEqual(['tokencli']);
      expect(run.leftInTmp).toEqual([]);
      const ran = spawnSync(bin, ['--version'], { env: { PATH: '/nonexistent' }, encoding: 'utf8' });
      expect(ran.stdout).toBe(`${version}\n`);
    },
  );
  test.skipIf(linuxX64 && existsSync(realArchive))(
    'the release executable install (skipped: needs release/ from `npm run build:release` on linux-x64)',
    () => {},
  );

  test('installs from a (fake) release and says the directory is on PATH when it is', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const installDir = join(tempDir('tokencli-install-home-'), 'bin');
    const run = install(server.url, {
      TOKENCLI_VERSION: '9.8.7',
      TOKENCLI_INSTALL_DIR: installDir,
      PATH: `${installDir}${delimiter}${process.env.PATH}`,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${installDir} is on your PATH`);
    expect(spawnSync(join(installDir, 'tokencli'), ['--version'], { encoding: 'utf8' }).stdout).toBe(
      'fake tokencli 9.8.7\n',
    );
  });

  test('a tampered archive is refused before it is unpacked', async () => {
    const { dir, archive } = fakeRelease('9.8.7');
    writeFileSync(join(dir, archive), Buffer.concat([readFileSync(join(dir, archive)), Buffer.from('x')]));
    const server = await serve(dir);
    expectRefused(
      install(server.url, { TOKENCLI_VERSION: '9.8.7' }),
      new RegExp(`checksum mismatch for tokencli-9\\.8\\.7-${THIS_PLATFORM}\\.tar\\.gz`),
    );
  });

  test('SHA256SUMS without the archive line is refused', async () => {
    const { dir } = fakeRelease('9.8.7');
    writeFileSync(join(dir, 'other.tgz'), 'other');
    writeSums(dir, ['other.tgz']);
    const server = await serve(dir);
    expectRefused(
      install(server.url, { TOKENCLI_VERSION: '9.8.7' }),
      new RegExp(`SHA256SUMS has no checksum for tokencli-9\\.8\\.7-${THIS_PLATFORM}\\.tar\\.gz`),
    );
  });

  test('an archive that is not one, though its checksum matches, is refused in one line', async () => {
    const { dir, archive } = fakeRelease('9.8.7');
    writeFileSync(join(dir, archive), 'not a gzip file\n');
    writeSums(dir, [archive]);
    const server = await serve(dir);
    expectRefused(
      install(server.url, { TOKENCLI_VERSION: '9.8.7' }),
      new RegExp(`cannot unpack tokencli-9\\.8\\.7-${THIS_PLATFORM}\\.tar\\.gz \\(.+\\)$`, 'm'),
    );
  });

  test('an install directory that cannot be made is refused in one line, with the reason', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const file = join(tempDir('tokencli-install-home-'), 'a-file');
    writeFileSync(file, '');
    const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: join(file, 'bin') });
    expectRefused(
      { ...run, installDir: join(file, 'bin') },
      /cannot create .*a-file\/bin \(.*Not a directory\)$/m,
    );
    expect(readFileSync(file, 'utf8')).toBe('');
  });

  test('a missing archive or SHA256SUMS is refused', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    expectRefused(
      install(server.url, { TOKENCLI_VERSION: '1.2.3' }),
      new RegExp(`cannot download .*tokencli-1\\.2\\.3-${THIS_PLATFORM}\\.tar\\.gz`),
    );
    expectRefused(
      install(`${server.url}/nowhere`, { TOKENCLI_VERSION: '9.8.7' }),
      /cannot download .*SHA256SUMS/,
    );
  });

  test('an unknown operating system or processor is refused before anything is downloaded', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    for (const [flag, answer, message] of [
      ['-s', 'Plan9', /no tokencli release for this operating system \(Plan9\)/],
      ['-m', 'mips64', /no tokencli release for this processor \(mips64\)/],
    ] as const) {
      const bin = tempDir('tokencli-fake-uname-');
      // The fake answers the one question it is about and passes the other to the real uname.
      writeFileSync(
        join(bin, 'uname'),
        `#!/bin/sh\n[ "$1" = ${flag} ] && { echo ${answer}; exit 0; }\nexec /usr/bin/env -i uname "$@"\n`,
        { mode: 0o755 },
      );
      expectRefused(
        install(server.url, { TOKENCLI_VERSION: '9.8.7', PATH: `${bin}${delimiter}${process.env.PATH}` }),
        message,
      );
    }
    expect(server.requests()).toEqual([]);
  });

  test('a version that is not exact is refused', () => {
    expectRefused(
      install('http://127.0.0.1:9', { TOKENCLI_VERSION: '../../x' }),
      /TOKENCLI_VERSION must be an exact version/,
    );
  });

  test.runIf(process.platform === 'linux')('without curl, wget downloads', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const run = install(server.url, {
      TOKENCLI_VERSION: '9.8.7',
      PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', 'wget']),
    });
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(join(run.installDir, 'tokencli'))).toBe(true);
    expect(server.requests().map((r) => r.userAgent)).toEqual([
      expect.stringMatching(/^Wget/),
      expect.stringMatching(/^Wget/),
    ]);
  });

  test.runIf(process.platform === 'linux')(
    'without a SHA-256 tool nothing is downloaded or installed',
    async () => {
      const { dir } = fakeRelease('9.8.7');
      const server = await serve(dir);
      const run = install(server.url, {
        TOKENCLI_VERSION: '9.8.7',
        PATH: pathWith([...INSTALL_TOOLS, 'curl']),
      });
      expectRefused(run, /no SHA-256 tool to verify the download \(sha256sum, shasum or openssl\)/);
      expect(server.requests()).toEqual([]);
    },
  );

  test.runIf(process.platform === 'linux')('shasum or openssl stand in for sha256sum', async () => {
    for (const tool of ['shasum', 'openssl']) {
      const { dir } = fakeRelease('9.8.7');
      const server = await serve(dir);
      const run = install(server.url, {
        TOKENCLI_VERSION: '9.8.7',
        PATH: pathWith([...INSTALL_TOOLS, 'curl', tool]),
      });
      expect(run.status, `${tool}: ${run.stderr}`).toBe(0);
    }
  });
});
