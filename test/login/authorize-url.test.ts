import { expect, test } from 'vitest';
import { buildAuthorizeUrl } from '../../src/login/authorize-url.js';

const base = {
  clientId: 'demo-client',
  redirectUri: 'http://127.0.0.1:53124/callback',
  state: 'st4te',
  codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
};

function query(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url).searchParams);
}

test('carries client_id, response_type, redirect_uri, state and the S256 challenge, nothing else', () => {
  const url = buildAuthorizeUrl({ ...base, baseUrl: 'https://api.example.com' });
  expect(url.startsWith('https://api.example.com/v2/oauth/authorize?')).toBe(true);
  expect(query(url)).toEqual({
    client_id: 'demo-client',
    response_type: 'code',
    redirect_uri: 'http://127.0.0.1:53124/callback',
    state: 'st4te',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  });
});

test('adds scope and endOtherSessions=True only when asked', () => {
  const url = buildAuthorizeUrl({
    ...base,
    baseUrl: 'https://api.example.com',
    scope: 'demoservices',
    endOtherSessions: true,
  });
  expect(query(url)).toMatchObject({ scope: 'demoservices', endOtherSessions: 'True' });
  const plain = buildAuthorizeUrl({
    ...base,
    baseUrl: 'https://api.example.com',
    scope: '',
    endOtherSessions: false,
  });
  expect(query(plain)).not.toHaveProperty('scope');
  expect(query(plain)).not.toHaveProperty('endOtherSessions');
});

test.each([
  ['https://gw.example/api', 'https://gw.example/api/v2/oauth/authorize'],
  ['https://gw.example/api/', 'https://gw.example/api/v2/oauth/authorize'],
  ['https://gw.example', 'https://gw.example/v2/oauth/authorize'],
  ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/v2/oauth/authorize'],
  ['https://gw.example/api?x=1#frag', 'https://gw.example/api/v2/oauth/authorize'],
])('keeps the path prefix of %s', (baseUrl, expected) => {
  const url = new URL(buildAuthorizeUrl({ ...base, baseUrl }));
  expect(`${url.origin}${url.pathname}`).toBe(expected);
  expect(url.hash).toBe('');
  expect(url.searchParams.has('x')).toBe(false);
});

test('escapes values so they cannot add parameters', () => {
  const url = buildAuthorizeUrl({ ...base, baseUrl: 'https://a.example', clientId: 'a&state=evil' });
  expect(new URL(url).searchParams.getAll('state')).toEqual(['st4te']);
  expect(new URL(url).searchParams.get('client_id')).toBe('a&state=evil');
});
