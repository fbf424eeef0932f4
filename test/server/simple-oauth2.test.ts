/**
 * A standard OAuth client library nobody here wrote, simple-oauth2, completes the client
 * credentials grant (the platform's variant: email and password as extra form values) and the
 * authorization-code + refresh grants against the service.
 */
import { AuthorizationCode, ClientCredentials } from 'simple-oauth2';
import { expect, test } from 'vitest';
import { DEMO, postLogin, startService, tokenInfo } from './helpers.js';

const client = { id: DEMO.clientId, secret: DEMO.clientSecret };

test('simple-oauth2 completes the client-credentials grant (client id and secret in the body)', async () => {
  const service = await startService();
  const oauth = new ClientCredentials({
    client,
    auth: { tokenHost: service.baseUrl, tokenPath: '/v2/oauth/token' },
    options: { authorizationMethod: 'body' },
  });
  const accessToken = await oauth.getToken({ email: DEMO.email, password: DEMO.password });
  expect(accessToken.token).toMatchObject({ token_type: 'BearerToken', expires_in: 3600, email: DEMO.email });
  expect(accessToken.expired()).toBe(false);
  expect((await tokenInfo(service.baseUrl, accessToken.token.access_token as string)).status).toBe(200);
});

test('simple-oauth2 completes the authorization-code and refresh grants (HTTP Basic client auth)', async () => {
  const service = await startService();
  const oauth = new AuthorizationCode({
    client,
    auth: { tokenHost: service.baseUrl, tokenPath: '/v2/oauth/token', authorizePath: '/v2/oauth/authorize' },
  });
  const authorizeUrl = new URL(oauth.authorizeURL({ redirect_uri: DEMO.redirectUri, state: 'xyz' }));
  expect(authorizeUrl.pathname).toBe('/v2/oauth/authorize');

  // The browser's part: the login page, then its form posted back.
  const page = await fetch(authorizeUrl);
  expect(page.status).toBe(200);
  const login = await postLogin(service.baseUrl, Object.fromEntries(authorizeUrl.searchParams));
  expect(login.status).toBe(302);
  const callback = new URL(login.headers.get('location') ?? '');
  expect(callback.searchParams.get('state')).toBe('xyz');

  const accessToken = await oauth.getToken({
    code: callback.searchParams.get('code') ?? '',
    redirect_uri: DEMO.redirectUri,
  });
  expect(accessToken.token).toMatchObject({ token_type: 'BearerToken', refresh_token_expires_in: 2592000 });

  const refreshed = await accessToken.refresh();
  expect(refreshed.token.access_token).not.toBe(accessToken.token.access_token);
  expect(refreshed.token.refresh_token).toBe(accessToken.token.refresh_token);
  expect((await tokenInfo(service.baseUrl, refreshed.token.access_token as string)).body).toMatchObject({
    status: 'approved',
    email: DEMO.email,
  });
});
