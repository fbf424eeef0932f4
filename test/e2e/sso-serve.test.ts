/**
 * The SSO round trip against `tokencli serve`: the CLI builds and signs an assertion
 * with a key file, the local service verifies it against the registered key and issues a token,
 * and `tokencli info` shows the user. Also: the service refuses a replayed assertion, a foreign
 * key and an unsigned assertion, which the CLI reports with exit 3; and the demo `tokencli serve`
 * prints a command that signs in with its generated identity-provider key.
 */
import { spawn } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIN,
  BINARY,
  CLI_SH,
  type CliResult,
  cleanEnv,
  collectOutput,
  runCli,
  type ServeHandle,
  serviceConfigFile,
  startServe,
  tempDir,
} from '../helpers/cli.js';
import { clientEnv } from '../helpers/client-env.js';
import { assertionXml, ISSUER, rsaKeyPair, USER } from '../helpers/saml.js';

const CLIENT = { id: 'sso-app', secret: 'sso-app-secret' };

let serve: ServeHandle;
let dir: string;
let keyFile: string;

beforeAll(async () => {
  const idp = rsaKeyPair();
  dir = tempDir('tokencli-sso-serve-');
  keyFile = join(dir, 'idp-key.pem');
  writeFileSync(keyFile, idp.privateKeyPem, { mode: 0o600 });
  const config = serviceConfigFile(
    {
      apps: [
        {
          client_id: CLIENT.id,
          client_secret: CLIENT.secret,
          app_name: 'SSO App',
          redirect_uris: ['http://127.0.0.1:8765/callback'],
          grants: ['urn:ietf:params:oauth:client-assertion-type:saml2-bearer'],
          saml: { issuer: ISSUER, certificate: idp.publicKeyPem },
        },
      ],
      users: [{ email: USER, password: 'unused-password' }],
    },
    { dir: dir },
  );
  serve = await startServe(['--config', config]);
});

afterAll(async () => {
  await serve?.stop();
});

function env(configDir = tempDir()): Record<string, string> {
  return clientEnv(serve.baseUrl, CLIENT, configDir);
}

describe('tokencli sso against tokencli serve', () => {
  it('builds and signs an assertion, the service accepts it, and info shows the user', async () => {
    const configDir = tempDir();
    const sso = await runCli(['sso', '--assertion-for', USER, '--issuer', ISSUER, '--sign-key', keyFile], {
      env: env(configDir),
    });
    expect(sso.stderr).toContain(`Signed in as ${USER} with SSO`);
    expect(sso.code).toBe(0);
    const info = await runCli(['info', '--json'], { env: env(configDir) });
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ email: USER, status: 'approved', app_name: 'SSO App' });
  });

  it('accepts an assertion once and refuses it the second time (replay, exit 3)', async () => {
    // The file fixes the assertion ID, so signing it twice sends the same assertion twice.
    const file = join(dir, 'assertion.xml');
    writeFileSync(file, assertionXml({ now: new Date(), audience: serve.baseUrl }));
    const first = await runCli(['sso', '--saml-assertion', file, '--sign-key', keyFile], { env: env() });
    expect(first.code).toBe(0);
    const again = await runCli(['sso', '--saml-assertion', file, '--sign-key', keyFile], { env: env() });
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('invalid_grant');
    expect(again.stderr).toContain('already used');
  });

  it('refuses an assertion signed with a key it does not know (exit 3)', async () => {
    const otherKey = join(dir, 'other-key.pem');
    writeFileSync(otherKey, rsaKeyPair().privateKeyPem, { mode: 0o600 });
    const result = await runCli(
      ['sso', '--assertion-for', USER, '--issuer', ISSUER, '--sign-key', otherKey],
      {
        env: env(),
      },
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('does not verify with the certificate registered');
  });

  it('refuses an unsigned assertion with exit 3 and the reason', async () => {
    const result = await runCli(['sso', '--saml-assertion', '-'], {
      env: env(),
      input: assertionXml({ now: new Date(), audience: serve.baseUrl }),
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('the assertion is not signed');
    expect(result.stderr).toContain('warning: the assertion in stdin is not signed');
  });
});

/** Runs a command line in /bin/sh exactly as printed, `tokencli` being the built CLI. */
function runShellLine(line: string, env: Record<string, string>): Promise<CliResult> {
  const child = spawn('/bin/sh', ['-c', `tokencli() { ${CLI_SH} "$@"; }\n${line}`], {
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collectOutput(child);
}

describe('the demo tokencli serve (no --config)', () => {
  // On Windows the command is not run by /bin/sh, and the service cannot be asked to stop: a
  // signal from here terminates it, before it removes the key.
  it.skipIf(process.platform === 'win32')(
    'prints an SSO command that signs in with its generated key, kept private and removed on exit (skipped on Windows: it runs the line in /bin/sh and stops the service with SIGTERM)',
    async () => {
      const demo = await startServe();
      let keyPath = '';
      try {
        await expect.poll(() => demo.logs(), { timeout: 15_000 }).toMatch(/\n {2}SSO: .*\n/);
        const line = (/\n {2}SSO: (.*)\n/.exec(demo.logs()) ?? [])[1] ?? '';
        keyPath = (/--sign-key (\S+)/.exec(line) ?? [])[1] ?? '';
        // The single executable is named as it was run, without node.
        const cli = BINARY ?? `node ${relative(process.cwd(), BIN)}`;
        expect(line).toBe(
          // The binary as it was run (serve's cwd is this test's): see src/cli/commands/serve/invocation.ts.
          `TOKENCLI_CLIENT_SECRET=demo-secret ${cli} sso --profile demo --base-url ${demo.baseUrl} --client-id demo-client` +
            ` --assertion-for demo@example.com --issuer https://idp.demo.tokencli.invalid --sign-key ${keyPath}`,
        );
        expect(statSync(keyPath).mode & 0o777).toBe(0o600);
        expect(statSync(dirname(keyPath)).mode & 0o777).toBe(0o700);
        expect(demo.logs()).not.toContain('PRIVATE KEY');

        const configDir = tempDir();
        const store = { TOKENCLI_STORE: 'file', TOKENCLI_CONFIG_DIR: configDir };
        const sso = await runShellLine(line, store);
        expect(sso.stderr).toContain('Signed in as demo@example.com with SSO (stored in profile demo)');
        expect(sso.code).toBe(0);
        const info = await runCli(['--profile', 'demo', 'info', '--json'], {
          env: {
            ...store,
            TOKENCLI_BASE_URL: demo.baseUrl,
            TOKENCLI_CLIENT_ID: 'demo-client',
            TOKENCLI_CLIENT_SECRET: 'demo-secret',
          },
        });
        expect(info.code).toBe(0);
        expect(JSON.parse(info.stdout)).toMatchObject({ email: 'demo@example.com', status: 'approved' });
      } finally {
        await demo.stop();
      }
      expect(keyPath).not.toBe('');
      expect(existsSync(dirname(keyPath))).toBe(false);
    },
  );
});
