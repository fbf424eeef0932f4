/**
 * What `tokencli login` says about what it kept: tokens obtained under a base URL the profile does
 * not record are not stored (docs/contract.md §2.1), and the success line and the hints after it
 * must say so rather than send the user round to another login that is not kept either; a client
 * secret given for the login only is not stored, and a later refresh needs it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { ANY_PORT, demoLoginEnv, loginWithoutBrowser, startLogin } from '../helpers/cli-login.js';
import { serveForFile } from '../helpers/serve.js';
import { credentialsPath, DEMO } from './env.js';

const serve = serveForFile();

/** The same service under the other loopback name: a different base URL to the service. */
const localhostUrl = () => serve.baseUrl.replace('127.0.0.1', 'localhost');

/** A config dir and file store, no base URL or client id from the environment. */
function storeEnv(configDir: string, secret = true): Record<string, string> {
  return {
    TOKENCLI_CONFIG_DIR: configDir,
    TOKENCLI_STORE: 'file',
    ...(secret ? { TOKENCLI_CLIENT_SECRET: DEMO.clientSecret } : {}),
  };
}

async function login(args: string[], env: Record<string, string>) {
  const run = startLogin([...ANY_PORT, ...args], env);
  await loginWithoutBrowser(await run.authorizeUrl, DEMO.email, DEMO.password);
  return run.done;
}

describe('a login under a base URL the profile does not record', () => {
  test('says the tokens were not stored and why; the hints name --profile and configure, not login', async () => {
    const configDir = tempDir();
    const env = storeEnv(configDir);
    const configured = await runCli(
      ['configure', '--base-url', localhostUrl(), '--client-id', DEMO.clientId, '--no-secret'],
      { env },
    );
    expect(configured.code, configured.stderr).toBe(0);

    const r = await login(['--base-url', serve.baseUrl], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('(profile default)');
    expect(r.stderr).toContain(
      `Logged in as demo@example.com, but the tokens were not stored: this run uses base URL ${serve.baseUrl} where profile "default" records ${localhostUrl()}, and a profile keeps only tokens of the service it records.`,
    );
    expect(r.stderr).toContain(
      `hint: to keep a login for this service, log in under a profile of its own (\`tokencli --profile NAME --base-url ${serve.baseUrl} login\`), or point profile "default" at it (\`tokencli --profile default --base-url ${serve.baseUrl} configure\`)`,
    );

    // Truthful: nothing was stored, and the next run for that service is not sent back to `login`.
    const token = await runCli(['--base-url', serve.baseUrl, 'token'], { env });
    expect(token.code).toBe(4);
    // The error's own hint is the last line (the first is the override warning's).
    const hint = token.stderr.trimEnd().split('\n').at(-1) ?? '';
    expect(hint).toContain(`this run uses base URL ${serve.baseUrl} where profile "default" records`);
    expect(hint).toContain('--profile NAME');
    expect(hint).toContain('configure');
    expect(hint).toMatch(/^hint: this run uses/);
    const refresh = await runCli(['--base-url', serve.baseUrl, 'refresh'], { env });
    expect(refresh.code).toBe(4);
    expect(refresh.stderr).toContain('--profile NAME');

    // Following the hint keeps the login.
    const own = await login(
      ['--profile', 'local', '--base-url', serve.baseUrl, '--client-id', DEMO.clientId],
      env,
    );
    expect(own.code, own.stderr).toBe(0);
    expect(own.stderr).toMatch(/^Logged in as demo@example\.com \(profile local\)\./m);
    expect((await runCli(['--profile', 'local', 'token'], { env })).code).toBe(0);
  });

  test("a token stored for the profile's own service: the hint says to leave out the flag to use it", async () => {
    const configDir = tempDir();
    const env = storeEnv(configDir);
    const first = await login(['--base-url', serve.baseUrl, '--client-id', DEMO.clientId], env);
    expect(first.code, first.stderr).toBe(0);

    const r = await runCli(['--base-url', localhostUrl(), 'token'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(
      `hint: to use the token profile "default" holds, leave out --base-url; this run uses base URL ${localhostUrl()} where profile "default" records ${serve.baseUrl}`,
    );
    expect(r.stderr).not.toContain('run `tokencli login` for this service');
  });
});

describe('a login with the client secret given for the run only', () => {
  const warning =
    'warning: the client secret given for this login (TOKENCLI_CLIENT_SECRET or --client-secret-stdin) was not stored, and the file store of profile "default" holds none';

  test('says so at login; a later refresh without it fails, and configure keeps it', async () => {
    const configDir = tempDir();
    const env = demoLoginEnv(serve.baseUrl, configDir);
    const r = await login([], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(warning);
    expect(r.stderr).toContain(
      'hint: to keep it with the profile, run `tokencli --profile default configure`',
    );
    // The secret is really not in the store.
    expect(readFileSync(credentialsPath(configDir), 'utf8')).not.toContain(DEMO.clientSecret);

    // What the warning foretold: the refresh an hour later, without the variable.
    const later = storeEnv(configDir, false);
    const refused = await runCli(['refresh'], { env: later });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('no client secret');

    // What the hint says to do.
    const configure = await runCli(['configure'], { env: storeEnv(configDir) });
    expect(configure.code, configure.stderr).toBe(0);
    const refreshed = await runCli(['refresh'], { env: later });
    expect(refreshed.code, refreshed.stderr).toBe(0);

    // With a secret stored for the profile there is nothing to warn about.
    const again = await login([], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('was not stored');
  });
});
