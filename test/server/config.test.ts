import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ServiceConfigError } from '../../src/server/config-error.js';
import { demoServiceConfig, loadServiceConfig, validateServiceConfig } from '../../src/server/index.js';
import { tempDir } from '../helpers/temp-dirs.js';

const CERTIFICATE = readFileSync(new URL('./fixtures/idp-certificate.pem', import.meta.url), 'utf8');
const RSA = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PUBLIC_KEY = RSA.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const PRIVATE_KEY = RSA.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const EC_PUBLIC_KEY = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .publicKey.export({ type: 'spki', format: 'pem' })
  .toString();

/**
 * What every invalid configuration carries besides its message: the document and section of the
 * format, for the caller to locate, and a hint that names it within the package.
 */
const INVALID = {
  code: 'config',
  reason: 'service_config_invalid',
  details: { doc: 'serve.md', section: 'Configuration' },
  hint: "fix the configuration file; its format is described in the package's docs/serve.md (Configuration)",
};

/** A minimal valid configuration as parsed JSON, which each case spoils in one place. */
function minimal(): Record<string, unknown> & {
  apps: Record<string, unknown>[];
  users: Record<string, unknown>[];
} {
  return {
    apps: [
      {
        client_id: 'c1',
        client_secret: 's1',
        app_name: 'App One',
        redirect_uris: ['https://app.example/cb'],
      },
    ],
    users: [{ email: 'a@example.com', password: 'pw' }],
  };
}

/** The minimal configuration with its app's (or user's) fields replaced; undefined removes one. */
function withApp(patch: Record<string, unknown>): ReturnType<typeof minimal> {
  const json = minimal();
  json.apps[0] = withoutUndefined({ ...json.apps[0], ...patch });
  return json;
}

function withUser(patch: Record<string, unknown>): ReturnType<typeof minimal> {
  const json = minimal();
  json.users[0] = withoutUndefined({ ...json.users[0], ...patch });
  return json;
}

function withoutUndefined(obj: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined));
}

function errorOf(json: unknown): ServiceConfigError {
  try {
    validateServiceConfig(json);
  } catch (error) {
    if (error instanceof ServiceConfigError) return error;
    throw error;
  }
  throw new Error('expected a ServiceConfigError');
}

describe('validateServiceConfig', () => {
  test('fills in the defaults of docs/contract.md §1', () => {
    const config = validateServiceConfig(minimal());
    expect(config).toMatchObject({
      scope: 'demoservices',
      access_token_ttl: 3600,
      refresh_token_ttl: 2592000,
      code_ttl: 20,
    });
    // Only authorization_code is enabled by default (docs/contract.md §1 rule 1).
    expect(config.apps[0]).toMatchObject({ grants: ['authorization_code'], refresh_tokens: false });
    expect(config.users[0]).toMatchObject({ single_session: false });
  });

  test('the demo configuration is valid and has every grant', () => {
    const config = validateServiceConfig(demoServiceConfig());
    expect(config.apps[0]?.grants).toHaveLength(4);
    expect(config.apps[0]).toMatchObject({
      client_id: 'demo-client',
      app_name: 'Demo App',
      refresh_tokens: true,
    });
    expect(config.users[0]).toMatchObject({ email: 'demo@example.com', password: 'demo-password' });
  });

  test('accepts an SSO connection with a certificate or a public key', () => {
    for (const certificate of [CERTIFICATE, PUBLIC_KEY]) {
      const json = minimal();
      json.apps[0] = { ...json.apps[0], saml: { issuer: 'https://idp.example', certificate, audience: 'x' } };
      expect(validateServiceConfig(json).apps[0]?.saml).toEqual({
        issuer: 'https://idp.example',
        certificate,
        audience: 'x',
      });
    }
  });

  type Case = [name: string, spoil: (j: ReturnType<typeof minimal>) => unknown, message: string];
  const cases: Case[] = [
    ['not an object', () => [], 'the configuration must be a JSON object'],
    [
      'unknown top-level key',
      (j) => ({ ...j, scopes: 'x' }),
      'scopes: unknown key; expected one of scope, access_token_ttl, refresh_token_ttl, code_ttl, apps, users',
    ],
    ['scope with a space', (j) => ({ ...j, scope: 'a b' }), 'scope: must be one scope token, without spaces'],
    ['scope not a string', (j) => ({ ...j, scope: 3 }), 'scope: must be a non-empty string'],
    [
      'ttl as a string',
      (j) => ({ ...j, access_token_ttl: '3600' }),
      'access_token_ttl: must be a whole number of seconds between 1 and 315360000',
    ],
    [
      'ttl zero',
      (j) => ({ ...j, refresh_token_ttl: 0 }),
      'refresh_token_ttl: must be a whole number of seconds between 1 and 315360000',
    ],
    [
      'ttl fractional',
      (j) => ({ ...j, access_token_ttl: 1.5 }),
      'access_token_ttl: must be a whole number of seconds between 1 and 315360000',
    ],
    [
      'code ttl too long',
      (j) => ({ ...j, code_ttl: 601 }),
      'code_ttl: must be a whole number of seconds between 1 and 600',
    ],
    ['apps missing', (j) => ({ users: j.users }), 'apps: is required'],
    ['apps empty', (j) => ({ ...j, apps: [] }), 'apps: must be a non-empty array'],
    ['users not an array', (j) => ({ ...j, users: {} }), 'users: must be a non-empty array'],
    ['app not an object', (j) => ({ ...j, apps: ['x'] }), 'apps[0]: must be an object'],
    [
      'unknown app key',
      () => withApp({ secret: 'x' }),
      'apps[0].secret: unknown key; expected one of client_id, client_secret, app_name, redirect_uris, grants, refresh_tokens, saml, token_type',
    ],
    ['client_id missing', () => withApp({ client_id: undefined }), 'apps[0].client_id: is required'],
    [
      'client_id with a space',
      () => withApp({ client_id: 'a b' }),
      'apps[0].client_id: must be 1 to 200 visible ASCII characters',
    ],
    [
      'client_secret not a string',
      () => withApp({ client_secret: 5 }),
      'apps[0].client_secret: must be a non-empty string',
    ],
    [
      'client_secret with a newline',
      () => withApp({ client_secret: 'a\nb' }),
      'apps[0].client_secret: must be printable ASCII',
    ],
    ['app_name empty', () => withApp({ app_name: '' }), 'apps[0].app_name: must be a non-empty string'],
    [
      'redirect URI relative',
      () => withApp({ redirect_uris: ['https://a.example/cb', '/cb'] }),
      'apps[0].redirect_uris[1]: must be an absolute URI',
    ],
    [
      'redirect URI not a string',
      () => withApp({ redirect_uris: [7] }),
      'apps[0].redirect_uris[0]: must be a string',
    ],
    [
      'redirect URI with a fragment',
      () => withApp({ redirect_uris: ['https://a.example/cb#x'] }),
      'apps[0].redirect_uris[0]: must not contain a fragment (#…)',
    ],
    [
      'redirect URI duplicate',
      () => withApp({ redirect_uris: ['https://a.example/cb', 'https://a.example/cb'] }),
      'apps[0].redirect_uris[1]: duplicate of apps[0].redirect_uris[0]',
    ],
    [
      'unknown grant',
      () => withApp({ grants: ['authorization_code', 'password'] }),
      'apps[0].grants[1]: unknown grant "password"; expected one of authorization_code, client_credentials, refresh_token, urn:ietf:params:oauth:client-assertion-type:saml2-bearer',
    ],
    [
      'grant duplicate',
      () => withApp({ grants: ['refresh_token', 'refresh_token'] }),
      'apps[0].grants[1]: duplicate of apps[0].grants[0]',
    ],
    ['grants empty', () => withApp({ grants: [] }), 'apps[0].grants: must be a non-empty array'],
    [
      'refresh_tokens not boolean',
      () => withApp({ refresh_tokens: 'yes' }),
      'apps[0].refresh_tokens: must be true or false',
    ],
    [
      'refresh_tokens without the grant',
      () => withApp({ refresh_tokens: true }),
      'apps[0].refresh_tokens: issuing refresh tokens needs "refresh_token" in grants',
    ],
    ['saml not an object', () => withApp({ saml: 'x' }), 'apps[0].saml: must be an object'],
    [
      'saml unknown key',
      () => withApp({ saml: { issuer: 'i', certificate: PUBLIC_KEY, key: 'x' } }),
      'apps[0].saml.key: unknown key; expected one of issuer, certificate, audience',
    ],
    [
      'saml issuer missing',
      () => withApp({ saml: { certificate: PUBLIC_KEY } }),
      'apps[0].saml.issuer: is required',
    ],
    [
      'saml certificate garbage',
      () => withApp({ saml: { issuer: 'i', certificate: 'not a pem' } }),
      'apps[0].saml.certificate: must be a PEM certificate or public key',
    ],
    [
      'saml certificate broken',
      () =>
        withApp({
          saml: {
            issuer: 'i',
            certificate: CERTIFICATE.replace(/\n[A-Za-z0-9+/]{20}/, `\n${'A'.repeat(20)}`),
          },
        }),
      'apps[0].saml.certificate: must be a PEM certificate or public key',
    ],
    [
      'saml certificate is a private key',
      () => withApp({ saml: { issuer: 'i', certificate: PRIVATE_KEY } }),
      "apps[0].saml.certificate: is a private key; register the identity provider's certificate or public key instead",
    ],
    [
      'saml certificate not RSA',
      () => withApp({ saml: { issuer: 'i', certificate: EC_PUBLIC_KEY } }),
      'apps[0].saml.certificate: must be an RSA certificate or public key (assertions are signed with RSA-SHA256)',
    ],
    [
      'saml certificate missing',
      () => withApp({ saml: { issuer: 'i' } }),
      'apps[0].saml.certificate: is required',
    ],
    [
      'saml issuer empty',
      () => withApp({ saml: { issuer: '', certificate: PUBLIC_KEY } }),
      'apps[0].saml.issuer: must be a non-empty string',
    ],
    [
      'saml audience not a string',
      () => withApp({ saml: { issuer: 'i', certificate: PUBLIC_KEY, audience: ['a'] } }),
      'apps[0].saml.audience: must be a non-empty string',
    ],
    [
      'token_type not a known type',
      () => withApp({ token_type: 'MAC' }),
      'apps[0].token_type: must be one of "BearerToken", "Bearer", "bearer" (the platform sends "BearerToken"; "Bearer" suits strict OAuth clients)',
    ],
    [
      'token_type in another case',
      () => withApp({ token_type: 'BEARER' }),
      'apps[0].token_type: must be one of "BearerToken", "Bearer", "bearer" (the platform sends "BearerToken"; "Bearer" suits strict OAuth clients)',
    ],
    [
      'token_type not a string',
      () => withApp({ token_type: true }),
      'apps[0].token_type: must be one of "BearerToken", "Bearer", "bearer" (the platform sends "BearerToken"; "Bearer" suits strict OAuth clients)',
    ],
    [
      'duplicate client_id',
      (j) => ({ ...j, apps: [j.apps[0], { ...j.apps[0] }] }),
      'apps[1].client_id: duplicate of apps[0].client_id',
    ],
    [
      'unknown user key',
      () => withUser({ role: 'x' }),
      'users[0].role: unknown key; expected one of email, password, single_session',
    ],
    ['email without @', () => withUser({ email: 'alice' }), 'users[0].email: must be an email address'],
    ['password missing', () => withUser({ password: undefined }), 'users[0].password: is required'],
    [
      'single_session not boolean',
      () => withUser({ single_session: 1 }),
      'users[0].single_session: must be true or false',
    ],
    [
      'duplicate email, other case',
      (j) => ({ ...j, users: [j.users[0], { email: 'A@Example.com', password: 'x' }] }),
      'users[1].email: duplicate of users[0].email',
    ],
  ];

  test.each(cases)('%s', (_name, spoil, message) => {
    const error = errorOf(spoil(minimal()));
    expect(error.message).toBe(message);
    expect(error).toMatchObject(INVALID);
  });
});

describe('loadServiceConfig', () => {
  const dir = tempDir('tokencli-config-');

  test('reads and validates a file', async () => {
    const path = join(dir, 'ok.json');
    writeFileSync(path, JSON.stringify(minimal()));
    expect((await loadServiceConfig(path)).apps[0]?.client_id).toBe('c1');
  });

  test('a missing file is a usage error naming it', async () => {
    const path = join(dir, 'absent.json');
    await expect(loadServiceConfig(path)).rejects.toMatchObject({
      message: `cannot read config file ${path}: no such file`,
      code: 'config',
    });
  });

  test('a directory is a usage error', async () => {
    await expect(loadServiceConfig(dir)).rejects.toMatchObject({
      message: `cannot read config file ${dir}: it is a directory`,
    });
  });

  test('invalid JSON is a usage error naming the file', async () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, '{"apps": [');
    await expect(loadServiceConfig(path)).rejects.toMatchObject({
      message: `config file ${path} is not valid JSON (at the end of the file)`,
      ...INVALID,
    });
  });

  test('invalid JSON is located, never quoted: the text around the mistake may be a secret', async () => {
    const path = join(dir, 'secret.json');
    writeFileSync(path, '{\n  "apps": [{"client_secret": s3cret-value}]\n}');
    const error: Error = await loadServiceConfig(path).then(
      () => new Error('accepted'),
      (e: Error) => e,
    );
    expect(error.message).toMatch(new RegExp(`^config file ${path} is not valid JSON`));
    expect(error.message).not.toContain('s3cret');
  });

  test('an invalid key is reported with the file and the key path', async () => {
    const path = join(dir, 'invalid.json');
    const json = minimal();
    (json.apps[0] as Record<string, unknown>).redirect_uris = ['https://a.example/cb', 'nope'];
    writeFileSync(path, JSON.stringify(json));
    await expect(loadServiceConfig(path)).rejects.toMatchObject({
      message: `${path}: apps[0].redirect_uris[1]: must be an absolute URI`,
      ...INVALID,
    });
  });
});
