/**
 * The README's Install lines, run as a new user pastes them, against a (fake) release served on
 * 127.0.0.1: the install script fetched, read and run; and the archive by hand, whose checksum
 * step stops a tampered archive before anything is unpacked or installed. Only the release's base
 * URL is replaced, and `less` (reading the script first) is a stand-in that reads it all and shows
 * nothing.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { requiredInCi } from '../helpers/ci-required.js';
import { cleanEnv, tempDir } from '../helpers/cli.js';
import {
  fakeRelease,
  programOnPath,
  type ReleaseServer,
  serveRelease,
  writeSums,
} from '../helpers/release-server.js';

const root = resolve(import.meta.dirname, '../..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const install = readme.split('\n## Install\n')[1]?.split('\n## ')[0] ?? '';
const block = install.split('```sh\n')[1]?.split('\n```')[0]?.split('\n') ?? [];

const linuxX64 = process.platform === 'linux' && process.arch === 'x64';
const curlMissing = programOnPath('curl') ? undefined : 'curl is not installed';
if (linuxX64) requiredInCi(curlMissing, "install Debian's curl");

const servers: ReleaseServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** A release of this version for linux-x64, with install.sh and a SHA256SUMS over both. */
async function release(): Promise<{ dir: string; url: string }> {
  const { dir } = fakeRelease(version, 'linux-x64');
  copyFileSync(join(root, 'install.sh'), join(dir, 'install.sh'));
  writeSums(dir);
  const server = await serveRelease(dir);
  servers.push(server);
  return { dir, url: server.url };
}

/** Lines of the block, `base=` pointed at `url`, run by sh in a fresh working directory and home. */
function paste(lines: string[], url: string, env: Record<string, string> = {}) {
  const home = tempDir('tokencli-readme-home-');
  const work = tempDir('tokencli-readme-work-');
  const bin = tempDir('tokencli-readme-bin-');
  writeFileSync(join(bin, 'less'), '#!/bin/sh\ncat "$@" >/dev/null\n', { mode: 0o755 });
  const script = lines.map((line) => line.replace(/^base=https:\/\/\S+$/, `base=${url}`)).join('\n');
  const result = spawnSync('sh', ['-c', script], {
    cwd: work,
    env: cleanEnv({ HOME: home, PATH: `${bin}${delimiter}${process.env.PATH}`, ...env }),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { ...result, home, work };
}

// The lines name the linux-x64 archive and sha256sum (macOS's are in the prose around them).
describe.skipIf(!linuxX64 || curlMissing)(
  `the README's Install lines (skipped ${curlMissing ? `here: ${curlMissing}` : 'off Linux x64: they name its archive'})`,
  () => {
    test('name this version, and each way they offer installs a tokencli that runs', async () => {
      const base = block.find((line) => line.startsWith('base='));
      expect(base).toBe(`base=https://github.com/tokencli/tokencli/releases/download/v${version}`);
      const byHand = block.findIndex((line) => line.startsWith('# or by hand'));
      expect(byHand).toBeGreaterThan(1);
      const { url } = await release();

      // Fetched, read, run: install.sh's own default URL is the real release, so the test server is
      // given to it as a mirror.
      const scripted = paste(block.slice(0, byHand), url, { TOKENCLI_DOWNLOAD_URL: url });
      expect(scripted.status, scripted.stderr).toBe(0);
      expect(scripted.stdout).toContain(
        `tokencli ${version} installed: ${join(scripted.home, '.local', 'bin', 'tokencli')}`,
      );

      const manual = paste([base ?? '', ...block.slice(byHand + 1)], url);
      expect(manual.status, manual.stderr).toBe(0);
      const installed = join(manual.home, '.local', 'bin', 'tokencli');
      expect(spawnSync(installed, ['--version'], { encoding: 'utf8' }).stdout).toBe(`${version}\n`);
      expect(existsSync(join(manual.home, '.local', 'share', 'man', 'man1', 'tokencli.1'))).toBe(true);
    });

    test('by hand, a tampered archive stops at the checksum: nothing is unpacked or installed', async () => {
      const byHand = block.findIndex((line) => line.startsWith('# or by hand'));
      const { dir, url } = await release();
      appendFileSync(join(dir, `tokencli-${version}-linux-x64.tar.gz`), 'x');
      const base = block.find((line) => line.startsWith('base=')) ?? '';
      const manual = paste([base, ...block.slice(byHand + 1)], url);
      expect(manual.status).not.toBe(0);
      expect(manual.stdout).toMatch(/FAILED/);
      expect(readdirSync(manual.home)).toEqual([]);
      expect(readdirSync(manual.work).sort()).toEqual(['SHA256SUMS', `tokencli-${version}-linux-x64.tar.gz`]);
    });
  },
);
