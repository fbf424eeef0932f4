/**
 * What a person at a terminal types, kept or offered by the profile, in-process (the
 * hidden prompt replaced) against a real token service on loopback: a client secret typed at the
 * prompt is kept like `configure` keeps it; `configure` on an existing profile keeps the stored
 * secret on an empty answer; `token` with a known email asks for the password instead of failing.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { demoServiceConfig } from '../../../src/server/index.js';
import {
  credentialsFile,
  readStoredCredentials,
  writeStoredTokens,
} from '../../helpers/stored-credentials.js';
import { tempDir } from '../../helpers/temp-dirs.js';
import { createTestIO } from '../../helpers/test-io.js';
import { DEMO, startService, type TestService } from '../../server/helpers.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function setup(): Promise<{ service: TestService; configDir: string }> {
  const service = await startService(demoServiceConfig());
  const configDir = tempDir('tokencli-prompts-');
  cleanups.push(() => service.close());
  return { service, configDir };
}

async function run(
  args: string[],
  env: NodeJS.ProcessEnv,
  answers: string[] | undefined,
  stdin?: string,
): Promise<{ code: number; stdout: string; stderr: string; prompts: string[] }> {
  const prompts: string[] = [];
  const io = createTestIO({
    env: { TOKENCLI_STORE: 'file', ...env },
    stdinIsTTY: answers !== undefined,
    stdin,
  });
  const code = await main(args, io, {
    promptHidden: async (prompt) => {
      prompts.push(prompt);
      const answer = answers?.shift();
      if (answer === undefined) throw new Error(`unexpected prompt ${prompt}`);
      return answer;
    },
  });
  return { code, stdout: io.stdoutText(), stderr: io.stderrText(), prompts };
}

describe('prompts and the profile', () => {
  it('keeps a client secret typed at the prompt once the service accepted it', async () => {
    const { service, configDir } = await setup();
    const env = { TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_PASSWORD: DEMO.password };
    const flags = ['--base-url', service.baseUrl, '--client-id', DEMO.clientId];
    const first = await run([...flags, 'token', '--email', DEMO.email], env, [DEMO.clientSecret]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.prompts).toEqual(['Client secret: ']);
    expect(readStoredCredentials(configDir).profiles.default?.client_secret).toBe(DEMO.clientSecret);
    const config = await readFile(join(configDir, 'config.json'), 'utf8');
    expect(config).not.toContain(DEMO.clientSecret);

    // Later, off a terminal and with only the profile: the kept secret is used.
    const later = await run(['token', '--force', '--email', DEMO.email], env, undefined);
    expect(later.code, later.stderr).toBe(0);
  });

  it('does not keep a client secret the service refused', async () => {
    const { service, configDir } = await setup();
    const env = { TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_PASSWORD: DEMO.password };
    const flags = ['--base-url', service.baseUrl, '--client-id', DEMO.clientId];
    const wrong = await run([...flags, 'token', '--email', DEMO.email], env, ['not-the-secret']);
    expect(wrong.code).toBe(3);
    await expect(readFile(credentialsFile(configDir), 'utf8')).rejects.toThrow();
  });

  it('configure on an existing profile says a secret is stored and keeps it on an empty answer', async () => {
    const { service, configDir } = await setup();
    const env = { TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_CLIENT_SECRET: undefined };
    const flags = ['--base-url', service.baseUrl, '--client-id', DEMO.clientId];
    expect((await run([...flags, 'configure'], env, [DEMO.clientSecret])).code).toBe(0);
    const again = await run([...flags, 'configure'], env, ['']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.prompts).toEqual(['Client secret (one is stored; press Enter to keep it): ']);
    expect(again.stderr).toContain('Kept the client secret already stored');
    expect(readStoredCredentials(configDir).profiles.default?.client_secret).toBe(DEMO.clientSecret);
  });

  it('token with a known email asks for the password on a terminal instead of failing', async () => {
    const { service, configDir } = await setup();
    const env = { TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_CLIENT_SECRET: DEMO.clientSecret };
    const flags = ['--base-url', service.baseUrl, '--client-id', DEMO.clientId];
    const stale = new Date(Date.now() - 60_000).toISOString();
    writeStoredTokens(configDir, {
      base_url: service.baseUrl,
      client_id: DEMO.clientId,
      access_token: 'expired-access-token-0123456789',
      token_type: 'BearerToken',
      expires_at: stale,
      grant: 'client_credentials',
      obtained_at: new Date(Date.now() - 3_660_000).toISOString(),
      email: DEMO.email,
    });
    const offTerminal = await run([...flags, 'token'], env, undefined);
    expect(offTerminal.code).toBe(4);
    expect(offTerminal.stderr).toMatch(/the access token of profile "default" expired 1m ago/);

    const atTerminal = await run([...flags, 'token'], env, [DEMO.password]);
    expect(atTerminal.code, atTerminal.stderr).toBe(0);
    expect(atTerminal.prompts).toEqual(['Password for demo@example.com: ']);
    expect(atTerminal.stdout.trim()).not.toBe('expired-access-token-0123456789');
  });

  it('profile remove asks on a terminal: "n" keeps the profile, "y" removes it', async () => {
    const { service, configDir } = await setup();
    const env = { TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_CLIENT_SECRET: undefined };
    const flags = ['--profile', 'p', '--base-url', service.baseUrl, '--client-id', DEMO.clientId];
    expect((await run([...flags, 'configure'], env, [DEMO.clientSecret])).code).toBe(0);

    const kept = await run(['profile', 'remove', 'p'], env, [], 'n\n');
    // No is an answer, not a failure: exit 0, and it says nothing changed.
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stderr).toContain('Remove profile "p": its settings, tokens and client secret? [y/N]');
    expect(kept.stderr).toContain('Left profile "p" as it was; nothing was removed.');
    expect(kept.stderr).not.toContain('error:');
    expect(readStoredCredentials(configDir).profiles.p?.client_secret).toBe(DEMO.clientSecret);

    const removed = await run(['profile', 'remove', 'p'], env, [], 'y\n');
    expect(removed.code, removed.stderr).toBe(0);
    expect(readStoredCredentials(configDir).profiles.p).toBeUndefined();
    const config = JSON.parse(await readFile(join(configDir, 'config.json'), 'utf8'));
    expect(config.profiles.p).toBeUndefined();
  });
});
