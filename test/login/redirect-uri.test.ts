import { describe, expect, test } from 'vitest';
import { exitCodeOf } from '../../src/cli/output/exit-codes.js';
import { ExitCode, InputError } from '../../src/errors.js';
import { allowedHosts, parseRedirectUri, withPort } from '../../src/login/redirect-uri.js';
import { described } from '../helpers/described.js';

describe('parseRedirectUri', () => {
  test('the default binds 127.0.0.1:8765 on /callback', () => {
    const r = parseRedirectUri('http://127.0.0.1:8765/callback');
    expect(r).toMatchObject({ bindAddress: '127.0.0.1', port: 8765, path: '/callback' });
  });

  test('[::1] binds ::1 and localhost binds 127.0.0.1', () => {
    expect(parseRedirectUri('http://[::1]:0/cb')).toMatchObject({ bindAddress: '::1', port: 0, path: '/cb' });
    expect(parseRedirectUri('http://localhost:9/x/y')).toMatchObject({
      bindAddress: '127.0.0.1',
      port: 9,
      path: '/x/y',
    });
    expect(parseRedirectUri('http://127.0.0.1/')).toMatchObject({ port: 80, path: '/' });
  });

  test.each([
    ['https://127.0.0.1:8765/callback', 'the login listener only serves loopback http:// URLs, not https://'],
    [
      'http://0.0.0.0:8765/callback',
      'host "0.0.0.0" is not a loopback address (127.0.0.1, [::1], localhost)',
    ],
    [
      'http://example.com/callback',
      'host "example.com" is not a loopback address (127.0.0.1, [::1], localhost)',
    ],
    [
      'http://127.0.0.2:1/callback',
      'host "127.0.0.2" is not a loopback address (127.0.0.1, [::1], localhost)',
    ],
    ['http://user:pw@127.0.0.1:1/cb', 'it must not carry credentials'],
    ['http://127.0.0.1:1/cb?x=1', 'it must not carry a query or a fragment'],
    ['http://127.0.0.1:1/cb#x', 'it must not carry a query or a fragment'],
    ['not a url', 'not a URL'],
    ['http://127.0.0.1:70000/cb', 'not a URL'],
  ])('refuses %s with a usage error naming --redirect-uri', (value, why) => {
    let error: unknown;
    try {
      parseRedirectUri(value);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect(exitCodeOf(error as InputError)).toBe(ExitCode.usage);
    expect((error as InputError).message).toBe(`invalid redirect URI "${value}": ${why}`);
    expect(described(error).message).toBe(`invalid --redirect-uri "${value}": ${why}`);
    expect(described(error).hint).toContain('http://127.0.0.1:8765/callback');
  });
});

test('withPort puts the real port into a port-0 URI', () => {
  expect(withPort(parseRedirectUri('http://127.0.0.1:0/callback'), 51234)).toBe(
    'http://127.0.0.1:51234/callback',
  );
  expect(withPort(parseRedirectUri('http://localhost:0/cb'), 4000)).toBe('http://localhost:4000/cb');
  expect(withPort(parseRedirectUri('http://[::1]:0/cb'), 4000)).toBe('http://[::1]:4000/cb');
});

test('allowedHosts: the bound address and localhost, with the port (without it only for 80)', () => {
  expect([...allowedHosts(parseRedirectUri('http://127.0.0.1:0/c'), 4000)].sort()).toEqual([
    '127.0.0.1:4000',
    'localhost:4000',
  ]);
  expect([...allowedHosts(parseRedirectUri('http://[::1]:0/c'), 4000)].sort()).toEqual([
    '[::1]:4000',
    'localhost:4000',
  ]);
  expect([...allowedHosts(parseRedirectUri('http://127.0.0.1/c'), 80)].sort()).toEqual([
    '127.0.0.1',
    '127.0.0.1:80',
    'localhost',
    'localhost:80',
  ]);
});
