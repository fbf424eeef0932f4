/** The shapes of `token --format` on records the service could hand back, hostile ones included. */
import { describe, expect, test } from 'vitest';
import { exitCodeOf } from '../../../src/cli/output/exit-codes.js';
import { chooseTokenFormat, renderToken } from '../../../src/cli/output/token-formats.js';
import { TokencliError, UsageError } from '../../../src/errors.js';
import type { TokenRecord } from '../../../src/store/types.js';

const record = (access_token: string): TokenRecord => ({
  base_url: 'https://api.example.com',
  client_id: 'my-app',
  access_token,
  token_type: 'BearerToken',
  expires_at: '2030-01-01T00:00:00.000Z',
  grant: 'client_credentials',
  obtained_at: '2029-12-31T23:00:00.000Z',
});
const now = new Date('2029-12-31T23:00:00.000Z');
const clock = () => now;

describe('token formats', () => {
  test('--json is --format json; a contradiction is a usage error', () => {
    expect(chooseTokenFormat({})).toBe('token');
    expect(chooseTokenFormat({ json: true })).toBe('json');
    expect(chooseTokenFormat({ json: true, format: 'json' })).toBe('json');
    expect(chooseTokenFormat({ format: 'env' })).toBe('env');
    expect(() => chooseTokenFormat({ json: true, format: 'env' })).toThrow(UsageError);
  });

  test('each format', () => {
    const r = record('abc.DEF-123_~+/=');
    expect(renderToken('token', r, 'default', 'cache', clock)).toBe('abc.DEF-123_~+/=\n');
    expect(renderToken('header', r, 'default', 'cache', clock)).toBe(
      'Authorization: Bearer abc.DEF-123_~+/=\n',
    );
    expect(renderToken('env', r, 'default', 'cache', clock)).toBe(
      "TOKENCLI_ACCESS_TOKEN='abc.DEF-123_~+/='\nTOKENCLI_TOKEN_EXPIRES_AT='2030-01-01T00:00:00.000Z'\n",
    );
    expect(JSON.parse(renderToken('json', r, 'work', 'cache', clock))).toMatchObject({
      access_token: 'abc.DEF-123_~+/=',
      expires_in: 3600,
      profile: 'work',
      source: 'cache',
    });
  });

  test('only json reads the clock (a first Date costs a reading of the time zone)', () => {
    let reads = 0;
    const counting = () => {
      reads++;
      return now;
    };
    for (const format of ['token', 'header', 'env'] as const)
      renderToken(format, record('abc'), 'p', 'cache', counting);
    expect(reads).toBe(0);
    renderToken('json', record('abc'), 'p', 'cache', counting);
    expect(reads).toBe(1);
  });

  test.each([
    ["a'; rm -rf ~; '", 'env'],
    ['abc\r\nX-Injected: 1', 'header'],
    ['abc def', 'env'],
    ['abc\u001b[31m', 'header'],
  ] as const)('%j cannot be printed as %s: exit 5, nothing printed', (token, format) => {
    let error: unknown;
    try {
      renderToken(format, record(token), 'default', 'cache', clock);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TokencliError);
    expect(exitCodeOf(error as TokencliError)).toBe(5);
    expect((error as TokencliError).message).not.toContain(token);
  });
});
