/**
 * The `--verbose` trace over real loopback exchanges: one line per request and response, and no
 * planted canary secret anywhere in it (docs/contract.md §2.2, §2.4) — whether sent, returned or echoed.
 */
import { describe, expect, it } from 'vitest';
import { requestToken } from '../../src/oauth/token-request.js';
import { fetchTokenInfo } from '../../src/oauth/tokeninfo.js';
import type { GrantRequest } from '../../src/oauth/types.js';
import { GrantType } from '../../src/protocol/grants.js';
import { rejectionOf } from '../helpers/rejection.js';
import { startServerForTest, testClient, testHttp } from './loopback-server.js';

const CANARY = {
  clientSecret: 'CANARY-client-secret-1',
  password: 'CANARY pass&word=2+',
  code: 'CANARY-code-3',
  codeVerifier: 'CANARY-verifier-4',
  refreshToken: 'CANARY-refresh-5',
  accessToken: 'CANARY-access-6',
  newAccessToken: 'CANARY-new-access-7',
  newRefreshToken: 'CANARY-new-refresh-8',
  saml: 'CANARY+SAML/response=9',
  samlAssertion: 'CANARY-SAML-assertion-10',
};
const ALL = Object.values(CANARY);

function expectNoCanary(lines: string[]): void {
  const text = lines.join('\n');
  for (const canary of ALL) {
    expect(text).not.toContain(canary);
    expect(text).not.toContain(encodeURIComponent(canary));
    expect(text).not.toContain(new URLSearchParams({ c: canary }).toString().slice(2));
  }
  expect(text).not.toContain('CANARY');
}

const CLIENT_CREDENTIALS: GrantRequest = {
  grant_type: GrantType.clientCredentials,
  email: 'demo@example.com',
  password: CANARY.password,
};

const failureOf = (promise: Promise<unknown>) => rejectionOf(promise, Error);

const GRANTS: [string, GrantRequest][] = [
  [
    'client_credentials',
    { grant_type: GrantType.clientCredentials, email: 'demo@example.com', password: CANARY.password },
  ],
  [
    'authorization_code',
    {
      grant_type: GrantType.authorizationCode,
      code: CANARY.code,
      redirect_uri: 'http://127.0.0.1:8765/callback',
      code_verifier: CANARY.codeVerifier,
    },
  ],
  ['refresh_token', { grant_type: GrantType.refreshToken, refresh_token: CANARY.refreshToken }],
  ['saml2-bearer SAMLResponse', { grant_type: GrantType.saml2Bearer, SAMLResponse: CANARY.saml }],
  ['saml2-bearer SAMLAssertion', { grant_type: GrantType.saml2Bearer, SAMLAssertion: CANARY.samlAssertion }],
];

describe('the verbose trace', () => {
  it.each(GRANTS)('%s: a request and a response line, no secret sent or returned', async (_name, grant) => {
    const server = await startServerForTest((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'set-cookie': `sid=${CANARY.newAccessToken}`,
      });
      res.end(
        JSON.stringify({
          access_token: CANARY.newAccessToken,
          token_type: 'BearerToken',
          expires_in: 3599,
          refresh_token: CANARY.newRefreshToken,
          refresh_token_expires_in: 2591999,
          email: 'demo@example.com',
        }),
      );
    });
    const lines: string[] = [];
    const http = testHttp({ trace: (line) => lines.push(line) });
    const tokens = await requestToken(testClient(server.origin, http, CANARY.clientSecret), grant);
    expect(tokens.access_token).toBe(CANARY.newAccessToken);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(`^http > POST ${server.origin}/v2/oauth/token headers=.*body=grant_type=`),
    );
    expect(lines[0]).toContain('client_id=demo-client');
    expect(lines[0]).toContain('"user-agent":"tokencli/');
    expect(lines[1]).toMatch(
      new RegExp(`^http < 200 POST ${server.origin}/v2/oauth/token in \\d+ ms headers=`),
    );
    expect(lines[1]).toContain('"token_type":"BearerToken"');
    expectNoCanary(lines);
  });

  it('tokeninfo: the Authorization header and the returned tokens are redacted', async () => {
    const server = await startServerForTest((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          access_token: CANARY.accessToken,
          refresh_token: CANARY.refreshToken,
          status: 'approved',
          expires_in: 60,
        }),
      );
    });
    const lines: string[] = [];
    await fetchTokenInfo(
      testClient(server.origin, testHttp({ trace: (l) => lines.push(l) })),
      CANARY.accessToken,
    );
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(`GET ${server.origin}/v2/oauth/tokeninfo?client_id=demo-client`);
    expect(lines[0]).toContain('"authorization":"Bearer [redacted]"');
    expect(lines[1]).toContain('"status":"approved"');
    expectNoCanary(lines);
  });

  it('errors, echoes, HTML and redirects carrying secrets stay redacted, across retries', async () => {
    let server = await startServerForTest((req, res, body, i) => {
      if (i === 0) {
        res.writeHead(503, { 'retry-after': '0', 'content-type': 'text/html' });
        res.end(`<html><body>echo: ${body} ${decodeURIComponent(body)}</body></html>`);
      } else if (i === 1) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: 'invalid_grant',
            error_description: `bad ${CANARY.refreshToken} from ${req.url}`,
          }),
        );
      }
    });
    const lines: string[] = [];
    const http = testHttp({ trace: (l) => lines.push(l) });
    const error = await failureOf(
      requestToken(testClient(server.origin, http, CANARY.clientSecret), {
        grant_type: GrantType.refreshToken,
        refresh_token: CANARY.refreshToken,
      }),
    );
    expect(lines.filter((l) => l.startsWith('http > '))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('http < '))).toHaveLength(2);
    expect(lines.some((l) => l.startsWith('http ! HTTP 503; retrying in 0 ms'))).toBe(true);
    expectNoCanary(lines);
    expectNoCanary([error.message]);

    await server.close();
    server = await startServerForTest((_req, res) => {
      res.writeHead(302, {
        location: `https://elsewhere.example/cb?code=${CANARY.code}&access_token=${CANARY.accessToken}`,
      });
      res.end();
    });
    lines.length = 0;
    const redirect = await failureOf(fetchTokenInfo(testClient(server.origin, http), CANARY.accessToken));
    expect(redirect.message).toContain(
      'https://elsewhere.example/cb?code=[redacted]&access_token=[redacted]',
    );
    expectNoCanary(lines);
    expectNoCanary([redirect.message]);
  });

  it('strips control characters from trace lines', async () => {
    const server = await startServerForTest((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('boom\u001b[2J\r\nline two');
    });
    const lines: string[] = [];
    await requestToken(
      testClient(server.origin, testHttp({ trace: (l) => lines.push(l) }), CANARY.clientSecret),
      CLIENT_CREDENTIALS,
    ).catch(() => {});
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
    for (const line of lines) expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(lines[1]).toContain('body=boom');
  });
});
