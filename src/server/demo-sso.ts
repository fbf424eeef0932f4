/**
 * The demo configuration's SSO connection: an identity-provider key pair generated at
 * start-up, its public half registered as the demo application's `saml` key, its private half
 * handed to whoever runs the demo so they can sign assertions (`tokencli sso --sign-key`).
 *
 * The pair is made by `crypto.generateKeyPair` on libuv's thread pool while the service already
 * listens: RSA-2048 generation takes 50–350 ms here, more than the whole rest of start-up, and
 * would otherwise delay the `base_url` line (and block the event loop, if done synchronously).
 */
import { generateKeyPair } from 'node:crypto';
import { chmod, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SamlConfig, ServiceConfig } from './config.js';
import { DEMO_SAML_ISSUER } from './demo-config.js';
import type { Registry } from './registry.js';

/** What a demo user needs to sign in with SSO against the demo configuration. */
export interface DemoSso {
  /** The `Issuer` the assertions must carry. */
  issuer: string;
  /** The demo application, whose SSO connection this is. */
  clientId: string;
  /** The demo user, a NameID the service knows. */
  email: string;
  /** PKCS#8 PEM of the demo identity provider's private key: sign assertions with it. */
  samlPrivateKeyPem: string;
}

/** Generates the demo identity provider's RSA-2048 key pair without blocking the event loop. */
export function generateDemoIdpKeyPair(): Promise<{ privateKeyPem: string; publicKeyPem: string }> {
  return new Promise((resolve, reject) => {
    generateKeyPair(
      'rsa',
      {
        modulusLength: 2048,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      },
      (error, publicKeyPem, privateKeyPem) => {
        if (error) reject(error);
        else resolve({ privateKeyPem, publicKeyPem });
      },
    );
  });
}

/** The demo application's `saml` entry for a generated public key. */
export function demoSamlConfig(publicKeyPem: string): SamlConfig {
  return { issuer: DEMO_SAML_ISSUER, certificate: publicKeyPem };
}

/** A private key written for the demo, and how to take it away again. */
export interface DemoKeyFile {
  /** `<fresh 0700 directory>/demo-idp-key.pem`, mode 0600. */
  path: string;
  /** Removes the file and its directory; safe to call more than once. */
  remove(): Promise<void>;
}

/**
 * Writes the demo identity provider's private key to a 0600 file in a fresh 0700 directory under
 * `parent` (default the system's temporary directory), for `tokencli sso --sign-key`.
 */
export async function writeDemoSigningKey(privateKeyPem: string, parent = tmpdir()): Promise<DemoKeyFile> {
  const dir = await mkdtemp(join(parent, 'tokencli-demo-idp-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    // mkdtemp creates 0700 less the umask; a umask can only take bits away, but say it anyway.
    await chmod(dir, 0o700);
    const path = join(dir, 'demo-idp-key.pem');
    // O_EXCL in a directory only we can write: nothing planted can be followed or reused.
    const handle = await open(path, 'wx', 0o600);
    try {
      await handle.writeFile(privateKeyPem, 'utf8');
      await handle.chmod(0o600);
    } finally {
      await handle.close();
    }
    return { path, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/**
 * Registers the generated public key as the demo application's SSO connection and returns what a
 * demo user needs to sign in with it.
 */
export function connectDemoSso(
  registry: Registry,
  config: ServiceConfig,
  pair: { privateKeyPem: string; publicKeyPem: string },
): DemoSso {
  const app = config.apps[0];
  const user = config.users[0];
  if (!app || !user) throw new TypeError('connectDemoSso: the demo configuration has no app or user');
  registry.connectSaml(app.client_id, demoSamlConfig(pair.publicKeyPem));
  return {
    issuer: DEMO_SAML_ISSUER,
    clientId: app.client_id,
    email: user.email,
    samlPrivateKeyPem: pair.privateKeyPem,
  };
}
