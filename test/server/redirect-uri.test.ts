import { describe, expect, test } from 'vitest';
import { redirectWithCode, resolveRedirectUri } from '../../src/server/redirect-uri.js';

describe('resolveRedirectUri', () => {
  const registered = [
    'https://app.example/cb?x=1',
    'http://127.0.0.1:8765/callback',
    'http://[::1]:8765/callback',
    'http://localhost:8765/callback',
    'com.example.app:/oauth',
  ];

  test.each([
    [undefined, 'https://app.example/cb?x=1'],
    ['https://app.example/cb?x=1', 'https://app.example/cb?x=1'],
    ['com.example.app:/oauth', 'com.example.app:/oauth'],
    ['http://127.0.0.1:8765/callback', 'http://127.0.0.1:8765/callback'],
    ['http://127.0.0.1:1/callback', 'http://127.0.0.1:1/callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1/callback'],
    ['http://[::1]:50000/callback', 'http://[::1]:50000/callback'],
    ['http://localhost:50000/callback', 'http://localhost:50000/callback'],
  ])('%s matches, redirecting to %s', (requested, expected) => {
    expect(resolveRedirectUri(requested, registered)).toBe(expected);
  });

  test.each([
    'https://app.example/cb',
    'https://app.example/cb?x=2',
    'https://app.example:444/cb?x=1',
    'https://APP.example/cb?x=1',
    'http://127.0.0.1:8765/callback/',
    'http://127.0.0.1:8765/callback?x=1',
    'http://127.0.0.2:8765/callback',
    'https://127.0.0.1:9999/callback',
    'http://127.0.0.1:9999/callback#frag',
    'http://user:pw@127.0.0.1:9999/callback',
    'com.example.app:/other',
    'not a uri',
  ])('%s matches nothing', (requested) => {
    expect(resolveRedirectUri(requested, registered)).toBeUndefined();
  });

  test('a non-loopback URI never matches on another port', () => {
    expect(resolveRedirectUri('http://app.example:81/cb', ['http://app.example/cb'])).toBeUndefined();
  });
});

describe('redirectWithCode', () => {
  test.each([
    ['https://a.example/cb', 'https://a.example/cb?code=C&state=S'],
    ['https://a.example/cb?', 'https://a.example/cb?code=C&state=S'],
    ['https://a.example/cb?t=a%20b+c', 'https://a.example/cb?t=a%20b+c&code=C&state=S'],
  ])('%s keeps its own query', (uri, expected) => {
    expect(redirectWithCode(uri, 'C', 'S')).toBe(expected);
  });

  test('encodes code and state', () => {
    expect(redirectWithCode('https://a.example/cb', 'c/d', 'a b&c=d')).toBe(
      'https://a.example/cb?code=c%2Fd&state=a%20b%26c%3Dd',
    );
  });

  test('omits a missing state', () => {
    expect(redirectWithCode('https://a.example/cb', 'C', undefined)).toBe('https://a.example/cb?code=C');
  });
});
