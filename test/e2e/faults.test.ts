/**
 * The CLI against services that misbehave (docs/contract.md §2.4, §2.6): each fault is a real HTTP server
 * on loopback doing the wrong thing, and the built CLI must answer with the documented exit code,
 * a one-line error, and nothing stored.
 */

import { readdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { demoEnv } from './env.js';

let server: Server | undefined;
afterEach(async () => {
  const current = server;
  server = undefined;
  if (!current) return;
  current.closeAllConnections();
  await new Promise((resolve) => current.close(resolve));
});

async function serveWith(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const created = createServer(handler);
  server = created;
  await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(created.address() as AddressInfo).port}`;
}

function storedNothing(configDir: string): void {
  expect(readdirSync(configDir).filter((f) => f.startsWith('credentials'))).toEqual([]);
}

test('a hung service: exit 5 close to --timeout, with a hint naming --timeout', async () => {
  const baseUrl = await serveWith(() => {
    /* never answers */
  });
  const configDir = tempDir();
  const started = Date.now();
  const r = await runCli(['--timeout', '1', 'token'], { env: demoEnv(baseUrl, configDir) });
  const elapsed = Date.now() - started;
  expect(r.code).toBe(5);
  expect(r.stderr).toMatch(/^error: .*timed out/m);
  expect(r.stderr).toMatch(/--timeout/);
  expect(elapsed).toBeLessThan(8000);
  storedNothing(configDir);
});

test('HTML from a gateway with 502: exit 5 naming the status', async () => {
  const baseUrl = await serveWith((_req, res) => {
    res
      .writeHead(502, { 'content-type': 'text/html' })
      .end('<html><body><h1>502 Bad Gateway</h1></body></html>');
  });
  const r = await runCli(['token'], { env: demoEnv(baseUrl) });
  expect(r.code).toBe(5);
  expect(r.stderr).toMatch(/502/);
  expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toHaveLength(1);
});

test("nginx's 502 page, whose title repeats its heading: the message quotes the page once", async () => {
  const baseUrl = await serveWith((_req, res) => {
    res
      .writeHead(502, { 'content-type': 'text/html' })
      .end(
        '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.27.0</center>\r\n</body>\r\n</html>\r\n',
      );
  });
  const r = await runCli(['token'], { env: demoEnv(baseUrl) });
  expect(r.code).toBe(5);
  expect(r.stderr).toMatch(
    /^error: the token service failed \(HTTP 502\): 502 Bad Gateway\. nginx\/1\.27\.0$/m,
  );
});

test('200 with HTML instead of JSON: exit 5', async () => {
  const baseUrl = await serveWith((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login portal</html>');
  });
  const configDir = tempDir();
  const r = await runCli(['token'], { env: demoEnv(baseUrl, configDir) });
  expect(r.code).toBe(5);
  expect(r.stdout).toBe('');
  storedNothing(configDir);
});

test('429 with Retry-After: 1 is retried and then succeeds', async () => {
  let calls = 0;
  const baseUrl = await serveWith((_req, res) => {
    calls += 1;
    if (calls === 1) {
      res
        .writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' })
        .end('{"error":"slow_down"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        access_token: 'tok-after-retry-000000000',
        token_type: 'BearerToken',
        expires_in: 3599,
      }),
    );
  });
  const r = await runCli(['token'], { env: demoEnv(baseUrl) });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe('tok-after-retry-000000000\n');
  expect(calls).toBe(2);
});

test('a refused connection: exit 5 saying the service could not be reached', async () => {
  const baseUrl = await serveWith(() => {});
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
  const r = await runCli(['token'], { env: demoEnv(baseUrl) });
  expect(r.code).toBe(5);
  expect(r.stderr).toMatch(/^error: .*(reach|refused|connect)/im);
});

test('service text is shown without escape sequences', async () => {
  const baseUrl = await serveWith((_req, res) => {
    res.writeHead(400, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        error: 'invalid_grant',
        error_description: 'bad \u001b[31mred\u001b[0m \u0007thing',
      }),
    );
  });
  const r = await runCli(['token'], { env: demoEnv(baseUrl) });
  expect(r.code).toBe(3);
  expect(r.stderr).toContain('invalid_grant');
  // No control character other than the line feeds between lines survives.
  expect(
    [...r.stderr].filter((c) => c !== '\n' && (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)),
  ).toEqual([]);
});

test('a token that is not a Bearer token (token_type mac): exit 5, not printed, nothing stored', async () => {
  const baseUrl = await serveWith((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end('{"access_token":"MAC-TOKEN-1234","token_type":"mac","expires_in":3600}');
  });
  const configDir = tempDir();
  const r = await runCli(['token'], { env: demoEnv(baseUrl, configDir) });
  expect(r.code).toBe(5);
  expect(r.stdout).toBe('');
  expect(r.stderr).toContain(
    'token_type is "mac", not Bearer: tokencli only uses Bearer tokens (RFC 6749 §7.1)',
  );
  expect(r.stderr).not.toContain('MAC-TOKEN-1234');
  expect(r.stderr).not.toContain('base URL');
  storedNothing(configDir);
});

test('a UTF-8 byte-order mark before the JSON and expires_in "3599.5" are accepted', async () => {
  const baseUrl = await serveWith((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end('\ufeff{"access_token":"bom-token-1234","token_type":"Bearer","expires_in":"3599.5"}');
  });
  const r = await runCli(['token', '--json'], { env: demoEnv(baseUrl, tempDir()) });
  expect(r.code).toBe(0);
  const json = JSON.parse(r.stdout) as { access_token: string; expires_in: number };
  expect(json.access_token).toBe('bom-token-1234');
  // Printed as what is left now, so a second may have gone by.
  expect(json.expires_in).toBeGreaterThanOrEqual(3590);
  expect(json.expires_in).toBeLessThanOrEqual(3599);
});

test('a server without tokeninfo (404): the hint names the URL requested and says the server may lack it', async () => {
  let asked = '';
  const baseUrl = await serveWith((req, res) => {
    asked = req.url ?? '';
    // oidc-provider's answer to a route it does not have; other servers send plain text.
    res.writeHead(404, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        error: 'invalid_request',
        error_description: `unrecognized route or not allowed method (GET on ${req.url?.split('?')[0]})`,
      }),
    );
  });
  const env = { ...demoEnv(`${baseUrl}/oidc`), TOKENCLI_STORE: 'none' };
  const r = await runCli(['info', '--token-stdin'], { env, input: 'an-access-token-0123456789' });
  expect(r.code).toBe(5);
  expect(asked).toMatch(/^\/oidc\/v2\/oauth\/tokeninfo\?/);
  expect(r.stderr).toMatch(/^error: .*HTTP 404.*unrecognized route/m);
  expect(r.stderr).toContain(
    `hint: check the base URL (--base-url, TOKENCLI_BASE_URL): the tokeninfo endpoint requested was ${baseUrl}/oidc/v2/oauth/tokeninfo; if the base URL is right, the server may not implement tokeninfo, which this command needs\n`,
  );
  expect(r.stderr).not.toContain('<base URL>');
});
