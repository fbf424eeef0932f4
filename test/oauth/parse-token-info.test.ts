import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/cli/output/exit-codes.js';
import { ExitCode } from '../../src/errors.js';
import { parseTokenInfo } from '../../src/oauth/parse-token-info.js';
import { ServiceError } from '../../src/oauth/service-error.js';

const NOW = new Date('2030-01-02T03:04:05.000Z');

function rejection(json: unknown): ServiceError {
  try {
    parseTokenInfo(json, NOW);
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error('expected a rejection');
}

describe('parseTokenInfo', () => {
  it('returns every field, redirect_url under redirect_uri, and expires_at from receipt', () => {
    const info = parseTokenInfo(
      {
        access_token: 'at',
        token_type: 'BearerToken',
        expires_in: 3599,
        status: 'approved',
        scope: 'demoservices',
        refresh_token: 'rt',
        refresh_token_expires_in: 2591999,
        redirect_url: 'http://127.0.0.1:8765/callback',
        email: 'demo@example.com',
        app_name: 'Demo App',
        flags: [{ name: 'NEW' }],
        tenant: 'acme',
      },
      NOW,
    );
    expect(info).toStrictEqual({
      access_token: 'at',
      token_type: 'BearerToken',
      expires_in: 3599,
      status: 'approved',
      scope: 'demoservices',
      refresh_token: 'rt',
      refresh_token_expires_in: 2591999,
      redirect_uri: 'http://127.0.0.1:8765/callback',
      email: 'demo@example.com',
      app_name: 'Demo App',
      flags: [{ name: 'NEW' }],
      tenant: 'acme',
      expires_at: '2030-01-02T04:04:04.000Z',
    });
  });

  it('normalises digit-string lifetimes and drops nulls; no expires_in means no expires_at', () => {
    const info = parseTokenInfo(
      { status: 'approved', expires_in: '60', scope: null, expires_at: 'bogus' },
      NOW,
    );
    expect(info).toStrictEqual({
      status: 'approved',
      expires_in: 60,
      expires_at: '2030-01-02T03:05:05.000Z',
    });
    expect(parseTokenInfo({ status: 'approved', expires_at: 'bogus' }, NOW)).toStrictEqual({
      status: 'approved',
    });
  });

  it('keeps a __proto__ field as a plain field', () => {
    const info = parseTokenInfo(JSON.parse('{"status":"approved","__proto__":{"polluted":true}}'), NOW);
    expect(Object.getPrototypeOf(info)).toBe(Object.prototype);
    expect((info as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(info)).toContain('__proto__');
  });

  const cases: [string, unknown, string][] = [
    ['null', null, 'the token information is null, not a JSON object'],
    ['an array', [], 'the token information is an array, not a JSON object'],
    ['a string', 'x', 'the token information is a string, not a JSON object'],
    ['an empty object', {}, 'the token information carries none of the documented fields'],
    ['only unknown fields', { foo: 1 }, 'the token information carries none of the documented fields'],
    ['a numeric status', { status: 1 }, 'status is a number, not a string'],
    [
      'a negative expires_in',
      { status: 'approved', expires_in: -1 },
      'expires_in is -1, outside 0 to 2147483647 seconds',
    ],
    [
      'a string expires_in',
      { status: 'approved', expires_in: 'soon' },
      'expires_in is the string "soon", not a number of seconds',
    ],
    [
      'a numeric redirect_url',
      { status: 'approved', redirect_url: 3 },
      'redirect_url is a number, not a string',
    ],
  ];

  it.each(cases)('rejects %s with exit 5', (_name, json, problem) => {
    const error = rejection(json);
    expect(exitCodeOf(error)).toBe(ExitCode.unavailable);
    expect(error.message).toBe(`the token service sent an unexpected response (HTTP 200): ${problem}`);
  });
});
