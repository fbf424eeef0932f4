/**
 * The release workflow's smoke test of one platform's executable (and .ci/run's, on Linux):
 * `node scripts/release/smoke.mjs PATH_TO_TOKENCLI [--keychain]`, or `--release` for the path to
 * take the executable out of this platform's archive in release/ (`npm run build:release`).
 *
 * 1. `--version` prints package.json's version;
 * 2. `tokencli serve` starts, and `tokencli token` gets a token from it (nothing stored);
 * 3. with --keychain (macOS and Windows runners): the OS keychain round trip — configure keeps the
 *    client secret there, token stores the token there, a second token comes from it with no
 *    request, logout --purge removes both — through the @napi-rs/keyring addon the executable
 *    carries.
 *
 * Each run has its own config directory; a failure throws (exit 1) naming the step.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { archiveName, tarCommand } from './platform.mjs';

const [exe, flag] = process.argv.slice(2);
if (!exe) throw new Error('usage: smoke.mjs PATH_TO_TOKENCLI|--release [--keychain]');
const root = resolve(import.meta.dirname, '../..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const configDir = mkdtempSync(join(tmpdir(), 'tokencli-smoke-'));
let bin = resolve(exe);
if (exe === '--release') {
  execFileSync(tarCommand(), ['-xf', join(root, 'release', archiveName(version)), '-C', configDir]);
  bin = join(configDir, process.platform === 'win32' ? 'tokencli.exe' : 'tokencli');
}
const profile = `smoke-${process.pid}`;

function tokencli(args, env = {}, input = '') {
  return execFileSync(bin, args, {
    env: { ...process.env, TOKENCLI_CONFIG_DIR: configDir, ...env },
    input,
    encoding: 'utf8',
  }).trim();
}

function check(step, ok) {
  if (!ok) throw new Error(`smoke: ${step} failed`);
  console.log(`smoke: ${step}: ok`);
}

check('--version', tokencli(['--version']) === version);

const server = spawn(bin, ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
let requests = 0;
createInterface({ input: server.stderr }).on('line', (line) => {
  if (line.includes('/v2/oauth/token ')) requests++;
});
try {
  const { base_url: baseUrl } = JSON.parse(
    await new Promise((res, rej) => {
      server.once('exit', (code) => rej(new Error(`smoke: serve exited with ${code}`)));
      createInterface({ input: server.stdout }).once('line', res);
    }),
  );
  // The demo client and user of `tokencli serve` (docs/serve.md).
  const demo = {
    TOKENCLI_BASE_URL: baseUrl,
    TOKENCLI_CLIENT_ID: 'demo-client',
    TOKENCLI_EMAIL: 'demo@example.com',
    TOKENCLI_PASSWORD: 'demo-password',
  };
  const token = tokencli(['token', '--store', 'none'], { ...demo, TOKENCLI_CLIENT_SECRET: 'demo-secret' });
  check('a token from tokencli serve', token.length > 20);

  if (flag === '--keychain') {
    const keychain = { ...demo, TOKENCLI_STORE: 'keychain', TOKENCLI_PROFILE: profile };
    try {
      tokencli(['configure', '--client-secret-stdin'], keychain, 'demo-secret');
      const first = tokencli(['token'], keychain);
      const before = requests;
      const second = tokencli(['token'], keychain);
      check(
        'the keychain keeps the secret and the token',
        first.length > 20 && second === first && requests === before,
      );
    } finally {
      tokencli(['logout', '--purge'], keychain);
    }
    const status = tokencli(['status', '--json'], { TOKENCLI_STORE: 'keychain', TOKENCLI_PROFILE: profile });
    check('logout --purge empties the keychain', !status.includes('"access_token"'));
  }
} finally {
  // The service's executable is in configDir, and Windows removes no running executable: it must
  // have ended first.
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((res) => server.once('exit', res));
    server.kill();
    await exited;
  }
  rmSync(configDir, { recursive: true, force: true, maxRetries: 5 });
}
