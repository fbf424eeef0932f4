/** `tokencli token --format token|header|json|env` through the built CLI against `tokencli serve`. */
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { serveForFile } from '../helpers/serve.js';
import { DEMO, demoEnv, tokenRequests } from './env.js';

const serve = serveForFile();
// Each test's own config directory (a tempDir(), removed after the file).
const freshEnv = () => demoEnv(serve.baseUrl);

describe('tokencli token --format', () => {
  test('every format prints the same cached token in its own shape', async () => {
    const env = freshEnv();
    const token = (await runCli(['token'], { env })).stdout.trim();
    const before = tokenRequests(serve.logs());

    const plain = await runCli(['token', '--format', 'token'], { env });
    expect(plain).toMatchObject({ code: 0, stdout: `${token}\n`, stderr: '' });

    const header = await runCli(['token', '--format', 'header'], { env });
    expect(header).toMatchObject({ code: 0, stdout: `Authorization: Bearer ${token}\n`, stderr: '' });

    const json = await runCli(['token', '--format', 'json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({
      access_token: token,
      source: 'cache',
      email: DEMO.email,
    });
    const alias = await runCli(['token', '--json', '--format', 'json'], { env });
    expect(JSON.parse(alias.stdout)).toMatchObject({ access_token: token });

    const envFormat = await runCli(['token', '--format', 'env'], { env });
    expect(envFormat.code).toBe(0);
    expect(envFormat.stdout).toMatch(
      /^TOKENCLI_ACCESS_TOKEN='[!-~]+'\nTOKENCLI_TOKEN_EXPIRES_AT='\d{4}-\d\d-\d\dT[\d:.]+Z'\n$/,
    );
    expect(envFormat.stdout).toContain(`'${token}'`);
    // None of these touched the network: the formats sit on the cached path.
    expect(tokenRequests(serve.logs())).toBe(before);
  });

  test.skipIf(process.platform === 'win32')(
    'the env format is what a POSIX shell reads back with eval (skipped on Windows: no POSIX sh)',
    async () => {
      const env = freshEnv();
      const out = (await runCli(['token', '--format', 'env'], { env })).stdout;
      const token = (await runCli(['token'], { env })).stdout.trim();
      const shell = spawnSync(
        'sh',
        [
          '-c',
          'eval "$1" && printf "%s\\n%s" "$TOKENCLI_ACCESS_TOKEN" "$TOKENCLI_TOKEN_EXPIRES_AT"',
          'sh',
          out,
        ],
        { encoding: 'utf8' },
      );
      const [accessToken, expiresAt] = shell.stdout.split('\n');
      expect(accessToken).toBe(token);
      expect(Date.parse(expiresAt ?? '')).toBeGreaterThan(Date.now());
    },
  );

  test('the header format is what curl -H @- reads: one header line', async () => {
    const env = freshEnv();
    const header = (await runCli(['token', '--format', 'header'], { env })).stdout;
    expect(header.split('\n')).toHaveLength(2);
    expect(header).toMatch(/^Authorization: Bearer [!-~]+\n$/);
  });

  test.each([
    [['token', '--format', 'yaml'], /yaml.*token, header, json, env/],
    [['token', '--json', '--format', 'header'], /--json and --format header/],
    [['token', '--format'], /--format/],
  ])('%j is a usage error, before any request', async (args, message) => {
    const env = freshEnv();
    const before = tokenRequests(serve.logs());
    const r = await runCli(args, { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(tokenRequests(serve.logs())).toBe(before);
  });
});
