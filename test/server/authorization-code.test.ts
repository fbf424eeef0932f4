import { describe, expect, test } from 'vitest';
import { demoServiceConfig } from '../../src/server/index.js';
import {
  DEMO,
  exchangeCode,
  obtainCode,
  pkcePair,
  postToken,
  refreshGrant,
  startService,
  tokenInfo,
  withDemoApp,
  withOtherClient,
} from './helpers.js';

const INVALID = { error: 'invalid_grant', error_description: 'the authorization code is invalid or expired' };

describe('authorization code exchange', () => {
  test('returns access and refresh tokens in the sample shape', async () => {
    const service = await startService();
    const { code } = await obtainCode(service.baseUrl);
    const r = await exchangeCode(service.baseUrl, code, { redirect_uri: DEMO.redirectUri });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual([
      'access_token',
      'token_type',
      'expires_in',
      'refresh_token',
      'refresh_token_expires_in',
      'redirect_url',
      'email',
    ]);
    expect(r.body).toMatchObject({
      token_type: 'BearerToken',
      expires_in: 3600,
      refresh_token_expires_in: 2592000,
      redirect_url: DEMO.redirectUri,
      email: DEMO.email,
    });
    expect(r.body.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.body.refresh_token).not.toBe(r.body.access_token);
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  test('no refresh token for an app without refresh support (docs/contract.md §1 rule 2)', async () => {
    const service = await startService(withDemoApp({ refresh_tokens: false }));
    const { code } = await obtainCode(service.baseUrl);
    const r = await exchangeCode(service.baseUrl, code);
    expect(r.status).toBe(200);
    expect(r.body.refresh_token).toBeUndefined();
    expect(r.body.refresh_token_expires_in).toBeUndefined();
  });

  test('a missing code is invalid_request', async () => {
    const service = await startService();
    const r = await postToken(service.baseUrl, {
      grant_type: 'authorization_code',
      client_id: DEMO.clientId,
      client_secret: DEMO.clientSecret,
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid_request', error_description: 'code is required' });
  });

  test('an unknown code is invalid_grant', async () => {
    const service = await startService();
    const r = await exchangeCode(service.baseUrl, 'x'.repeat(43));
    expect(r.status).toBe(400);
    expect(r.body).toEqual(INVALID);
  });

  test('a code is good once; a replay also revokes the tokens it produced (RFC 6749 §4.1.2)', async () => {
    const service = await startService();
    const { code } = await obtainCode(service.baseUrl);
    const first = await exchangeCode(service.baseUrl, code);
    expect(first.status).toBe(200);
    expect((await tokenInfo(service.baseUrl, first.body.access_token as string)).status).toBe(200);
    const second = await exchangeCode(service.baseUrl, code);
    expect(second.status).toBe(400);
    expect(second.body).toEqual({
      error: 'invalid_grant',
      error_description: 'the authorization code was already used; the tokens issued for it are revoked',
    });
    expect((await tokenInfo(service.baseUrl, first.body.access_token as string)).status).toBe(401);
    const refresh = await refreshGrant(service.baseUrl, first.body.refresh_token as string);
    expect(refresh.status).toBe(400);
  });

  test('a code expires after code_ttl (fake clock)', async () => {
    const service = await startService();
    const a = await obtainCode(service.baseUrl);
    const b = await obtainCode(service.baseUrl);
    service.clock.advance(19.9);
    expect((await exchangeCode(service.baseUrl, a.code)).status).toBe(200);
    service.clock.advance(0.1);
    const late = await exchangeCode(service.baseUrl, b.code);
    expect(late.status).toBe(400);
    expect(late.body).toEqual(INVALID);
  });

  test('code_ttl comes from the configuration', async () => {
    const config = { ...demoServiceConfig(), code_ttl: 60 };
    const service = await startService(config);
    const { code } = await obtainCode(service.baseUrl);
    service.clock.advance(59);
    expect((await exchangeCode(service.baseUrl, code)).status).toBe(200);
  });

  test('another client cannot exchange the code', async () => {
    const service = await startService(withOtherClient());
    const { code } = await obtainCode(service.baseUrl);
    const r = await exchangeCode(service.baseUrl, code, {
      client_id: 'other-client',
      client_secret: 'other-secret',
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'invalid_grant',
      error_description: 'the authorization code was issued to another client',
    });
    // …and the code is spent.
    expect((await exchangeCode(service.baseUrl, code)).status).toBe(400);
  });

  test('a redirect_uri other than the authorization request one is refused', async () => {
    const service = await startService();
    const { code } = await obtainCode(service.baseUrl, { redirect_uri: 'http://127.0.0.1:40000/callback' });
    const r = await exchangeCode(service.baseUrl, code, { redirect_uri: DEMO.redirectUri });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'invalid_grant',
      error_description: 'redirect_uri differs from the one of the authorization request',
    });
  });

  test('a redirect_uri given at authorize is required at the exchange (RFC 6749 §4.1.3)', async () => {
    const service = await startService();
    const { code } = await obtainCode(service.baseUrl, { redirect_uri: DEMO.redirectUri });
    const r = await exchangeCode(service.baseUrl, code);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'invalid_grant',
      error_description:
        'redirect_uri is required: the authorization request had one, and the exchange must repeat it',
    });
  });

  test('the redirect_uri used at authorize, port included, is accepted', async () => {
    const service = await startService();
    const { code } = await obtainCode(service.baseUrl, { redirect_uri: 'http://127.0.0.1:40000/callback' });
    const r = await exchangeCode(service.baseUrl, code, { redirect_uri: 'http://127.0.0.1:40000/callback' });
    expect(r.status).toBe(200);
  });

  test('without redirect_uri at authorize, the registered one is bound', async () => {
    const service = await startService();
    const { code } = await obtainCode(service.baseUrl);
    expect((await exchangeCode(service.baseUrl, code, { redirect_uri: DEMO.redirectUri })).status).toBe(200);
  });
});

describe('PKCE (S256)', () => {
  test('the matching verifier is accepted', async () => {
    const service = await startService();
    const { verifier, challenge } = pkcePair();
    const { code } = await obtainCode(service.baseUrl, {
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    expect((await exchangeCode(service.baseUrl, code, { code_verifier: verifier })).status).toBe(200);
  });

  test('a wrong verifier is refused', async () => {
    const service = await startService();
    const { challenge } = pkcePair();
    const { code } = await obtainCode(service.baseUrl, {
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const r = await exchangeCode(service.baseUrl, code, { code_verifier: pkcePair().verifier });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier does not match the code_challenge',
    });
  });

  test('a malformed verifier is refused', async () => {
    const service = await startService();
    const { challenge } = pkcePair();
    const { code } = await obtainCode(service.baseUrl, {
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const r = await exchangeCode(service.baseUrl, code, { code_verifier: 'short' });
    expect(r.body.error_description).toBe('code_verifier does not match the code_challenge');
  });

  test('a missing verifier is refused when the code has a challenge', async () => {
    const service = await startService();
    const { challenge } = pkcePair();
    const { code } = await obtainCode(service.baseUrl, {
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const r = await exchangeCode(service.baseUrl, code);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier is required: the authorization request had a code_challenge',
    });
  });

  test('a verifier for a code issued without a challenge is refused', async () => {
    const service = await startService();
    const { code } = await obtainCode(service.baseUrl);
    const r = await exchangeCode(service.baseUrl, code, { code_verifier: pkcePair().verifier });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier given, but the authorization request had no code_challenge',
    });
  });
});
