import { describe, expect, it } from 'vitest';
import {
  hintFor,
  LIFETIME_HINT,
  TOKEN_TYPE_HINT,
  TOKEN_VALUE_HINT,
} from '../../src/cli/output/error-hints.js';
import { exitCodeOf } from '../../src/cli/output/exit-codes.js';
import { ExitCode } from '../../src/errors.js';
import { parseTokenResponse } from '../../src/oauth/parse-token-response.js';
import { ServiceError } from '../../src/oauth/service-error.js';

const NOW = new Date('2030-01-02T03:04:05.000Z');

function rejection(json: unknown): ServiceError {
  try {
    parseTokenResponse(json, NOW);
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error('expected a rejection');
}

describe('parseTokenResponse', () => {
  it('normalises the sample response: redirect_url → redirect_uri, unknown fields dropped, expiry from receipt', () => {
    const tokens = parseTokenResponse(
      {
        access_token: 'at',
        token_type: 'BearerToken',
        expires_in: 3599,
        refresh_token: 'rt',
        refresh_token_expires_in: 2591999,
        redirect_url: 'https://app.example/cb',
        email: 'u@example.com',
        flags: [{ name: 'NEW' }],
      },
      NOW,
    );
    expect(tokens).toStrictEqual({
      access_token: 'at',
      token_type: 'BearerToken',
      expires_in: 3599,
      expires_at: '2030-01-02T04:04:04.000Z',
      refresh_token: 'rt',
      refresh_token_expires_in: 2591999,
      refresh_token_expires_at: '2030-02-01T03:04:04.000Z',
      redirect_uri: 'https://app.example/cb',
      email: 'u@example.com',
    });
  });

  it('prefers redirect_uri when both spellings are present', () => {
    const tokens = parseTokenResponse(
      { access_token: 'at', redirect_uri: 'https://a/', redirect_url: 'https://b/', expires_in: 1 },
      NOW,
    );
    expect(tokens.redirect_uri).toBe('https://a/');
  });

  it('applies the documented defaults for a missing token_type and expires_in', () => {
    expect(parseTokenResponse({ access_token: 'at' }, NOW)).toStrictEqual({
      access_token: 'at',
      token_type: 'BearerToken',
      expires_in: 3600,
      expires_at: '2030-01-02T04:04:05.000Z',
    });
  });

  it('accepts expires_in as a string of digits, and rounds fractions down', () => {
    expect(parseTokenResponse({ access_token: 'at', expires_in: '3599' }, NOW).expires_in).toBe(3599);
    expect(parseTokenResponse({ access_token: 'at', expires_in: '3599.0' }, NOW).expires_in).toBe(3599);
    expect(parseTokenResponse({ access_token: 'at', expires_in: '3599.5' }, NOW).expires_in).toBe(3599);
    expect(parseTokenResponse({ access_token: 'at', expires_in: 10.9 }, NOW).expires_in).toBe(10);
    expect(parseTokenResponse({ access_token: 'at', expires_in: 0 }, NOW).expires_at).toBe(NOW.toISOString());
  });

  it('keeps the refresh lifetime only together with a refresh token', () => {
    const tokens = parseTokenResponse({ access_token: 'at', refresh_token_expires_in: 100 }, NOW);
    expect(tokens).not.toHaveProperty('refresh_token_expires_in');
    expect(tokens).not.toHaveProperty('refresh_token_expires_at');
    const withEmpty = parseTokenResponse({ access_token: 'at', refresh_token: '', email: null }, NOW);
    expect(withEmpty).not.toHaveProperty('refresh_token');
    expect(withEmpty).not.toHaveProperty('email');
  });

  const cases: [string, unknown, string][] = [
    ['null', null, 'the token response is null, not a JSON object'],
    ['an array', [], 'the token response is an array, not a JSON object'],
    ['a string', 'x', 'the token response is a string, not a JSON object'],
    ['a number', 42, 'the token response is a number, not a JSON object'],
    ['an empty object', {}, 'access_token is missing from the token response'],
    ['an empty access_token', { access_token: '' }, 'access_token is empty'],
    ['a numeric access_token', { access_token: 123 }, 'access_token is a number, not a string'],
    ['an object access_token', { access_token: { a: 1 } }, 'access_token is an object, not a string'],
    [
      'an access_token with a line break',
      { access_token: 'a\r\nX-Evil: 1' },
      'access_token holds characters that are not allowed in a token (spaces, control or non-ASCII characters)',
    ],
    [
      'an access_token with a space',
      { access_token: 'a b' },
      'access_token holds characters that are not allowed in a token (spaces, control or non-ASCII characters)',
    ],
    ['a numeric token_type', { access_token: 'at', token_type: 1 }, 'token_type is a number, not a string'],
    [
      'a negative expires_in',
      { access_token: 'at', expires_in: -1 },
      'expires_in is -1, outside 0 to 2147483647 seconds',
    ],
    [
      'a huge expires_in',
      { access_token: 'at', expires_in: 1e300 },
      'expires_in is 1e+300, outside 0 to 2147483647 seconds',
    ],
    [
      'an expires_in above int32',
      { access_token: 'at', expires_in: 2147483648 },
      'expires_in is 2147483648, outside 0 to 2147483647 seconds',
    ],
    [
      'a huge digit string',
      { access_token: 'at', expires_in: '99999999999999999999999' },
      'expires_in is 99999999999999999999999, outside 0 to 2147483647 seconds',
    ],
    [
      'a "NaN" expires_in',
      { access_token: 'at', expires_in: 'NaN' },
      'expires_in is the string "NaN", not a number of seconds',
    ],
    [
      'a "-5" expires_in',
      { access_token: 'at', expires_in: '-5' },
      'expires_in is the string "-5", not a number of seconds',
    ],
    [
      'a boolean expires_in',
      { access_token: 'at', expires_in: true },
      'expires_in is a boolean, not a number of seconds',
    ],
    [
      'an array expires_in',
      { access_token: 'at', expires_in: [1] },
      'expires_in is an array, not a number of seconds',
    ],
    [
      'a numeric refresh_token',
      { access_token: 'at', refresh_token: 5 },
      'refresh_token is a number, not a string',
    ],
    [
      'a negative refresh_token_expires_in',
      { access_token: 'at', refresh_token: 'rt', refresh_token_expires_in: -3 },
      'refresh_token_expires_in is -3, outside 0 to 2147483647 seconds',
    ],
    [
      'a numeric redirect_url',
      { access_token: 'at', redirect_url: 7 },
      'redirect_url is a number, not a string',
    ],
    ['an object email', { access_token: 'at', email: {} }, 'email is an object, not a string'],
  ];

  it.each(cases)('rejects %s with exit 5 and says what was wrong', (_name, json, problem) => {
    const error = rejection(json);
    expect(exitCodeOf(error)).toBe(ExitCode.unavailable);
    expect(error.status).toBe(200);
    expect(error.description).toBe(problem);
    expect(error.message).toBe(`the token service sent an unexpected response (HTTP 200): ${problem}`);
    // A bad lifetime or token is the service's mistake, not a wrong URL: its hint says so.
    if (/expires_in/.test(problem)) expect(hintFor(error)).toBe(LIFETIME_HINT);
    else if (/not allowed in a token/.test(problem)) expect(hintFor(error)).toBe(TOKEN_VALUE_HINT);
    else expect(hintFor(error)).toMatch(/base URL/);
  });

  it('rejects NaN and Infinity that reach it as numbers', () => {
    expect(rejection({ access_token: 'at', expires_in: Number.NaN }).description).toBe(
      'expires_in is NaN, outside 0 to 2147483647 seconds',
    );
    expect(rejection({ access_token: 'at', expires_in: Number.POSITIVE_INFINITY }).description).toBe(
      'expires_in is Infinity, outside 0 to 2147483647 seconds',
    );
  });

  it.each(['Bearer', 'bearer', 'BEARER', 'BearerToken', 'bearertoken', 'BEARERTOKEN'])(
    'accepts token_type %s',
    (tokenType) => {
      expect(parseTokenResponse({ access_token: 'at', token_type: tokenType }, NOW).token_type).toBe(
        tokenType,
      );
    },
  );

  it.each([
    ['mac', 'token_type is "mac", not Bearer: tokencli only uses Bearer tokens (RFC 6749 §7.1)'],
    ['DPoP', 'token_type is "DPoP", not Bearer: tokencli only uses Bearer tokens (RFC 6749 §7.1)'],
    // Only ASCII letters fold: a dotless ı or a Kelvin sign is not an ASCII letter.
    [
      'BEARERTOKEN\u0131',
      'token_type is "BEARERTOKENı", not Bearer: tokencli only uses Bearer tokens (RFC 6749 §7.1)',
    ],
    ['Bearer ', 'token_type is "Bearer ", not Bearer: tokencli only uses Bearer tokens (RFC 6749 §7.1)'],
  ])('refuses token_type %j with a hint about the token type', (tokenType, problem) => {
    const error = rejection({ access_token: 'at', token_type: tokenType });
    expect(error.description).toBe(problem);
    expect(hintFor(error)).toBe(TOKEN_TYPE_HINT);
  });

  it('never echoes a token value in its messages', () => {
    const error = rejection({ access_token: 'SECRET-TOKEN with space' });
    expect(error.message).not.toContain('SECRET-TOKEN');
  });
});
