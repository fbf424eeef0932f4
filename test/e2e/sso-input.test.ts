/**
 * `tokencli sso` input handling as a process: every bad flag combination or bad input exits 2
 * with its own message and sends nothing (the loopback endpoint counts requests).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAssertion } from '../../src/saml/sign-assertion.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { assertionXml, b64, ISSUER, responseXml, rsaKeyPair, USER } from '../helpers/saml.js';
import { type SamlTokenEndpoint, startSamlTokenEndpoint } from '../saml/saml-token-endpoint.js';

let endpoint: SamlTokenEndpoint;
let dir: string;
let keyFile: string;
let publicKeyFile: string;
let signedXml: string;

beforeAll(async () => {
  const idp = rsaKeyPair();
  endpoint = await startSamlTokenEndpoint({
    clientId: 'c',
    clientSecret: 's',
    issuer: ISSUER,
    publicKeyPem: idp.publicKeyPem,
    users: [USER],
  });
  dir = tempDir('tokencli-sso-input-');
  keyFile = join(dir, 'key.pem');
  writeFileSync(keyFile, idp.privateKeyPem, { mode: 0o600 });
  publicKeyFile = join(dir, 'public.pem');
  writeFileSync(publicKeyFile, idp.publicKeyPem);
  signedXml = signAssertion(assertionXml(), idp);
});

afterAll(async () => {
  await endpoint.close();
  // Every case here is refused before the network: the endpoint never saw a request.
  expect(endpoint.requests).toEqual([]);
});

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

async function refused(args: string[], input?: string) {
  const result = await runCli(['sso', ...args], {
    env: {
      TOKENCLI_BASE_URL: endpoint.baseUrl,
      TOKENCLI_CLIENT_ID: 'c',
      TOKENCLI_CLIENT_SECRET: 's',
      TOKENCLI_STORE: 'none',
      TOKENCLI_CONFIG_DIR: tempDir(),
    },
    ...(input === undefined ? {} : { input }),
  });
  expect(result.stdout).toBe('');
  expect(result.code).toBe(2);
  return result.stderr;
}

describe('tokencli sso refuses, exit 2, nothing sent:', () => {
  it('both --saml-response and --saml-assertion', async () => {
    const xml = file('a.xml', signedXml);
    expect(await refused(['--saml-response', xml, '--saml-assertion', xml])).toBe(
      'error: --saml-response and --saml-assertion cannot be used together\n' +
        'hint: send either the whole Response or the bare Assertion\n',
    );
  });

  it('neither', async () => {
    expect(await refused([])).toBe(
      'error: nothing to send: give --saml-response FILE or --saml-assertion FILE\n' +
        'hint: or build one: --assertion-for EMAIL --issuer URI --sign-key KEY.pem\n',
    );
  });

  it('--assertion-for together with a file', async () => {
    expect(
      await refused([
        '--assertion-for',
        USER,
        '--saml-assertion',
        'x.xml',
        '--issuer',
        ISSUER,
        '--sign-key',
        keyFile,
      ]),
    ).toContain(
      'error: --assertion-for builds its own assertion; it cannot be combined with --saml-response',
    );
  });

  it('--assertion-for without --sign-key', async () => {
    expect(await refused(['--assertion-for', USER, '--issuer', ISSUER])).toBe(
      'error: --assertion-for needs --sign-key KEY.pem to sign the assertion it builds\n',
    );
  });

  it('--assertion-for without --issuer', async () => {
    expect(await refused(['--assertion-for', USER, '--sign-key', keyFile])).toBe(
      'error: --assertion-for needs --issuer URI\n' +
        'hint: the issuer registered for the application, e.g. --issuer https://idp.example\n',
    );
  });

  it('--issuer without --assertion-for', async () => {
    expect(await refused(['--saml-assertion', file('b.xml', signedXml), '--issuer', ISSUER])).toBe(
      'error: --issuer and --audience only apply with --assertion-for\n',
    );
  });

  it('--sign-cert without --sign-key', async () => {
    expect(
      await refused(['--saml-assertion', file('c.xml', assertionXml()), '--sign-cert', 'cert.pem']),
    ).toBe('error: --sign-cert needs --sign-key\n');
  });

  it('SAML on stdin together with --client-secret-stdin', async () => {
    expect(await refused(['--saml-assertion', '-', '--client-secret-stdin'], signedXml)).toBe(
      'error: --saml-assertion - and --client-secret-stdin both want stdin\n' +
        'hint: give one secret on stdin and the other in its environment variable\n',
    );
  });

  it('a file that is neither XML nor base64 of XML', async () => {
    const path = file('notes.txt', 'these are not the droids\n');
    expect(await refused(['--saml-response', path])).toBe(
      `error: ${path} is neither XML nor base64 of XML\n` +
        'hint: pass the SAML XML as it is, or its standard base64 encoding\n',
    );
  });

  it('base64 of something that is not XML', async () => {
    const path = file('json.b64', Buffer.from('{"a":1}').toString('base64'));
    expect(await refused(['--saml-assertion', path])).toContain(
      `error: ${path} is neither XML nor base64 of XML`,
    );
  });

  it('an empty stdin', async () => {
    expect(await refused(['--saml-assertion', '-'], '')).toBe(
      'error: stdin is empty\nhint: pass a file holding the SAML XML or its base64 encoding\n',
    );
  });

  it('XML over 256 KiB', async () => {
    const path = file('big.xml', `<a>${'x'.repeat(300 * 1024)}</a>`);
    expect(await refused(['--saml-assertion', path])).toBe(
      `error: ${path} is too large (301 KiB; the limit is 256 KiB)\n` +
        'hint: pass a single SAML response or assertion, not a log or an archive\n',
    );
  });

  it('a file far too large to be SAML, before reading it all', async () => {
    const path = file('huge.bin', Buffer.alloc(3 * 1024 * 1024, 'A'));
    expect(await refused(['--saml-assertion', path])).toBe(
      `error: --saml-assertion: ${path} is too large (over 1024 KiB for a SAML input)\n` +
        'hint: pass a single SAML response or assertion, or a single PEM file\n',
    );
  });

  it('a SAML file that does not exist', async () => {
    const path = join(dir, 'missing.xml');
    expect(await refused(['--saml-response', path])).toBe(
      `error: --saml-response: cannot read ${path}: no such file\nhint: check the path and its permissions\n`,
    );
  });

  it('a key file that does not exist', async () => {
    const path = join(dir, 'missing-key.pem');
    expect(await refused(['--assertion-for', USER, '--issuer', ISSUER, '--sign-key', path])).toBe(
      `error: --sign-key: cannot read ${path}: no such file\nhint: check the path and its permissions\n`,
    );
  });

  it('a key read from stdin', async () => {
    expect(await refused(['--assertion-for', USER, '--issuer', ISSUER, '--sign-key', '-'], 'x')).toBe(
      'error: --sign-key must name a file; it is not read from stdin\n',
    );
  });

  it('a "key" file that holds a public key', async () => {
    expect(await refused(['--assertion-for', USER, '--issuer', ISSUER, '--sign-key', publicKeyFile])).toBe(
      'error: the signing key is not a PEM private key\n' +
        'hint: pass a file that starts with -----BEGIN PRIVATE KEY----- (or RSA PRIVATE KEY)\n',
    );
  });

  it('a Response passed as --saml-assertion', async () => {
    const path = file('response.xml', responseXml(signedXml));
    expect(await refused(['--saml-assertion', path])).toBe(
      `error: ${path} holds a samlp:Response\nhint: pass it with --saml-response\n`,
    );
  });

  it('a bare Assertion passed as --saml-response', async () => {
    const path = file('assertion.b64', b64(signedXml));
    expect(await refused(['--saml-response', path])).toBe(
      `error: ${path} holds a bare Assertion\nhint: pass it with --saml-assertion\n`,
    );
  });

  it('XML that is not SAML', async () => {
    const path = file('other.xml', '<html><body/></html>');
    expect(await refused(['--saml-assertion', path])).toBe(
      `error: ${path} is not a SAML 2.0 Response or Assertion (its root element is html)\n` +
        'hint: a SAML 2.0 Assertion is in the namespace urn:oasis:names:tc:SAML:2.0:assertion\n',
    );
  });

  it('XML with a DOCTYPE', async () => {
    const path = file('doctype.xml', `<!DOCTYPE x>${signedXml}`);
    expect(await refused(['--saml-assertion', path])).toBe(
      `error: ${path}: XML with a DOCTYPE or ENTITY declaration is not accepted\n` +
        'hint: pass the SAML XML your identity provider issued\n',
    );
  });

  it('an already signed assertion with --sign-key', async () => {
    expect(await refused(['--saml-assertion', file('signed.xml', signedXml), '--sign-key', keyFile])).toBe(
      'error: the SAML assertion is already signed\nhint: send it as it is, without --sign-key\n',
    );
  });
});
