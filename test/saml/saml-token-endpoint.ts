/**
 * A loopback HTTP token endpoint for the `tokencli sso` process tests: it authenticates the
 * client, runs the real `verifySamlBearer` on the SAMLResponse / SAMLAssertion form value and
 * answers like the service (docs/contract.md §1, §3). It records every request, so tests can assert what
 * was sent — or that nothing was. (The full `tokencli serve` round trip is in sso-serve.test.ts.)
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReplayCache } from '../../src/saml/replay-cache.js';
import { verifySamlBearer } from '../../src/saml/verify.js';

export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  form: URLSearchParams;
}

export interface SamlTokenEndpoint {
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface EndpointOptions {
  clientId: string;
  clientSecret: string;
  issuer: string;
  publicKeyPem: string;
  users: string[];
}

function json(res: import('node:http').ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

export async function startSamlTokenEndpoint(options: EndpointOptions): Promise<SamlTokenEndpoint> {
  const requests: RecordedRequest[] = [];
  const replay = new ReplayCache();
  let baseUrl = '';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      requests.push({ method: req.method ?? '', path: url.pathname, query: url.search, form });
      if (req.method !== 'POST' || url.pathname !== '/v2/oauth/token')
        return json(res, 404, { error: 'not_found' });
      if (form.get('client_id') !== options.clientId || form.get('client_secret') !== options.clientSecret) {
        return json(res, 401, { error: 'invalid_client', error_description: 'client authentication failed' });
      }
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer') {
        return json(res, 400, {
          error: 'unsupported_grant_type',
          error_description: 'saml2-bearer only here',
        });
      }
      const kind = form.has('SAMLResponse') ? 'SAMLResponse' : 'SAMLAssertion';
      const value = form.get(kind);
      if (value === null || (form.has('SAMLResponse') && form.has('SAMLAssertion'))) {
        return json(res, 400, {
          error: 'invalid_request',
          error_description: 'exactly one of SAMLResponse or SAMLAssertion',
        });
      }
      try {
        const { email } = verifySamlBearer(value, {
          kind,
          trust: { issuer: options.issuer, publicKeyPem: options.publicKeyPem },
          audiences: [baseUrl, `${baseUrl}/v2/oauth/token`],
          isKnownUser: (e) => options.users.includes(e),
          replay,
        });
        return json(res, 200, {
          access_token: randomBytes(24).toString('base64url'),
          token_type: 'BearerToken',
          expires_in: 3599,
          email,
        });
      } catch (error) {
        return json(res, 400, { error: 'invalid_grant', error_description: (error as Error).message });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
