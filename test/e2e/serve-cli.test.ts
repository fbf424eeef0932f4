/**
 * `tokencli serve` through the built CLI (`npm run build` first): the base_url line, the demo
 * credentials, the request log, configuration errors, and shutdown.
 */

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { isAbsolute, join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { VERSION } from '../../src/version.js';
import {
  BIN,
  BINARY,
  CLI,
  cleanEnv,
  runCli,
  serviceConfigFile,
  startServe,
  tempDir,
  tryItLines,
} from '../helpers/cli.js';
import { clientCredentials, DEMO, rawRequest, tokenInfo } from '../server/helpers.js';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Where the configuration's format is documented, as the CLI under test names it: the checkout's
 * docs/serve.md run from it, this version's on GitHub from the single executable (no docs/ inside).
 */
const CONFIG_FORMAT = BINARY
  ? `https://github.com/tokencli/tokencli/blob/v${VERSION}/docs/serve.md#configuration`
  : `${join(ROOT, 'docs', 'serve.md')} (Configuration)`;

// Windows has no signals to deliver: a kill there ends the service at once, with no exit of its own.
const windows = process.platform === 'win32';

describe('tokencli serve', () => {
  test.skipIf(windows)(
    'prints one base_url line, the demo credentials, and one log line per request; SIGTERM exits 0 (skipped on Windows: no SIGTERM to send)',
    async () => {
      const serve = await startServe();
      try {
        expect(serve.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        // stderr and stdout are separate pipes: the credentials may arrive after the base_url line.
        await expect
          .poll(() => serve.logs(), { timeout: 10_000 })
          .toContain(
            `client_id=${DEMO.clientId} client_secret=${DEMO.clientSecret} redirect_uri=${DEMO.redirectUri}`,
          );
        expect(serve.logs()).toContain(`email=${DEMO.email} password=${DEMO.password}`);
        const token = (await clientCredentials(serve.baseUrl)).body.access_token as string;
        expect((await tokenInfo(serve.baseUrl, token)).status).toBe(200);
        await expect
          .poll(() => serve.logs(), { timeout: 10_000 })
          .toMatch(/GET \/v2\/oauth\/tokeninfo 200 [\d.]+ms\n/);
        expect(serve.logs()).toMatch(/POST \/v2\/oauth\/token 200 [\d.]+ms\n/);
        expect(serve.logs()).not.toContain(token);
        expect(serve.logs()).not.toContain('client_id=demo-client\n'); // no query strings
      } finally {
        serve.process.removeAllListeners('exit');
        const exited = once(serve.process, 'exit');
        serve.process.kill('SIGTERM');
        const [code] = await exited;
        expect(code).toBe(0);
      }
    },
  );

  test.skipIf(windows)(
    'the request log is written in batches yet complete and in order, up to the last request at SIGTERM (skipped on Windows: no SIGTERM to send)',
    async () => {
      const serve = await startServe();
      const closed = once(serve.process, 'close'); // after the last of stderr is read
      let stopped = false;
      try {
        const paths = Array.from({ length: 30 }, (_, i) => `/probe-${i}`);
        for (const path of paths) expect((await rawRequest(serve.baseUrl, path)).status).toBe(404);
        const together = Array.from({ length: 30 }, (_, i) => `/together-${i}`);
        await Promise.all(together.map((path) => rawRequest(serve.baseUrl, path)));
        expect((await rawRequest(serve.baseUrl, '/last')).status).toBe(404);
        // At once: the last line may still be queued, and must not be lost.
        serve.process.removeAllListeners('exit');
        serve.process.kill('SIGTERM');
        stopped = true;
        const [code] = await closed;
        expect(code).toBe(0);
        const logged = serve
          .logs()
          .split('\n')
          .filter((line) => / 404 [\d.]+ms$/.test(line))
          .map((line) => line.split(' ')[1]);
        expect(logged.filter((path) => path?.startsWith('/probe-'))).toEqual(paths);
        expect(logged.filter((path) => path?.startsWith('/together-')).sort()).toEqual([...together].sort());
        expect(logged.at(-1)).toBe('/last');
        expect(logged).toHaveLength(61);
      } finally {
        if (!stopped) await serve.stop();
      }
    },
  );

  test('stdout carries only the base_url line', async () => {
    const serve = await startServe();
    let stdout = '';
    serve.process.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    await clientCredentials(serve.baseUrl);
    await serve.stop();
    expect(stdout).toBe('');
  });

  test('--config runs that configuration and prints no demo credentials', async () => {
    const config = serviceConfigFile({
      apps: [
        {
          client_id: 'mine',
          client_secret: 'my-secret',
          app_name: 'Mine',
          redirect_uris: ['http://127.0.0.1:9000/cb'],
          grants: ['client_credentials'],
        },
      ],
      users: [{ email: 'me@example.com', password: 'pw' }],
    });
    const serve = await startServe(['--config', config]);
    try {
      expect(serve.logs()).not.toContain('demo');
      const r = await clientCredentials(serve.baseUrl, {
        client_id: 'mine',
        client_secret: 'my-secret',
        email: 'me@example.com',
        password: 'pw',
      });
      expect(r.status).toBe(200);
      expect((await clientCredentials(serve.baseUrl)).status).toBe(400);
    } finally {
      await serve.stop();
    }
  });

  test('--allow-host admits a container name', async () => {
    const serve = await startServe(['--allow-host', 'tokens', 'svc']);
    try {
      expect((await rawRequest(serve.baseUrl, '/x', { headers: { host: 'tokens:8080' } })).status).toBe(404);
      expect((await rawRequest(serve.baseUrl, '/x', { headers: { host: 'svc' } })).status).toBe(404);
      expect((await rawRequest(serve.baseUrl, '/x', { headers: { host: 'evil' } })).status).toBe(403);
    } finally {
      await serve.stop();
    }
  });

  test('an invalid configuration is exit 2 naming the key', async () => {
    const config = serviceConfigFile(
      {
        apps: [{ client_id: 'a', client_secret: 'b', app_name: 'c', redirect_uris: ['x', 'relative/cb'] }],
        users: [{ email: 'a@b.c', password: 'p' }],
      },
      { name: 'bad.json' },
    );
    const r = await runCli(['serve', '--port', '0', '--config', config]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: ${config}: apps[0].redirect_uris[0]: must be an absolute URI\n` +
        `hint: fix the configuration file; its format is described in ${CONFIG_FORMAT}\n`,
    );
  });

  test('a token_type the service does not offer is exit 2 naming the key', async () => {
    const config = serviceConfigFile(
      {
        apps: [
          {
            client_id: 'a',
            client_secret: 'b',
            app_name: 'c',
            redirect_uris: ['http://127.0.0.1:9000/cb'],
            token_type: 'MAC',
          },
        ],
        users: [{ email: 'a@b.c', password: 'p' }],
      },
      { name: 'bad-token-type.json' },
    );
    const r = await runCli(['serve', '--port', '0', '--config', config]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: ${config}: apps[0].token_type: must be one of "BearerToken", "Bearer", "bearer" (the platform sends "BearerToken"; "Bearer" suits strict OAuth clients)\n` +
        `hint: fix the configuration file; its format is described in ${CONFIG_FORMAT}\n`,
    );
  });

  test('a configuration that is not JSON is exit 2 with the same hint', async () => {
    const config = join(tempDir(), 'not-json.json');
    writeFileSync(config, '{"apps": [');
    const r = await runCli(['serve', '--port', '0', '--config', config]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: config file ${config} is not valid JSON (at the end of the file)\n` +
        `hint: fix the configuration file; its format is described in ${CONFIG_FORMAT}\n`,
    );
  });

  test('the hint names where this installation has docs/serve.md: its file, or from the executable GitHub', async () => {
    const config = serviceConfigFile({ apps: 7 }, { name: 'apps.json' });
    const r = await runCli(['serve', '--port', '0', '--config', config]);
    const where = /^hint: fix the configuration file; its format is described in (.+)\n$/m.exec(
      r.stderr,
    )?.[1];
    if (BINARY) {
      expect(where).toBe(`https://github.com/tokencli/tokencli/blob/v${VERSION}/docs/serve.md#configuration`);
    } else {
      const file = /^(.+) \(Configuration\)$/.exec(where ?? '')?.[1] ?? '';
      expect(isAbsolute(file)).toBe(true);
      expect(file).toBe(join(ROOT, 'docs', 'serve.md'));
      expect(readFileSync(file, 'utf8')).toMatch(/^## Configuration$/m);
    }
  });

  test.skipIf(windows)(
    'started in a directory removed under the shell, it runs and names tokencli by its full path (skipped on Windows: it needs /bin/sh, and Windows removes no directory a process is in)',
    async () => {
      const gone = join(tempDir(), 'gone');
      mkdirSync(gone);
      const child = spawn(
        '/bin/sh',
        ['-c', 'cd "$1" && rmdir "$1" && shift && exec "$@" serve --port 0', 'sh', gone, ...CLI],
        {
          env: cleanEnv(),
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const exited = once(child, 'exit');
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
      });
      try {
        await expect
          .poll(() => tryItLines(stderr).length === 3 && tryItLines(stderr)[2] !== '', { timeout: 10_000 })
          .toBe(true);
        expect(stderr).not.toContain('internal error');
        for (const line of tryItLines(stderr)) expect(line).toContain(BINARY ?? `node ${BIN}`);
      } finally {
        if (child.exitCode === null) child.kill('SIGTERM');
        await exited;
      }
    },
  );

  test('a missing configuration file is exit 2', async () => {
    const r = await runCli(['serve', '--port', '0', '--config', '/nonexistent/service.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: cannot read config file /nonexistent/service.json: no such file\n');
  });

  test('a port in use is exit 2 with a hint', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await runCli(['serve', '--port', String(port)]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        `error: port ${port} on 127.0.0.1 is already in use\nhint: choose another port with --port, or --port 0 for any free port\n`,
      );
    } finally {
      blocker.close();
    }
  });

  test.each(['abc', '65536', '-1', '1.5'])('--port %s is exit 2', async (port) => {
    const r = await runCli(['serve', '--port', port]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: invalid --port ${JSON.stringify(port)}\nhint: pass a port from 0 to 65535 (0 = any free port)\n`,
    );
  });
});
