/**
 * Starts the token service in-process on a free loopback port, with a clock the test moves, and
 * wraps the HTTP calls the tests make. Everything goes over real HTTP.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterEach } from 'vitest';
import {
  demoServiceConfig,
  type ServiceConfig,
  startTokenService,
  type TokenServiceHandle,
  type TokenServiceOptions,
} from '../../src/server/index.js';
import { type RawResponse, rawHttp } from '../helpers/raw-http.js';

export const DEMO = {
  clientId: 'demo-client',
  clientSecret: 'demo-secret',
  redirectUri: 'http://127.0.0.1:8765/callback',
  email: 'demo@example.com',
  password: 'demo-password',
} as const;

/** The demo configuration, its app's fields replaced by `changes`. */
export function withDemoApp(changes: Partial<ServiceConfig['apps'][number]>): ServiceConfig {
  const config = demoServiceConfig();
  const app = config.apps[0];
  if (!app) throw new Error('the demo configuration has no app');
  Object.assign(app, changes);
  return config;
}

/** The demo configuration plus a second app, `other-client`, to check what one client cannot do with another's. */
export function withOtherClient(refreshTokens = false): ServiceConfig {
  const config = demoServiceConfig();
  config.apps.push({
    client_id: 'other-client',
    client_secret: 'other-secret',
    app_name: 'Other',
    redirect_uris: [DEMO.redirectUri],
    grants: refreshTokens ? ['authorization_code', 'refresh_token'] : ['authorization_code'],
    refresh_tokens: refreshTokens,
  });
  return config;
}

/** The platform's 403 body for credentials it refuses (subcode 017). */
export const REFUSED_CREDENTIALS_BODY = {
  error: {
    code: 403,
    message: 'Credential provided is invalid. or there was problem with your account.',
    subcode: '017',
  },
} as const;

/** A clock the test advances by hand. */
export class FakeClock {
  ms = 1_800_000_000_000;
  readonly now = (): number => this.ms;
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

/** The handle, its clock replaced by the fake one the test moves (both move the same time). */
export interface TestService extends Omit<TokenServiceHandle, 'clock'> {
  clock: FakeClock;
}

const running: TokenServiceHandle[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** A service with the demo configuration (or `config`), closed after the test. */
export async function startService(
  config: ServiceConfig = demoServiceConfig(),
  options: TokenServiceOptions = {},
): Promise<TestService> {
  const clock = new FakeClock();
  const service = await startTokenService(config, { now: clock.now, ...options });
  running.push(service);
  return Object.assign(service, { clock });
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function json(response: Response): Promise<JsonResponse> {
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: JSON.parse(text) as Record<string, unknown>,
  };
}

/** POST /v2/oauth/token with a form body. */
export async function postToken(
  baseUrl: string,
  params: Record<string, string>,
  init: { headers?: Record<string, string>; query?: Record<string, string> } = {},
): Promise<JsonResponse> {
  const query = init.query ? `?${new URLSearchParams(init.query)}` : '';
  const response = await fetch(`${baseUrl}/v2/oauth/token${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...init.headers },
    body: new URLSearchParams(params).toString(),
  });
  return json(response);
}

/** A grant as the demo app: its client id and secret, then `fields` (which may override them). */
function demoAppGrant(
  baseUrl: string,
  grantType: string,
  fields: Record<string, string>,
): Promise<JsonResponse> {
  return postToken(baseUrl, {
    grant_type: grantType,
    client_id: DEMO.clientId,
    client_secret: DEMO.clientSecret,
    ...fields,
  });
}

/** The refresh-token grant with the demo app's credentials; `extra` adds or overrides fields. */
export function refreshGrant(
  baseUrl: string,
  refreshToken: string,
  extra: Record<string, string> = {},
): Promise<JsonResponse> {
  return demoAppGrant(baseUrl, 'refresh_token', { refresh_token: refreshToken, ...extra });
}

/** The client-credentials grant with the demo app and user, fields overridable. */
export function clientCredentials(
  baseUrl: string,
  overrides: Record<string, string> = {},
): Promise<JsonResponse> {
  return demoAppGrant(baseUrl, 'client_credentials', {
    email: DEMO.email,
    password: DEMO.password,
    ...overrides,
  });
}

/** GET /v2/oauth/tokeninfo with a Bearer token and client_id in the query. */
export async function tokenInfo(
  baseUrl: string,
  token: string,
  clientId: string = DEMO.clientId,
): Promise<JsonResponse> {
  const response = await fetch(`${baseUrl}/v2/oauth/tokeninfo?client_id=${encodeURIComponent(clientId)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return json(response);
}

/** A PKCE pair (RFC 7636): a random verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/**
 * Posts the login form the way a browser would after the login page, without following the
 * redirect. `authorize` holds the authorization request parameters.
 */
export function postLogin(
  baseUrl: string,
  authorize: Record<string, string>,
  credentials: { email?: string; password?: string } = { email: DEMO.email, password: DEMO.password },
): Promise<Response> {
  const form = new URLSearchParams({ ...authorize });
  if (credentials.email !== undefined) form.set('email', credentials.email);
  if (credentials.password !== undefined) form.set('password', credentials.password);
  return fetch(`${baseUrl}/v2/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
}

/** Logs the demo user in and returns the code from the redirect (and the redirect URL). */
export async function obtainCode(
  baseUrl: string,
  authorize: Record<string, string> = {},
): Promise<{ code: string; location: URL }> {
  const response = await postLogin(baseUrl, {
    client_id: DEMO.clientId,
    response_type: 'code',
    ...authorize,
  });
  if (response.status !== 302) throw new Error(`login answered ${response.status}: ${await response.text()}`);
  const location = new URL(response.headers.get('location') ?? '');
  const code = location.searchParams.get('code');
  if (!code) throw new Error(`no code in ${location.href}`);
  return { code, location };
}

/** Exchanges a code with the demo client. */
export function exchangeCode(
  baseUrl: string,
  code: string,
  extra: Record<string, string> = {},
): Promise<JsonResponse> {
  return demoAppGrant(baseUrl, 'authorization_code', { code, ...extra });
}

export type { RawResponse };

/**
 * A request through node:http, for what fetch will not send: a chosen Host header, an odd
 * method, a body with a lying or missing content type, a chunked body.
 */
export function rawRequest(
  baseUrl: string,
  path: string,
  options: {
    method?: string;
    headers?: Record<string, string | number>;
    body?: string | Buffer;
    setHost?: boolean;
  } = {},
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return rawHttp(
    {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port,
      path,
      method: options.method ?? 'GET',
      headers: options.headers,
    },
    { body: options.body },
  );
}
