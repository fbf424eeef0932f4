/**
 * The CLI over https and through a proxy, as users reach the real platform (docs/contract.md §2.4):
 * a TLS front with a certificate of the test's own before `tokencli serve`, trusted through
 * `--ca-file` or NODE_EXTRA_CA_CERTS, and a CONNECT proxy named by HTTPS_PROXY or https_proxy, the
 * only way to the name the base URL gives. The rest of the suite speaks plain http to loopback; the
 * executable (scripts/ci/test-binary.sh runs this file against it) takes its TLS and proxy code
 * only here.
 */

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { opensslMissing, selfSignedCertificate } from '../helpers/openssl.js';
import { type ReleaseServer, serveConnectProxy, serveTlsFront } from '../helpers/release-server.js';
import { serveForFile } from '../helpers/serve.js';
import { closedPort } from '../http/loopback-server.js';
import { DEMO, demoEnv } from './env.js';

/** The name in the base URL: no resolver answers for .invalid, only the proxy reaches it. */
const NAME = 'tokens.invalid';

const serve = serveForFile({ args: ['--allow-host', NAME], skip: opensslMissing !== undefined });

describe.skipIf(opensslMissing !== undefined)(
  `over https, and through a proxy (${opensslMissing ?? 'openssl'})`,
  () => {
    let front: ReleaseServer;
    let port: number;
    let certFile: string;
    let proxy: ReleaseServer;
    let deadProxy: string;

    beforeAll(async () => {
      const tls = selfSignedCertificate(`/CN=${NAME}`, [
        '-addext',
        `subjectAltName=DNS:${NAME},IP:127.0.0.1`,
      ]);
      certFile = tls.certFile;
      front = await serveTlsFront(serve.baseUrl, tls);
      port = Number(new URL(front.url).port);
      proxy = await serveConnectProxy();
      // A port nothing listens on: a proxy that is down.
      deadProxy = `http://127.0.0.1:${await closedPort()}`;
    });
    afterAll(async () => {
      await front?.close();
      await proxy?.close();
    });

    /** The demo client's environment against `baseUrl`, with no CA but the ones a test gives. */
    const env = (baseUrl: string, configDir = tempDir(), more: Record<string, string> = {}) => ({
      ...demoEnv(baseUrl, configDir),
      NODE_EXTRA_CA_CERTS: undefined,
      ...more,
    });

    test('a certificate of a CA given by --ca-file or NODE_EXTRA_CA_CERTS is trusted; with neither, refused (exit 5)', async () => {
      const direct = `https://127.0.0.1:${port}`;
      const configDir = tempDir();
      const byFlag = await runCli(['token', '--ca-file', certFile], { env: env(direct, configDir) });
      expect(byFlag.stderr).toBe('');
      expect(byFlag.code).toBe(0);
      expect(byFlag.stdout).toMatch(/^\S{20,}\n$/);
      const info = await runCli(['info', '--json', '--ca-file', certFile], { env: env(direct, configDir) });
      expect(info.code, info.stderr).toBe(0);
      expect(JSON.parse(info.stdout)).toMatchObject({ email: DEMO.email });
      const byVariable = await runCli(['token', '--force'], {
        env: env(direct, configDir, { NODE_EXTRA_CA_CERTS: certFile }),
      });
      expect(byVariable.code, byVariable.stderr).toBe(0);
      const untrusted = await runCli(['token', '--force'], { env: env(direct, configDir) });
      expect(untrusted.code).toBe(5);
      expect(untrusted.stdout).toBe('');
      expect(untrusted.stderr).toMatch(
        /^error: the TLS certificate of https:\/\/127\.0\.0\.1:\d+ is not trusted/,
      );
      expect(untrusted.stderr).toMatch(/^hint: .*--ca-file FILE or NODE_EXTRA_CA_CERTS=FILE/m);
    });

    test.each(['HTTPS_PROXY', 'https_proxy'])(
      'through the proxy in %s, to a name only the proxy reaches',
      async (variable) => {
        const before = proxy.requests().length;
        const configDir = tempDir();
        const through = env(`https://${NAME}:${port}`, configDir, { [variable]: proxy.url });
        const token = await runCli(['token', '--ca-file', certFile], { env: through });
        expect(token.stderr).toBe('');
        expect(token.code).toBe(0);
        const info = await runCli(['info', '--json', '--ca-file', certFile], { env: through });
        expect(info.code, info.stderr).toBe(0);
        expect(JSON.parse(info.stdout)).toMatchObject({ email: DEMO.email });
        const tunnels = proxy.requests().slice(before);
        expect(tunnels.length).toBeGreaterThanOrEqual(2);
        for (const tunnel of tunnels) expect(tunnel.path).toBe(`CONNECT ${NAME}:${port}`);
      },
    );

    test.each(['NO_PROXY', 'no_proxy'])(
      'a host in %s is reached directly, past a proxy that is down, which is used without it',
      async (variable) => {
        const direct = `https://127.0.0.1:${port}`;
        const past = await runCli(['token', '--ca-file', certFile], {
          env: env(direct, tempDir(), { HTTPS_PROXY: deadProxy, [variable]: '127.0.0.1' }),
        });
        expect(past.stderr).toBe('');
        expect(past.code).toBe(0);
        const stopped = await runCli(['token', '--ca-file', certFile], {
          env: env(direct, tempDir(), { HTTPS_PROXY: deadProxy }),
        });
        expect(stopped.code).toBe(5);
        expect(stopped.stdout).toBe('');
      },
    );
  },
);
