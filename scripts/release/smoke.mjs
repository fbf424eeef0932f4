/**
 * The release workflow's smoke test of one platform's executable (and .ci/run's, on Linux):
 * `node scripts/release/smoke.mjs PATH_TO_TOKENCLI [--keychain]`, or `--release` for the path to
 * take the executable out of this platform's archive in release/ (`npm run build:release`).
 *
 * 1. `--version` prints package.json's version;
 * 2. `tokencli serve` starts, and `tokencli token` gets a token from it (nothing stored), the one
 *    token request the service logged;
 * 3. with --keychain (macOS and Windows runners): the OS keychain round trip — configure keeps the
 *    client secret there, token stores the token there, a second token comes from it with no
 *    request, `status` says both are in the keychain (not a file fallen back to), logout --purge
 *    removes both — through the @napi-rs/keyring addon the executable carries there (on Linux,
 *    where .ci/run takes this step in a D-Bus session, through the Secret Service over D-Bus).
 *
 * Each run has its own config directory, removed however it ends; a failure is one line naming the
 * step and what it saw (a tokencli that fails, or runs a minute, by its first line), exit 1; so is
 * a flag other than --keychain, and a release/ with no archive to unpack. What a tokencli that
 * passes says on stderr is passed on, a line each, so that the job's log shows its warnings.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { BuildFailure, reportFailures } from './failure.mjs';
import { withoutProxies } from './own-service-env.mjs';
import { archiveName, tarCommand } from './platform.mjs';

reportFailures('smoke');

const [exe, ...flags] = process.argv.slice(2);
// A flag mistyped in a workflow's matrix (--keychian) would skip the keychain's round trip unseen.
if (!exe || flags.some((flag) => flag !== '--keychain'))
  throw new BuildFailure('usage: smoke.mjs PATH_TO_TOKENCLI|--release [--keychain]');
const withKeychain = flags.includes('--keychain');
const root = resolve(import.meta.dirname, '../..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const configDir = mkdtempSync(join(tmpdir(), 'tokencli-smoke-'));
const profile = `smoke-${process.pid}`;
let bin = resolve(exe);
let server;
let requests = 0;

/**
 * What `tokencli ARGS` printed; one that fails, or hangs a minute, fails the run in one line. What a
 * passing one says on stderr (a keychain fallen back to a file, say) is passed on to the job's log.
 */
function tokencli(args, env = {}, input = '') {
  const run = spawnSync(bin, args, {
    // Without the builder's proxy settings: the service is this machine's (own-service-env.mjs).
    env: { ...withoutProxies(process.env), TOKENCLI_CONFIG_DIR: configDir, ...env },
    input,
    encoding: 'utf8',
    stdio: 'pipe',
    timeout: 60_000,
  });
  const said = (run.stderr ?? '').trim();
  if (run.error === undefined && run.status === 0) {
    for (const line of said.split('\n'))
      if (line.trim()) console.error(`smoke: tokencli ${args[0]} said: ${line}`);
    return run.stdout.trim();
  }
  const ended =
    run.error?.code === 'ETIMEDOUT'
      ? 'did not end within 60 s'
      : run.status === null
        ? `did not run (${run.error?.code ?? run.signal})`
        : `exited with ${run.status}`;
  const first = said.split('\n')[0];
  throw new BuildFailure(`tokencli ${args[0]} ${ended}${first ? `: ${first}` : ''}`);
}

/** Passes when `ok`; else fails the run, saying what was seen. */
function check(step, ok, seen) {
  if (!ok)
    throw new BuildFailure(`${step} failed${seen === undefined ? '' : ` (got ${JSON.stringify(seen)})`}`);
  console.log(`smoke: ${step}: ok`);
}

/** Resolves once the service has logged `count` token requests, or after `ms` (it logs after it answers). */
async function requestsLogged(count, ms = 5000) {
  const until = Date.now() + ms;
  while (requests < count && Date.now() < until) await new Promise((res) => setTimeout(res, 25));
  return requests;
}

/** Ends the service, waiting for it: Windows removes no running executable, and it is in configDir. */
async function stopServer() {
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((res) => server.once('exit', res));
    server.kill();
    await exited;
  }
}

// Interrupted (a job cancelled), it still leaves no service running and no directory behind.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.once(signal, async () => {
    await stopServer();
    rmSync(configDir, { recursive: true, force: true, maxRetries: 5 });
    process.exit(code);
  });
}

/** The smoke profile's entry in `tokencli status --json`. */
function profileStatus(env) {
  const status = JSON.parse(tokencli(['status', '--json'], env));
  return status.profiles.find((entry) => entry.profile === profile);
}

try {
  if (exe === '--release') {
    const archive = `release/${archiveName(version)}`;
    if (!existsSync(join(root, archive)))
      throw new BuildFailure(`${archive} is missing: run \`npm run build:release\` first`);
    try {
      execFileSync(tarCommand(), ['-xf', join(root, archive), '-C', configDir], { stdio: 'pipe' });
    } catch (error) {
      const said = String(error.stderr ?? '')
        .trim()
        .split('\n')[0];
      throw new BuildFailure(`cannot unpack ${archive}${said ? ` (${said})` : ''}`);
    }
    bin = join(configDir, process.platform === 'win32' ? 'tokencli.exe' : 'tokencli');
    if (!existsSync(bin)) throw new BuildFailure(`${archive} holds no ${basename(bin)} at its top`);
  }
  const printed = tokencli(['--version']);
  check(`--version prints ${version}`, printed === version, printed);

  server = spawn(bin, ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  createInterface({ input: server.stderr }).on('line', (line) => {
    if (line.includes('/v2/oauth/token ')) requests++;
  });
  const { base_url: baseUrl } = JSON.parse(
    await new Promise((res, rej) => {
      server.once('error', (error) => rej(new BuildFailure(`serve did not start: ${error.message}`)));
      server.once('exit', (code) => rej(new BuildFailure(`serve exited with ${code}`)));
      setTimeout(() => rej(new BuildFailure('serve printed no address within 30 s')), 30_000).unref();
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
  await requestsLogged(1);
  check('a token from tokencli serve', token.length > 20 && !/\s/.test(token) && requests === 1, {
    token,
    requests,
  });

  if (withKeychain) {
    const keychain = { ...demo, TOKENCLI_STORE: 'keychain', TOKENCLI_PROFILE: profile };
    try {
      tokencli(['configure', '--client-secret-stdin'], keychain, 'demo-secret');
      const first = tokencli(['token'], keychain);
      // Counted only once the first one's request is logged, and the second given time to log one.
      const before = await requestsLogged(2);
      const second = tokencli(['token'], keychain);
      await new Promise((res) => setTimeout(res, 500));
      const stored = profileStatus(keychain);
      check(
        'the keychain keeps the secret and the token',
        first.length > 20 &&
          second === first &&
          requests === before &&
          stored?.store === 'keychain' &&
          stored.logged_in === true &&
          stored.client_secret_stored === true,
        { status: stored, requests_for_the_second: requests - before },
      );
    } finally {
      tokencli(['logout', '--purge'], keychain);
    }
    const purged = profileStatus({ TOKENCLI_STORE: 'keychain', TOKENCLI_PROFILE: profile });
    check(
      'logout --purge empties the keychain',
      purged?.logged_in === false && purged.client_secret_stored === false,
      purged,
    );
  }
} finally {
  await stopServer();
  rmSync(configDir, { recursive: true, force: true, maxRetries: 5 });
}
