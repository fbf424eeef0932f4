/**
 * `configure --email / --timeout / --ca-file` through the built CLI: each is checked, saved in the
 * profile (docs/contract.md §2.1) and used by later runs; a bad value is one clear error, exit 2,
 * and the profile is left as it was. The password is never saved.
 */
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { afterAll, describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { serveForFile } from '../helpers/serve.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { DEMO } from './env.js';

const serve = serveForFile();
afterAll(removeTempDirs);

function env(configDir: string, extra: Record<string, string | undefined> = {}) {
  return { TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_STORE: 'file', ...extra };
}

function profileOf(configDir: string, name = 'default'): Record<string, unknown> {
  return JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles[name];
}

/** A TCP server that accepts connections and never answers. */
async function silentServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('configure saves the email, timeout and CA file it is given', () => {
  test('saved as checked (the CA file made absolute), shown by profile show, used by token', async () => {
    const configDir = tempDir('tokencli-configure-');
    const work = tempDir('tokencli-configure-cwd-');
    writeFileSync(join(work, 'corp-ca.pem'), `${rootCertificates[0]}\n`);
    const r = await runCli(
      [
        '--base-url',
        serve.baseUrl,
        '--client-id',
        DEMO.clientId,
        '--timeout',
        '10',
        '--ca-file',
        'corp-ca.pem',
        'configure',
        '--email',
        DEMO.email,
        '--client-secret-stdin',
      ],
      { env: env(configDir), input: DEMO.clientSecret, cwd: work },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(profileOf(configDir)).toEqual({
      base_url: serve.baseUrl,
      client_id: DEMO.clientId,
      email: DEMO.email,
      timeout: 10,
      // Made absolute from the working directory as the system reports it, which behind a
      // symbolic link (macOS's temporary directory is under /var, a link to /private/var) is
      // the real path.
      ca_file: join(realpathSync(work), 'corp-ca.pem'),
      store: 'file',
    });

    const show = await runCli(['profile', 'show'], { env: env(configDir) });
    expect(show.stdout).toMatch(/^ {2}email {10}demo@example\.com$/m);
    expect(show.stdout).toMatch(/^ {2}timeout {8}10$/m);

    // The saved email is the user's: the password alone is enough now, and is not kept.
    const token = await runCli(['token'], { env: env(configDir, { TOKENCLI_PASSWORD: DEMO.password }) });
    expect(token.code, token.stderr).toBe(0);
    const files = ['config.json', 'credentials.json'].map((f) => readFileSync(join(configDir, f), 'utf8'));
    for (const text of files) expect(text).not.toContain(DEMO.password);
  });

  test('the saved timeout is the one later runs wait (1 s, not the default 30 s)', async () => {
    const silent = await silentServer();
    try {
      const configDir = tempDir('tokencli-configure-');
      const saved = await runCli(
        ['--base-url', silent.url, '--client-id', 'c', '--timeout', '1', 'configure', '--no-secret'],
        { env: env(configDir) },
      );
      expect(saved.code, saved.stderr).toBe(0);
      expect(profileOf(configDir).timeout).toBe(1);
      const started = Date.now();
      const token = await runCli(['token', '--email', DEMO.email], {
        env: env(configDir, { TOKENCLI_CLIENT_SECRET: 's', TOKENCLI_PASSWORD: 'p' }),
        timeoutMs: 15_000,
      });
      expect(token.code, token.stderr).toBe(5);
      expect(token.stderr).toMatch(/^error: the request to .* timed out after 1 s$/m);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await silent.close();
    }
  });
});

describe('configure refuses a bad value and leaves the profile as it was', () => {
  const notPem = () => {
    const dir = tempDir('tokencli-configure-ca-');
    writeFileSync(join(dir, 'not.pem'), 'not a certificate\n');
    return join(dir, 'not.pem');
  };
  const cases: Array<[string, () => string[], RegExp, RegExp]> = [
    [
      '--timeout abc',
      () => ['--timeout', 'abc'],
      /^error: --timeout: "abc" is not a timeout in seconds$/,
      /^hint: give a number of seconds/,
    ],
    ['--timeout 0', () => ['--timeout', '0'], /^error: --timeout: "0" is not a timeout/, /^hint: /],
    [
      'a --ca-file that does not exist',
      () => ['--ca-file', '/nonexistent/corp-ca.pem'],
      /^error: the CA certificate file \/nonexistent\/corp-ca\.pem \(--ca-file\) does not exist$/,
      /^hint: give --ca-file the path of a readable PEM file/,
    ],
    [
      'a --ca-file without a certificate',
      () => ['--ca-file', notPem()],
      /^error: the CA certificate file .*not\.pem \(--ca-file\) holds no PEM certificate$/,
      /^hint: give --ca-file a PEM file/,
    ],
    [
      '--email without an @',
      () => ['configure', '--email', 'demo.example.com'],
      /^error: --email: "demo\.example\.com" is not an email address$/,
      /^hint: give the address the user logs in with/,
    ],
    [
      '--email with a zero-width space',
      () => ['configure', '--email', 'demo\u200b@example.com'],
      /^error: --email: the email holds U\+200B, which no address may contain$/,
      /^hint: /,
    ],
  ];

  test.each(cases)('%s: exit 2, one error line and a hint, nothing changed', async (_, args, error, hint) => {
    const configDir = tempDir('tokencli-configure-');
    const configure = ['--base-url', serve.baseUrl, '--client-id', DEMO.clientId, 'configure', '--no-secret'];
    expect((await runCli(configure, { env: env(configDir) })).code).toBe(0);
    const before = readFileSync(join(configDir, 'config.json'), 'utf8');

    const given = args();
    const command = given[0] === 'configure' ? [...given, '--no-secret'] : [...given, ...configure];
    const r = await runCli(command, { env: env(configDir) });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(error);
    expect(lines[1]).toMatch(hint);
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(before);
  });
});
