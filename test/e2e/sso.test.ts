/**
 * `tokencli sso` as a process against a loopback token endpoint that runs the real SAML verifier:
 * what the CLI sends (grant type, exactly one SAML field, form body only), building and signing
 * from key files, stdin, --json, --no-store, --end-other-sessions, and that keys never show.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAssertion } from '../../src/saml/sign-assertion.js';
import { type CliResult, runCli, tempDir } from '../helpers/cli.js';
import { clientEnv } from '../helpers/client-env.js';
import {
  assertionXml,
  b64,
  type CertifiedKey,
  fromB64,
  ISSUER,
  opensslCertificate,
  opensslMissing,
  responseXml,
  rsaKeyPair,
  USER,
} from '../helpers/saml.js';
import { type SamlTokenEndpoint, startSamlTokenEndpoint } from '../saml/saml-token-endpoint.js';

const CLIENT = { id: 'sso-client', secret: 'sso-secret' };
const GRANT = 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer';

let idp: { privateKeyPem: string; publicKeyPem: string; certificatePem?: string };
let endpoint: SamlTokenEndpoint;
let dir: string;
let keyFile: string;

beforeAll(async () => {
  // A certificate where openssl exists (so --sign-cert is exercised), else a bare key pair.
  const certified: CertifiedKey | undefined = opensslMissing ? undefined : opensslCertificate();
  const pair = rsaKeyPair();
  idp = certified
    ? {
        privateKeyPem: certified.privateKeyPem,
        publicKeyPem: certified.certificatePem,
        certificatePem: certified.certificatePem,
      }
    : pair;
  endpoint = await startSamlTokenEndpoint({
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    issuer: ISSUER,
    publicKeyPem: idp.publicKeyPem,
    users: [USER],
  });
  dir = tempDir('tokencli-sso-');
  keyFile = join(dir, 'idp-key.pem');
  writeFileSync(keyFile, idp.privateKeyPem, { mode: 0o600 });
});

afterAll(async () => {
  await endpoint.close();
});

function env(configDir = tempDir()): Record<string, string> {
  return clientEnv(endpoint.baseUrl, CLIENT, configDir);
}

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function lastForm(): URLSearchParams {
  const last = endpoint.requests.at(-1);
  if (!last) throw new Error('no request reached the endpoint');
  return last.form;
}

function expectNoKeyMaterial(result: CliResult): void {
  const body = idp.privateKeyPem.split('\n').filter((l) => l.length > 20 && !l.startsWith('-----'));
  for (const line of body) {
    expect(result.stdout).not.toContain(line);
    expect(result.stderr).not.toContain(line);
  }
}

describe('tokencli sso', () => {
  it('builds and signs an assertion with --assertion-for, sends it as SAMLAssertion, stores the token', async () => {
    const configDir = tempDir();
    const before = endpoint.requests.length;
    const result = await runCli(['sso', '--assertion-for', USER, '--issuer', ISSUER, '--sign-key', keyFile], {
      env: env(configDir),
    });
    expect(result.stderr).toMatch(/Signed in as demo@example\.com with SSO \(stored in profile default\)/);
    expect(result.code).toBe(0);
    expect(endpoint.requests.length).toBe(before + 1);
    const request = endpoint.requests.at(-1);
    expect(request?.query).toBe('');
    const form = lastForm();
    expect(form.get('grant_type')).toBe(GRANT);
    expect(form.has('SAMLResponse')).toBe(false);
    const xml = fromB64(form.get('SAMLAssertion') ?? '');
    expect(xml).toContain(`<saml:Audience>${endpoint.baseUrl}</saml:Audience>`);
    expect(form.has('endOtherSessions')).toBe(false);
    const token = result.stdout.trim();
    expect(token).toMatch(/^[\w-]{20,}$/);
    expectNoKeyMaterial(result);

    // The stored token is what `tokencli token` now prints, without another request.
    const cached = await runCli(['token'], { env: env(configDir) });
    expect(cached.code).toBe(0);
    expect(cached.stdout.trim()).toBe(token);
    expect(endpoint.requests.length).toBe(before + 1);
  });

  it('prints the --json document with source saml2-bearer', async () => {
    const result = await runCli(
      ['sso', '--json', '--assertion-for', USER, '--issuer', ISSUER, '--sign-key', keyFile],
      { env: env() },
    );
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({
      token_type: 'BearerToken',
      email: USER,
      profile: 'default',
      source: 'saml2-bearer',
    });
    expect(doc.expires_in).toBeGreaterThan(3500);
    expect(Date.parse(String(doc.expires_at))).toBeGreaterThan(Date.now());
  });

  it('signs an unsigned assertion file with --sign-key (and --sign-cert where openssl exists)', async () => {
    const path = file('unsigned.xml', assertionXml({ now: new Date(), audience: endpoint.baseUrl }));
    const args = ['sso', '--saml-assertion', path, '--sign-key', keyFile];
    if (idp.certificatePem) args.push('--sign-cert', file('idp-cert.pem', idp.certificatePem));
    const result = await runCli(args, { env: env() });
    expect(result.stderr).not.toContain('error');
    expect(result.code).toBe(0);
    const xml = fromB64(lastForm().get('SAMLAssertion') ?? '');
    expect(xml).toContain('<ds:SignatureValue>');
    if (idp.certificatePem) expect(xml).toContain('<ds:X509Certificate>');
    expectNoKeyMaterial(result);
  });

  it('sends a signed response given as base64 with line breaks, unchanged, as SAMLResponse', async () => {
    const signed = signAssertion(
      responseXml(assertionXml({ now: new Date(), audience: endpoint.baseUrl })),
      idp,
    );
    const wrapped = `${(b64(signed).match(/.{1,64}/g) ?? []).join('\n')}\n`;
    const result = await runCli(['sso', '--saml-response', file('response.b64', wrapped)], { env: env() });
    expect(result.code).toBe(0);
    expect(lastForm().get('SAMLResponse')).toBe(b64(signed));
    expect(lastForm().has('SAMLAssertion')).toBe(false);
  });

  it('reads a signed assertion from stdin with -', async () => {
    const signed = signAssertion(assertionXml({ now: new Date(), audience: endpoint.baseUrl }), idp);
    const result = await runCli(['sso', '--saml-assertion', '-'], { env: env(), input: signed });
    expect(result.code).toBe(0);
    expect(fromB64(lastForm().get('SAMLAssertion') ?? '')).toBe(signed);
  });

  it('sends endOtherSessions=True with --end-other-sessions', async () => {
    const result = await runCli(
      ['sso', '--end-other-sessions', '--assertion-for', USER, '--issuer', ISSUER, '--sign-key', keyFile],
      { env: env() },
    );
    expect(result.code).toBe(0);
    expect(lastForm().get('endOtherSessions')).toBe('True');
  });

  it('stores nothing with --no-store, and still prints the token', async () => {
    const configDir = tempDir();
    const result = await runCli(
      ['sso', '--no-store', '--assertion-for', USER, '--issuer', ISSUER, '--sign-key', keyFile],
      { env: env(configDir) },
    );
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^[\w-]{20,}$/);
    expect(result.stderr).toContain('(not stored: --no-store)');
    let stored = '';
    try {
      stored = readFileSync(join(configDir, 'credentials.json'), 'utf8');
    } catch {
      // no file at all: nothing stored
    }
    expect(stored).not.toContain(result.stdout.trim());
  });

  it('says why nothing was stored when the run names another service than the profile', async () => {
    const configDir = tempDir();
    const recorded = 'http://127.0.0.1:9';
    const configure = await runCli(
      ['configure', '--base-url', recorded, '--client-id', CLIENT.id, '--no-secret'],
      { env: { TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_STORE: 'file' } },
    );
    expect(configure.code, configure.stderr).toBe(0);
    const result = await runCli(['sso', '--assertion-for', USER, '--issuer', ISSUER, '--sign-key', keyFile], {
      env: env(configDir),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `(not stored: this run uses base URL ${endpoint.baseUrl} where profile "default" records ${recorded}, and a profile keeps only tokens of the service it records)`,
    );
    expect(result.stderr).toContain(
      'hint: to keep a login for this service, log in under a profile of its own',
    );
  });

  it("reports the service's refusal with exit 3 (an assertion for another audience)", async () => {
    const result = await runCli(
      [
        'sso',
        '--assertion-for',
        USER,
        '--issuer',
        ISSUER,
        '--audience',
        'https://elsewhere.example',
        '--sign-key',
        keyFile,
      ],
      { env: env() },
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("the assertion's Audience does not name this service");
    expect(result.stdout).toBe('');
  });

  it('keeps the SAML value and the key out of the --verbose trace', async () => {
    const result = await runCli(
      ['--verbose', 'sso', '--assertion-for', USER, '--issuer', ISSUER, '--sign-key', keyFile],
      { env: env() },
    );
    expect(result.code).toBe(0);
    const sent = lastForm().get('SAMLAssertion') ?? '';
    expect(sent.length).toBeGreaterThan(100);
    expect(result.stderr).not.toContain(sent.slice(0, 40));
    expect(result.stderr).not.toContain(CLIENT.secret);
    expectNoKeyMaterial(result);
  });
});
