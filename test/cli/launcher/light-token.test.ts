/**
 * The launcher's fast path for a cached `tokencli token` (src/cli/launcher/light-token.ts): it answers only
 * when the token is fresh, and otherwise prints nothing and changes nothing, leaving the full CLI
 * to decide and report. The end-to-end tests of `token` run through it via bin/tokencli.js.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { flagDefaults } from '../../../src/cli/command-model/types.js';
import { type TokenOptions, tokenCommand } from '../../../src/cli/commands/token/token-command.js';
import type { CommandContext } from '../../../src/cli/context.js';
import { lightPlan } from '../../../src/cli/launcher/light-argv.js';
import { answer as answerToken, printCachedToken } from '../../../src/cli/launcher/light-token.js';
import type { TokenRecord } from '../../../src/store/types.js';
import { writeProfiles } from '../../helpers/stored-credentials.js';
import { tempDir } from '../../helpers/temp-dirs.js';
import { sampleRecord } from '../../store/records.js';

const BASE_URL = 'http://127.0.0.1:8080';
/** `token`'s options with no flag given, from its definition. */
const NO_FLAGS = flagDefaults(tokenCommand.flags) as unknown as TokenOptions;
const DEFAULT_MIN_TTL_SECONDS = Number(NO_FLAGS.minTtl);

function setup(env: Record<string, string> = {}) {
  const configDir = join(tempDir('tokencli-fast-'), 'config');
  mkdirSync(configDir, { mode: 0o700 });
  let stdout = '';
  let stderr = '';
  const stderrStream = new PassThrough();
  stderrStream.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const ctx: CommandContext = {
    io: {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: stderrStream,
      stdin: new PassThrough(),
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      env: {
        TOKENCLI_CONFIG_DIR: configDir,
        TOKENCLI_BASE_URL: BASE_URL,
        TOKENCLI_CLIENT_ID: 'demo-client',
        TOKENCLI_STORE: 'file',
        ...env,
      },
    },
    globals: { verbose: false, quiet: false, color: true },
    signal: new AbortController().signal,
  };
  const credentials = join(configDir, 'credentials.json');
  const store = (text: string) => writeFileSync(credentials, text, { mode: 0o600 });
  const storeTokens = (tokens: TokenRecord | unknown, profile = 'default') =>
    store(JSON.stringify({ version: 1, profiles: { [profile]: { tokens } } }));
  return {
    configDir,
    credentials,
    ctx,
    store,
    storeTokens,
    out: () => stdout,
    err: () => stderr,
  };
}

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

describe('printCachedToken', () => {
  test('prints a fresh cached token from the file store and nothing else', async () => {
    const t = setup();
    t.storeTokens(sampleRecord({ expires_at: inSeconds(3600) }));
    expect(await printCachedToken(t.ctx, NO_FLAGS)).toBe(true);
    expect(t.out()).toBe('access-token-value\n');
    expect(t.err()).toBe('');
  });

  test('makes no Date for a plain token (a first Date costs a reading of the time zone); json makes one', async () => {
    const t = setup();
    t.storeTokens(sampleRecord({ expires_at: inSeconds(3600) }));
    const RealDate = globalThis.Date;
    let made = 0;
    globalThis.Date = new Proxy(RealDate, {
      construct(target, args, newTarget) {
        made++;
        return Reflect.construct(target, args, newTarget);
      },
    });
    try {
      expect(await printCachedToken(t.ctx, NO_FLAGS)).toBe(true);
      expect(made).toBe(0);
      expect(await printCachedToken(t.ctx, { ...NO_FLAGS, json: true })).toBe(true);
      expect(made).toBe(1);
      expect(JSON.parse(t.out().slice(t.out().indexOf('{'))).expires_in).toBeGreaterThan(3590);
    } finally {
      globalThis.Date = RealDate;
    }
  });

  test('reads settings by the same precedence as the CLI (profile from the environment, config file)', async () => {
    const t = setup({ TOKENCLI_PROFILE: 'work', TOKENCLI_BASE_URL: '', TOKENCLI_CLIENT_ID: '' });
    writeProfiles(t.configDir, { work: { base_url: BASE_URL, client_id: 'demo-client' } });
    t.storeTokens(sampleRecord({ access_token: 'work-token', expires_at: inSeconds(3600) }), 'work');
    expect(await printCachedToken(t.ctx, NO_FLAGS)).toBe(true);
    expect(t.out()).toBe('work-token\n');
  });

  test.each([
    ['a token inside the minimum lifetime', { expires_at: inSeconds(DEFAULT_MIN_TTL_SECONDS - 5) }],
    ['a token of another service', { expires_at: inSeconds(3600), base_url: 'http://127.0.0.1:9999' }],
    ['a token of another client', { expires_at: inSeconds(3600), client_id: 'other' }],
  ])('hands over, printing nothing, for %s', async (_name, overrides) => {
    const t = setup();
    t.storeTokens(sampleRecord(overrides));
    expect(await printCachedToken(t.ctx, NO_FLAGS)).toBe(false);
    expect(t.out() + t.err()).toBe('');
  });

  test('hands over without settings, with a bad setting, or with the none store', async () => {
    const cases: Array<Record<string, string>> = [
      { TOKENCLI_BASE_URL: '' },
      { TOKENCLI_CLIENT_ID: '' },
      { TOKENCLI_BASE_URL: 'http://example.com' },
      { TOKENCLI_STORE: 'nonsense' },
      { TOKENCLI_STORE: 'none' },
      { TOKENCLI_PROFILE: '../etc' },
    ];
    for (const env of cases) {
      const t = setup(env);
      t.storeTokens(sampleRecord({ expires_at: inSeconds(3600) }));
      expect(await printCachedToken(t.ctx, NO_FLAGS), JSON.stringify(env)).toBe(false);
      expect(t.out() + t.err()).toBe('');
    }
  });

  test("hands over when the settings name another service than the profile's (the full CLI warns)", async () => {
    const t = setup();
    writeProfiles(t.configDir, { default: { base_url: 'http://127.0.0.1:9999', client_id: 'demo-client' } });
    t.storeTokens(sampleRecord({ expires_at: inSeconds(3600) }));
    expect(await printCachedToken(t.ctx, NO_FLAGS)).toBe(false);
    expect(t.out() + t.err()).toBe('');
  });

  test('leaves a damaged credentials file where it is, for the full CLI to set aside and report', async () => {
    const t = setup();
    t.store('{ not json');
    expect(await printCachedToken(t.ctx, NO_FLAGS)).toBe(false);
    expect(t.out() + t.err()).toBe('');
    expect(readFileSync(t.credentials, 'utf8')).toBe('{ not json');
    expect(readdirSync(t.configDir)).toEqual(['credentials.json']);
  });

  test('hands over, without its own warning, for a damaged entry (the full CLI warns once)', async () => {
    const t = setup();
    t.storeTokens({ access_token: 'x' });
    expect(await printCachedToken(t.ctx, NO_FLAGS)).toBe(false);
    expect(t.out() + t.err()).toBe('');
  });
});

describe('answer: token with its flags, as the launcher parsed them', () => {
  const parsed = (...argv: string[]) => {
    const result = lightPlan(['token', ...argv]);
    if (result?.kind !== 'command') throw new Error(`not parsed: ${argv.join(' ')}`);
    return result;
  };
  const answer = async (t: ReturnType<typeof setup>, ...argv: string[]) =>
    (await answerToken(parsed(...argv), t.ctx.io)) === 0;

  test('every --format, --json and --min-ttl from the cache, as the full CLI renders them', async () => {
    const t = setup();
    t.storeTokens(sampleRecord({ expires_at: inSeconds(3600) }));
    expect(await answer(t, '--format', 'header')).toBe(true);
    expect(await answer(t, '--format=env', '--min-ttl', '600')).toBe(true);
    expect(await answer(t, '--json', '--quiet')).toBe(true);
    const [header, access, expires, ...json] = t.out().split('\n');
    expect(header).toBe('Authorization: Bearer access-token-value');
    expect(access).toBe("TOKENCLI_ACCESS_TOKEN='access-token-value'");
    expect(expires).toMatch(/^TOKENCLI_TOKEN_EXPIRES_AT='/);
    expect(JSON.parse(json.join('\n'))).toMatchObject({
      access_token: 'access-token-value',
      source: 'cache',
    });
    expect(t.err()).toBe('');
  });

  test.each([
    [['--force']],
    [['--email', 'ci@example.com']],
    [['--password-stdin']],
    [['--client-secret-stdin']],
    [['--end-other-sessions']],
    [['--verbose']],
    [['--no-store']],
    [['--min-ttl', '7200']],
    [['--min-ttl', '1e3']],
    [['--json', '--format', 'env']],
  ])('hands %j over to the full CLI, printing nothing', async (argv) => {
    const t = setup();
    t.storeTokens(sampleRecord({ expires_at: inSeconds(3600) }));
    expect(await answer(t, ...argv)).toBe(false);
    expect(t.out() + t.err()).toBe('');
  });

  test('a token the service refused (dropped) is never answered from the cache, whatever its expiry', async () => {
    const t = setup();
    t.storeTokens(
      sampleRecord({ expires_at: inSeconds(3600), access_token_refused_at: new Date().toISOString() }),
    );
    expect(await answer(t)).toBe(false);
    expect(t.out() + t.err()).toBe('');
  });

  test('a token no header can carry is left to the full CLI to report', async () => {
    const t = setup();
    t.storeTokens(sampleRecord({ access_token: 'bad token', expires_at: inSeconds(3600) }));
    expect(await answer(t, '--format', 'header')).toBe(false);
    expect(t.out() + t.err()).toBe('');
  });
});
