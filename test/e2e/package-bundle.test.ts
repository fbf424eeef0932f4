/**
 * A consumer that bundles its Node code with the library inside (a CLI, a Lambda, a test helper)
 * gets a bundle that runs with no node_modules, by the README's recipe ("Use from code"):
 * `@napi-rs/keyring` external (its native addon, loaded only for the keychain on macOS and Windows),
 * and, for esbuild's ES module output, a `require` for the CommonJS dependencies it loads lazily
 * (undici behind a proxy, xml-crypto in the service's SSO grant). esbuild stands for the bundlers
 * here; it is this project's own. The bundle starts the service, gets a token through the proxy
 * code path and its tokeninfo, and serves an SSO exchange that the CLI (runCli: the executable
 * under TOKENCLI_BINARY) signs with the demo key.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { afterEach, expect, test } from 'vitest';
import { cleanEnv, runCli, tempDir } from '../helpers/cli.js';
import { closedPort } from '../http/loopback-server.js';
import { DEMO } from './env.js';

const root = resolve(import.meta.dirname, '../..');

// No top-level await: esbuild's CommonJS output cannot hold one.
const consumer = `
import { TokenClient } from 'tokencli';
import { startTokenService, writeDemoSigningKey } from 'tokencli/server';

async function main() {
  const service = await startTokenService();
  const client = new TokenClient({
    baseUrl: service.baseUrl,
    clientId: ${JSON.stringify(DEMO.clientId)},
    clientSecret: ${JSON.stringify(DEMO.clientSecret)},
    email: ${JSON.stringify(DEMO.email)},
    password: ${JSON.stringify(DEMO.password)},
    store: 'none',
  });
  const token = await client.getToken();
  const info = await client.getTokenInfo({ accessToken: token.accessToken });
  const sso = await service.demoSso;
  const key = await writeDemoSigningKey(sso.samlPrivateKeyPem, process.env.KEY_DIR);
  console.log(JSON.stringify({ baseUrl: service.baseUrl, source: token.source, email: info.email, keyFile: key.path }));
  // Until the test closes stdin: then the service stops and the key goes.
  process.stdin.resume();
  process.stdin.on('end', async () => {
    await service.close();
    await key.remove();
  });
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

const running: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(
    running.splice(0).map(
      (child) =>
        new Promise((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done(undefined);
          child.once('close', done);
          child.kill('SIGTERM');
        }),
    ),
  );
});

/** Bundles the consumer in `format`, as the README says, into a directory of its own. */
async function bundle(format: 'esm' | 'cjs'): Promise<string> {
  const work = tempDir('tokencli-bundle-');
  // The package as a consumer's node_modules holds it (a link, as `npm link` makes).
  mkdirSync(join(work, 'node_modules'));
  symlinkSync(root, join(work, 'node_modules', 'tokencli'));
  writeFileSync(join(work, 'consumer.mjs'), consumer);
  const out = tempDir('tokencli-bundled-');
  const outfile = join(out, format === 'esm' ? 'app.mjs' : 'app.cjs');
  const result = await build({
    entryPoints: [join(work, 'consumer.mjs')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format,
    outfile,
    external: ['@napi-rs/keyring'],
    ...(format === 'esm'
      ? {
          banner: {
            js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
          },
        }
      : {}),
    logLevel: 'silent',
  });
  expect(result.errors).toEqual([]);
  expect(result.warnings).toEqual([]);
  return outfile;
}

for (const format of ['esm', 'cjs'] as const)
  test.skipIf(process.platform === 'win32')(
    `bundled by esbuild as ${format === 'esm' ? 'an ES module' : 'CommonJS'} by the README's recipe, the library runs with no node_modules: a token through the proxy path, tokeninfo, an SSO exchange (skipped on Windows: the package is linked into node_modules, which needs a privilege there)`,
    { timeout: 60_000 },
    async () => {
      const app = await bundle(format);
      const keyDir = tempDir('tokencli-bundle-key-');
      // A proxy set, which loads undici; NO_PROXY keeps loopback off the (closed) proxy.
      const child = spawn(process.execPath, [app], {
        cwd: resolve(app, '..'),
        env: cleanEnv({
          HTTPS_PROXY: `http://127.0.0.1:${await closedPort()}`,
          NO_PROXY: '127.0.0.1',
          KEY_DIR: keyDir,
          NODE_PATH: undefined,
        }),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      running.push(child);
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const lines = createInterface({ input: child.stdout ?? process.stdin });
      const first = await new Promise<string>((done, fail) => {
        lines.once('line', done);
        child.once('close', (code) => fail(new Error(`the bundle exited ${code}: ${stderr}`)));
      });
      const started = JSON.parse(first) as {
        baseUrl: string;
        source: string;
        email: string;
        keyFile: string;
      };
      expect(started).toMatchObject({ source: 'client_credentials', email: DEMO.email });

      // The service's SAML grant, which loads xml-crypto, given an assertion the CLI signs.
      const sso = await runCli(
        [
          'sso',
          '--base-url',
          started.baseUrl,
          '--client-id',
          DEMO.clientId,
          '--assertion-for',
          DEMO.email,
          '--issuer',
          'https://idp.demo.tokencli.invalid',
          '--sign-key',
          started.keyFile,
          '--store',
          'none',
        ],
        { env: { TOKENCLI_CLIENT_SECRET: DEMO.clientSecret, TOKENCLI_CONFIG_DIR: tempDir() } },
      );
      expect(sso.code, sso.stderr).toBe(0);
      expect(sso.stdout.trim()).toMatch(/^\S{20,}$/);

      child.stdin?.end();
      const code = await new Promise((done) => child.once('close', done));
      expect(code, stderr).toBe(0);
    },
  );
