/**
 * The CLI's one table of hints (src/cli/output/error-hints.ts), and the rule that makes it the only one:
 * no module below src/cli/ names a CLI flag or a TOKENCLI_ variable in what it throws.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeError, hintFor } from '../../../src/cli/output/error-hints.js';
import { InputError, TokencliError } from '../../../src/errors.js';
import { ServiceError } from '../../../src/oauth/service-error.js';
import { fetchTokenInfo } from '../../../src/oauth/tokeninfo.js';
import { startServer, testClient, testHttp } from '../../http/loopback-server.js';

const SRC = join(import.meta.dirname, '../../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The code of a file without its comments (good enough for this source: no `//` inside strings that matter). */
function codeOf(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

describe('hints', () => {
  it("pasteable: the profile list and configure carry the run's store and service flags", () => {
    const target = { profile: 'dmeo', store: 'file', baseUrl: 'https://x.example' };
    const noSuch = (names: string[]) =>
      new TokencliError('no profile "zzz"', {
        code: 'usage',
        reason: 'no_such_profile',
        details: { profile: 'zzz', names, source: 'option' },
      });
    expect(hintFor(noSuch(['demo', 'par']), target)).toBe(
      'profiles here: demo, par; see `tokencli --store file --base-url https://x.example profile list`',
    );
    expect(hintFor(noSuch([]), { store: 'file' })).toBe(
      'no profiles are configured yet; create one with `tokencli --profile NAME --store file configure` or pass --base-url and --client-id',
    );
    const invalid = new InputError(
      'config file /c/config.json is invalid: expected an object',
      'config_invalid',
      {
        path: '/c/config.json',
      },
    );
    expect(hintFor(invalid, { profile: 'par' })).toBe(
      'fix the file, or remove it and run `tokencli --profile par configure`',
    );
  });

  it('lists the profiles there are from the array in details.names', () => {
    const error = new TokencliError('no profile "dmeo"', {
      code: 'usage',
      reason: 'no_such_profile',
      details: { profile: 'dmeo', names: ['demo', 'par'], source: 'option' },
    });
    expect(hintFor(error)).toBe('did you mean "demo"? (profiles here: demo, par)');
  });

  it('names the tokeninfo endpoint, not the token endpoint, for errors from tokeninfo', () => {
    const fromTokenInfo = new ServiceError({
      status: 404,
      message: 'the token service sent an unexpected response (HTTP 404)',
      code: 'service_unavailable',
      endpoint: 'tokeninfo',
    });
    expect(hintFor(fromTokenInfo)).toBe(
      'check the base URL (--base-url, TOKENCLI_BASE_URL): the tokeninfo endpoint is <base URL>/v2/oauth/tokeninfo; if the base URL is right, the server may not implement tokeninfo, which this command needs',
    );
    const fromToken = new ServiceError({
      status: 404,
      message: 'x',
      code: 'service_unavailable',
      endpoint: 'token',
    });
    expect(hintFor(fromToken)).toBe(
      'check the base URL (--base-url, TOKENCLI_BASE_URL): the token endpoint is <base URL>/v2/oauth/token',
    );
  });

  it('names the URL actually requested for a real tokeninfo answer that is a 404 or an HTML page', async () => {
    for (const [status, body] of [
      [404, ''],
      [200, '<html>sign in</html>'],
    ] as const) {
      const server = await startServer((_req, res) => {
        res.writeHead(status, { 'content-type': 'text/html' });
        res.end(body);
      });
      try {
        const error = await fetchTokenInfo(testClient(server.origin, testHttp()), 'at-1').catch(
          (e: unknown) => e,
        );
        const hint = hintFor(error as TokencliError);
        expect(hint).toContain(`the tokeninfo endpoint requested was ${server.origin}/v2/oauth/tokeninfo;`);
        expect(hint).not.toContain('<base URL>');
        expect(hint).not.toContain('client_id');
        // Only a 404 suggests the server may lack the endpoint; an HTML page is someone else answering.
        expect(hint?.includes('may not implement tokeninfo')).toBe(status === 404);
      } finally {
        await server.close();
      }
    }
  });

  it('words messages below the CLI in terms of its flags', () => {
    const error = new InputError('invalid redirect URI "x": not a URL', 'redirect_uri_invalid', {
      value: 'x',
      why: 'not a URL',
    });
    expect(error.code).toBe('usage');
    expect(describeError(error)).toEqual({
      message: 'invalid --redirect-uri "x": not a URL',
      hint: 'use a loopback http URL such as http://127.0.0.1:8765/callback, http://[::1]:8765/callback or http://localhost:0/callback',
    });
  });

  it('has errors with a stable code, the service fields and the cause', () => {
    const cause = new Error('socket');
    const error = new ServiceError({
      status: 403,
      serviceCode: '403',
      subcode: '018',
      description: 'logged in elsewhere',
      message: 'm',
      code: 'service_refused',
      cause,
    });
    expect(error).toMatchObject({ code: 'service_refused', status: 403, subcode: '018', cause });
    expect(hintFor(error)).toBe('run again with --end-other-sessions to end your other sessions');
  });
});

describe('layering', () => {
  it('no module below src/cli/ names a CLI flag or a TOKENCLI_ variable in its code', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const path = relative(SRC, file);
      // The CLI words things; the server's own flags belong to `tokencli serve`'s wording there.
      if (path.startsWith('cli/') || path.startsWith('server/') || path === 'index.ts') continue;
      // The one list of the variables the session reads; errors record them as data.
      if (path === 'session/environment.ts') continue;
      codeOf(readFileSync(file, 'utf8'))
        .split('\n')
        .forEach((line, index) => {
          // `--liftoff-only` is a V8 flag (undici-loader.ts), not one of the CLI's.
          if (line.includes("'--liftoff-only'")) return;
          if (/['"`][^'"`]*(--[a-z][a-z-]+|TOKENCLI_[A-Z]+)/.test(line))
            offenders.push(`${path}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});
