/**
 * The `token_type` of an application's answers: the platform's "BearerToken" unless its
 * configuration opts into another (strict OAuth clients refuse anything but "Bearer",
 * RFC 6749 §7.1), in every grant's token response and in tokeninfo.
 */
import { ClientCredentials } from 'simple-oauth2';
import { describe, expect, test } from 'vitest';
import { demoServiceConfig, type ServiceConfig } from '../../src/server/index.js';
import {
  clientCredentials,
  DEMO,
  exchangeCode,
  obtainCode,
  postToken,
  startService,
  tokenInfo,
} from './helpers.js';
import { samlToken, signedAssertion, ssoConfig } from './saml.js';

/** The demo configuration whose application answers with `tokenType`. */
function withTokenType(
  tokenType: 'Bearer' | 'bearer' | 'BearerToken',
  config = demoServiceConfig(),
): ServiceConfig {
  const [app] = config.apps;
  if (!app) throw new Error('the demo configuration has no application');
  app.token_type = tokenType;
  return config;
}

/** Every grant's token response and the tokeninfo of each token, as `token_type` values. */
async function tokenTypesOfEveryAnswer(config: ServiceConfig): Promise<string[]> {
  const service = await startService(config);
  const types: unknown[] = [];
  const credentials = await clientCredentials(service.baseUrl);
  expect(credentials.status).toBe(200);
  types.push(credentials.body.token_type);
  const { code } = await obtainCode(service.baseUrl);
  const exchanged = await exchangeCode(service.baseUrl, code);
  expect(exchanged.status).toBe(200);
  types.push(exchanged.body.token_type);
  const refreshed = await postToken(service.baseUrl, {
    grant_type: 'refresh_token',
    client_id: DEMO.clientId,
    client_secret: DEMO.clientSecret,
    refresh_token: exchanged.body.refresh_token as string,
  });
  expect(refreshed.status).toBe(200);
  types.push(refreshed.body.token_type);
  const saml = await samlToken(service.baseUrl, { SAMLAssertion: signedAssertion(service) });
  expect(saml.status).toBe(200);
  types.push(saml.body.token_type);
  for (const answer of [credentials, refreshed, saml]) {
    const info = await tokenInfo(service.baseUrl, answer.body.access_token as string);
    expect(info.status).toBe(200);
    types.push(info.body.token_type);
  }
  return types as string[];
}

describe('token_type', () => {
  test('is the platform\'s "BearerToken" by default, in every grant and in tokeninfo', async () => {
    expect(await tokenTypesOfEveryAnswer(ssoConfig())).toEqual(Array(7).fill('BearerToken'));
  });

  test('is the configured "Bearer" in every grant and in tokeninfo', async () => {
    expect(await tokenTypesOfEveryAnswer(withTokenType('Bearer', ssoConfig()))).toEqual(
      Array(7).fill('Bearer'),
    );
  });

  test("belongs to the application: another one keeps the platform's", async () => {
    const config = withTokenType('bearer');
    const [demo] = config.apps;
    if (!demo) throw new Error('no demo app');
    const { token_type: _configured, ...unconfigured } = demo;
    config.apps.push({ ...unconfigured, client_id: 'other-client', client_secret: 'other-secret' });
    const service = await startService(config);
    const mine = await clientCredentials(service.baseUrl);
    const other = await clientCredentials(service.baseUrl, {
      client_id: 'other-client',
      client_secret: 'other-secret',
    });
    expect([mine.body.token_type, other.body.token_type]).toEqual(['bearer', 'BearerToken']);
    const info = await tokenInfo(service.baseUrl, other.body.access_token as string, 'other-client');
    expect(info.body.token_type).toBe('BearerToken');
  });

  test('a bad value is refused at start, naming the key', async () => {
    const config = demoServiceConfig();
    (config.apps[0] as unknown as Record<string, unknown>).token_type = 'mac';
    await expect(startService(config)).rejects.toThrow(
      /^apps\[0\]\.token_type: must be one of "BearerToken", "Bearer", "bearer"/,
    );
  });

  test('simple-oauth2 reads a "Bearer" answer as it reads the platform\'s', async () => {
    // The strict clients (openid-client, oauth4webapi) are not installed; simple-oauth2 is the
    // standard client at hand, and checks the answer's shape and expiry.
    const service = await startService(withTokenType('Bearer'));
    const oauth = new ClientCredentials({
      client: { id: DEMO.clientId, secret: DEMO.clientSecret },
      auth: { tokenHost: service.baseUrl, tokenPath: '/v2/oauth/token' },
    });
    const accessToken = await oauth.getToken({ email: DEMO.email, password: DEMO.password });
    expect(accessToken.token).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(accessToken.expired()).toBe(false);
  });
});
