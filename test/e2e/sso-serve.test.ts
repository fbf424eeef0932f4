/**
 * The SSO round trip against `tokencli serve` (issue #5): the CLI builds and signs an assertion
 * with a key file, the local service verifies it against the registered key and issues a token,
 * and `tokencli info` shows the user. Also: the service refuses a replayed assertion and an
 * unsigned one, which the CLI reports with exit 3.
 *
 * The token endpoint's SAML grant is wired by the service's owner; until it is, the service
 * answers "SAML verification is not available yet" and these tests skip saying so.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type ServeHandle, startServe, tempDir } from '../helpers/cli.js';
import { assertionXml, ISSUER, rsaKeyPair, USER } from '../saml/fixtures.js';

const CLIENT = { id: 'sso-app', secret: 'sso-app-secret' };
const NOT_WIRED = 'SAML verification is not available yet';

let serve: ServeHandle;
let dir: string;
let keyFile: string;
let notWired: string | undefined;

beforeAll(async () => {
  const idp = rsaKeyPair();
  dir = tempDir('tokencli-sso-serve-');
  keyFile = join(dir, 'idp-key.pem');
  writeFileSync(keyFile, idp.privateKeyPem, { mode: 0o600 });
  const config = join(dir, 'service.json');
  writeFileSync(
    config,
    JSON.stringify({
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
    }),
  );
  serve = await startServe(['--config', config]);
  // Probe: an unsigned assertion is refused either way; the reason says whether SAML is wired.
  const probe = await runCli(['sso', '--saml-assertion', '-'], { env: env(), input: assertionXml() });
  if (probe.stderr.includes(NOT_WIRED)) notWired = `the service answers "${NOT_WIRED}"`;
});

afterAll(async () => {
  await serve?.stop();
});

function env(configDir = tempDir()): Record<string, string> {
  return {
    TOKENCLI_BASE_URL: serve.baseUrl,
    TOKENCLI_CLIENT_ID: CLIENT.id,
    TOKENCLI_CLIENT_SECRET: CLIENT.secret,
    TOKENCLI_STORE: 'file',
    TOKENCLI_CONFIG_DIR: configDir,
  };
}

describe('tokencli sso against tokencli serve', () => {
  it('builds and signs an assertion, the service accepts it, and info shows the user', async (ctx) => {
    if (notWired) return ctx.skip(notWired);
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

  it('accepts an assertion once and refuses it the second time (replay, exit 3)', async (ctx) => {
    if (notWired) return ctx.skip(notWired);
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

  it('refuses an assertion signed with a key it does not know (exit 3)', async (ctx) => {
    if (notWired) return ctx.skip(notWired);
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

  it('refuses an unsigned assertion with exit 3 and the reason', async (ctx) => {
    if (notWired) return ctx.skip(notWired);
    const result = await runCli(['sso', '--saml-assertion', '-'], {
      env: env(),
      input: assertionXml({ now: new Date(), audience: serve.baseUrl }),
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('the assertion is not signed');
    expect(result.stderr).toContain('warning: the assertion in stdin is not signed');
  });
});
