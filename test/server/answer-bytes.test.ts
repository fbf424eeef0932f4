/**
 * The token and tokeninfo success answers are put together from pre-serialised parts
 * (src/server/grants/answer-json.ts): byte for byte what JSON.stringify makes of their fields in
 * the documented order, also for names and emails JSON must escape or that are not ASCII.
 */
import { describe, expect, test } from 'vitest';
import { JsonText } from '../../src/server/http/reply.js';
import { demoServiceConfig, type ServiceConfig } from '../../src/server/index.js';
import { DEMO, postLogin, startService } from './helpers.js';

/** The demo configuration with an app name and an email that need escaping and are not ASCII. */
function oddNames(): ServiceConfig {
  const config = demoServiceConfig();
  const app = config.apps[0];
  const user = config.users[0];
  if (!app || !user) throw new Error('the demo configuration has no app or user');
  app.app_name = 'Démo "App" \\ \u2028 ✓';
  app.token_type = 'Bearer';
  user.email = 'jörg"\\@example.com';
  return config;
}

async function post(baseUrl: string, params: Record<string, string>): Promise<Response> {
  return fetch(`${baseUrl}/v2/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: DEMO.clientId, client_secret: DEMO.clientSecret, ...params }),
  });
}

/** The answer's text, checked against its content-length (which counts bytes, not characters). */
async function text(response: Response): Promise<string> {
  const body = await response.text();
  expect(response.status).toBe(200);
  expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(body));
  return body;
}

async function info(baseUrl: string, token: string): Promise<string> {
  return text(
    await fetch(`${baseUrl}/v2/oauth/tokeninfo?client_id=${DEMO.clientId}`, {
      headers: { authorization: `Bearer ${token}` },
    }),
  );
}

describe('token and tokeninfo answers, byte for byte', () => {
  for (const [name, config, email, appName, tokenType] of [
    ['the demo configuration', demoServiceConfig(), DEMO.email, 'Demo App', 'BearerToken'],
    ['names JSON escapes', oddNames(), 'jörg"\\@example.com', 'Démo "App" \\ \u2028 ✓', 'Bearer'],
  ] as const) {
    test(`client credentials, then tokeninfo: ${name}`, async () => {
      const service = await startService(config);
      const issued = await text(
        await post(service.baseUrl, { grant_type: 'client_credentials', email, password: DEMO.password }),
      );
      const token = (JSON.parse(issued) as { access_token: string }).access_token;
      expect(issued).toBe(
        JSON.stringify({
          access_token: token,
          token_type: tokenType,
          expires_in: 3600,
          redirect_url: DEMO.redirectUri,
          email,
        }),
      );
      service.clock.advance(1.6);
      expect(await info(service.baseUrl, token)).toBe(
        JSON.stringify({
          access_token: token,
          token_type: tokenType,
          expires_in: 3598,
          status: 'approved',
          scope: 'demoservices',
          redirect_url: DEMO.redirectUri,
          email,
          app_name: appName,
        }),
      );
    });

    test(`authorization code with a refresh token, then tokeninfo: ${name}`, async () => {
      const service = await startService(config);
      const login = await postLogin(
        service.baseUrl,
        { client_id: DEMO.clientId, response_type: 'code' },
        { email, password: DEMO.password },
      );
      const code = new URL(login.headers.get('location') ?? '').searchParams.get('code') ?? '';
      const issued = await text(await post(service.baseUrl, { grant_type: 'authorization_code', code }));
      const tokens = JSON.parse(issued) as { access_token: string; refresh_token: string };
      expect(issued).toBe(
        JSON.stringify({
          access_token: tokens.access_token,
          token_type: tokenType,
          expires_in: 3600,
          refresh_token: tokens.refresh_token,
          refresh_token_expires_in: 2592000,
          redirect_url: DEMO.redirectUri,
          email,
        }),
      );
      service.clock.advance(10);
      expect(await info(service.baseUrl, tokens.access_token)).toBe(
        JSON.stringify({
          access_token: tokens.access_token,
          token_type: tokenType,
          expires_in: 3590,
          status: 'approved',
          scope: 'demoservices',
          refresh_token: tokens.refresh_token,
          refresh_token_expires_in: 2592000 - 10,
          redirect_url: DEMO.redirectUri,
          email,
          app_name: appName,
        }),
      );
    });
  }
});

describe('JsonText', () => {
  test('serialises as the JSON it holds, wherever it is nested', () => {
    const text = '{"a":"x\\"y","b":[1,null]}';
    expect(JSON.stringify({ body: new JsonText(text) })).toBe(`{"body":${text}}`);
  });
});
