import { describe, expect, test } from 'vitest';
import {
  clientCredentials,
  DEMO,
  postToken,
  REFUSED_CREDENTIALS_BODY,
  rawRequest,
  startService,
  tokenInfo,
  withDemoApp,
} from './helpers.js';

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('client credentials grant', () => {
  test('answers the sample payload shape with no-store headers', async () => {
    const service = await startService();
    const r = await clientCredentials(service.baseUrl);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual([
      'access_token',
      'token_type',
      'expires_in',
      'redirect_url',
      'email',
    ]);
    expect(r.body).toMatchObject({
      token_type: 'BearerToken',
      expires_in: 3600,
      redirect_url: DEMO.redirectUri,
      email: DEMO.email,
    });
    expect(r.body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('pragma')).toBe('no-cache');
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  test('expires_in is floored: a token answered a moment after it was issued says 3599', async () => {
    // Every reading of the clock is a millisecond later, as on a busy machine; the platform's
    // samples show 3599 for a fresh hour token.
    let ms = 1_800_000_000_000;
    const service = await startService(undefined, { now: () => ms++ });
    const r = await clientCredentials(service.baseUrl);
    expect(r.body.expires_in).toBe(3599);
  });

  test('tokeninfo floors the time left too: 0.4 s after issue it says 3599', async () => {
    const service = await startService();
    const r = await clientCredentials(service.baseUrl);
    expect(r.body.expires_in).toBe(3600); // this test's clock stands still
    service.clock.advance(0.4);
    expect((await tokenInfo(service.baseUrl, r.body.access_token as string)).body.expires_in).toBe(3599);
  });

  test('every token is new', async () => {
    const service = await startService();
    const a = await clientCredentials(service.baseUrl);
    const b = await clientCredentials(service.baseUrl);
    expect(a.body.access_token).not.toBe(b.body.access_token);
  });

  test('the email matches without regard to case and the registered spelling is returned', async () => {
    const service = await startService();
    const r = await clientCredentials(service.baseUrl, { email: 'Demo@Example.COM' });
    expect(r.status).toBe(200);
    expect(r.body.email).toBe(DEMO.email);
  });

  test.each([
    ['wrong password', { password: 'nope' }],
    ['unknown user', { email: 'nobody@example.com' }],
  ])('%s gets the 403 subcode 017 body', async (_name, overrides) => {
    const service = await startService();
    const r = await clientCredentials(service.baseUrl, overrides);
    expect(r.status).toBe(403);
    expect(r.body).toEqual(REFUSED_CREDENTIALS_BODY);
  });

  test('missing email or password is invalid_request', async () => {
    const service = await startService();
    const r = await postToken(service.baseUrl, {
      grant_type: 'client_credentials',
      client_id: DEMO.clientId,
      client_secret: DEMO.clientSecret,
      email: DEMO.email,
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'invalid_request',
      error_description: 'email and password are required for grant_type client_credentials',
    });
  });

  test('parameters in the query string work too', async () => {
    const service = await startService();
    const r = await postToken(
      service.baseUrl,
      {},
      {
        query: {
          grant_type: 'client_credentials',
          client_id: DEMO.clientId,
          client_secret: DEMO.clientSecret,
          email: DEMO.email,
          password: DEMO.password,
        },
      },
    );
    expect(r.status).toBe(200);
  });

  test('a POST without any body, parameters in the query, needs no content type', async () => {
    const service = await startService();
    const query = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: DEMO.clientId,
      client_secret: DEMO.clientSecret,
      email: DEMO.email,
      password: DEMO.password,
    });
    const r = await rawRequest(service.baseUrl, `/v2/oauth/token?${query}`, { method: 'POST' });
    expect(r.status).toBe(200);
  });

  test('query and body parameters merge', async () => {
    const service = await startService();
    const r = await postToken(
      service.baseUrl,
      { email: DEMO.email, password: DEMO.password },
      {
        query: {
          grant_type: 'client_credentials',
          client_id: DEMO.clientId,
          client_secret: DEMO.clientSecret,
        },
      },
    );
    expect(r.status).toBe(200);
  });

  test('a parameter in both query and body is refused (RFC 6749 §3.2)', async () => {
    const service = await startService();
    const r = await postToken(
      service.baseUrl,
      {
        grant_type: 'client_credentials',
        client_id: DEMO.clientId,
        client_secret: DEMO.clientSecret,
        email: DEMO.email,
        password: DEMO.password,
      },
      { query: { client_id: 'other' } },
    );
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'invalid_request',
      error_description: 'parameter client_id is given more than once',
    });
  });

  test('an empty parameter counts as omitted', async () => {
    const service = await startService();
    const r = await clientCredentials(service.baseUrl, { email: '' });
    expect(r.body.error_description).toBe(
      'email and password are required for grant_type client_credentials',
    );
  });
});

describe('client authentication', () => {
  test('a missing client_id gets the platform body', async () => {
    const service = await startService();
    const r = await postToken(service.baseUrl, { grant_type: 'client_credentials', client_secret: 'x' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      ErrorCode: 'invalid_request',
      Error: 'invalid or null consumer key: ',
      Hint: "please ensure that you are passing the consumer key like so: 'client_id={consumer_key}'",
    });
  });

  test('an unknown client_id is echoed, sanitised', async () => {
    const service = await startService();
    const r = await clientCredentials(service.baseUrl, { client_id: 'nope\u001b[31m\n' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      ErrorCode: 'invalid_request',
      Error: 'invalid or null consumer key: nope[31m',
      Hint: "please ensure that you are passing the consumer key like so: 'client_id={consumer_key}'",
    });
  });

  test('a very long unknown client_id is cut short', async () => {
    const service = await startService();
    const r = await clientCredentials(service.baseUrl, { client_id: 'x'.repeat(5000) });
    expect(r.body.Error).toBe(`invalid or null consumer key: ${'x'.repeat(200)}…`);
  });

  test.each([
    ['wrong secret', { client_secret: 'wrong' }, 'client authentication failed: wrong client_secret'],
    [
      'secret of another length',
      { client_secret: 'demo-secret-longer' },
      'client authentication failed: wrong client_secret',
    ],
    ['missing secret', { client_secret: '' }, 'client_secret is required'],
  ])('%s is invalid_client 401', async (_name, overrides, description) => {
    const service = await startService();
    const r = await clientCredentials(service.baseUrl, overrides);
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: 'invalid_client', error_description: description });
    expect(r.headers.get('www-authenticate')).toBe('Basic realm="tokencli"');
  });

  test('HTTP Basic client authentication works (RFC 6749 §2.3.1)', async () => {
    const service = await startService();
    const r = await postToken(
      service.baseUrl,
      { grant_type: 'client_credentials', email: DEMO.email, password: DEMO.password },
      { headers: { authorization: basic(DEMO.clientId, DEMO.clientSecret) } },
    );
    expect(r.status).toBe(200);
  });

  test('Basic credentials are form-decoded', async () => {
    const app = { client_id: 'id:with+plus', client_secret: 'secret with space&more' };
    const service = await startService(withDemoApp(app));
    const r = await postToken(
      service.baseUrl,
      { grant_type: 'client_credentials', email: DEMO.email, password: DEMO.password },
      { headers: { authorization: basic(app.client_id, app.client_secret) } },
    );
    expect(r.status).toBe(200);
  });

  test('a wrong secret in Basic is invalid_client', async () => {
    const service = await startService();
    const r = await postToken(
      service.baseUrl,
      { grant_type: 'client_credentials', email: DEMO.email, password: DEMO.password },
      { headers: { authorization: basic(DEMO.clientId, 'wrong') } },
    );
    expect(r.status).toBe(401);
    expect(r.body.error).toBe('invalid_client');
  });

  test('malformed Basic is invalid_client', async () => {
    const service = await startService();
    const r = await postToken(
      service.baseUrl,
      { grant_type: 'client_credentials' },
      { headers: { authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` } },
    );
    expect(r.status).toBe(401);
    expect(r.body).toEqual({
      error: 'invalid_client',
      error_description: 'the Authorization: Basic header is malformed (RFC 6749 §2.3.1)',
    });
  });

  test('Basic plus client_secret is refused: one method only (RFC 6749 §2.3)', async () => {
    const service = await startService();
    const r = await clientCredentials(service.baseUrl, {});
    expect(r.status).toBe(200);
    const both = await postToken(
      service.baseUrl,
      {
        grant_type: 'client_credentials',
        client_secret: DEMO.clientSecret,
        email: DEMO.email,
        password: DEMO.password,
      },
      { headers: { authorization: basic(DEMO.clientId, DEMO.clientSecret) } },
    );
    expect(both.status).toBe(400);
    expect(both.body.error_description).toBe(
      'use one client authentication method: Basic or client_secret, not both',
    );
  });

  test('Basic with a client_id parameter naming another client is refused', async () => {
    const service = await startService();
    const r = await postToken(
      service.baseUrl,
      { grant_type: 'client_credentials', client_id: 'other', email: DEMO.email, password: DEMO.password },
      { headers: { authorization: basic(DEMO.clientId, DEMO.clientSecret) } },
    );
    expect(r.status).toBe(400);
    expect(r.body.error_description).toBe(
      'client_id differs from the client named in the Authorization header',
    );
  });

  test('Basic with the same client_id parameter is fine', async () => {
    const service = await startService();
    const r = await postToken(
      service.baseUrl,
      {
        grant_type: 'client_credentials',
        client_id: DEMO.clientId,
        email: DEMO.email,
        password: DEMO.password,
      },
      { headers: { authorization: basic(DEMO.clientId, DEMO.clientSecret) } },
    );
    expect(r.status).toBe(200);
  });
});

describe('grant types', () => {
  test('a missing grant_type is invalid_request', async () => {
    const service = await startService();
    const r = await postToken(service.baseUrl, {
      client_id: DEMO.clientId,
      client_secret: DEMO.clientSecret,
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid_request', error_description: 'grant_type is required' });
  });

  test('an unknown grant_type is unsupported_grant_type', async () => {
    const service = await startService();
    const r = await clientCredentials(service.baseUrl, { grant_type: 'password' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'unsupported_grant_type',
      error_description: 'unknown grant_type password',
    });
  });

  test.each([
    ['client_credentials'],
    ['refresh_token'],
    ['urn:ietf:params:oauth:client-assertion-type:saml2-bearer'],
  ])('%s on an app not enabled for it is unauthorized_client', async (grant) => {
    const service = await startService(
      withDemoApp({ grants: ['authorization_code'], refresh_tokens: false }),
    );
    const r = await clientCredentials(service.baseUrl, { grant_type: grant });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'unauthorized_client',
      error_description: `this application is not enabled for grant_type ${grant}`,
    });
  });

  test('endOtherSessions must be True or False', async () => {
    const service = await startService();
    const r = await clientCredentials(service.baseUrl, { endOtherSessions: 'yes' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'invalid_request',
      error_description: 'endOtherSessions must be True or False',
    });
    expect((await clientCredentials(service.baseUrl, { endOtherSessions: 'FALSE' })).status).toBe(200);
  });
});

describe('request bodies', () => {
  test('a JSON body is refused with 415', async () => {
    const service = await startService();
    const r = await rawRequest(service.baseUrl, '/v2/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials' }),
    });
    expect(r.status).toBe(415);
    expect(JSON.parse(r.body)).toEqual({
      error: 'invalid_request',
      error_description: 'the request body must be application/x-www-form-urlencoded (RFC 6749 §4.1.3)',
    });
  });

  test('a body without a content type is refused with 415', async () => {
    const service = await startService();
    const r = await rawRequest(service.baseUrl, '/v2/oauth/token', { method: 'POST', body: 'grant_type=x' });
    expect(r.status).toBe(415);
  });

  test('the form content type may carry a charset and any case', async () => {
    const service = await startService();
    const r = await rawRequest(service.baseUrl, '/v2/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'Application/X-WWW-Form-Urlencoded; charset=UTF-8' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: DEMO.clientId,
        client_secret: DEMO.clientSecret,
        email: DEMO.email,
        password: DEMO.password,
      }).toString(),
    });
    expect(r.status).toBe(200);
  });
});
