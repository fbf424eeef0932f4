/**
 * The check of the authorize URL before the browser login (src/oauth/authorize-check.ts): which
 * answers end the login (a browser could not get past them) and which only warn.
 */
import { describe, expect, test } from 'vitest';
import { checkAuthorizeUrl } from '../../src/oauth/authorize-check.js';
import { ServiceError } from '../../src/oauth/service-error.js';
import { json, startServerForTest, testHttp } from '../http/loopback-server.js';

const QUERY = '/v2/oauth/authorize?client_id=app&response_type=code&state=s';

async function answering(status: number, headers: Record<string, string> = {}, body = '') {
  const server = await startServerForTest((_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html', ...headers });
    res.end(body);
  });
  return { server, url: `${server.origin}${QUERY}` };
}

describe('checkAuthorizeUrl', () => {
  test('a login page or a redirect (a sign-in portal): the browser can go on; one GET, nothing followed', async () => {
    for (const [status, headers] of [
      [200, {}],
      [302, { location: 'https://sso.example/login' }],
    ] as const) {
      const { server, url } = await answering(status, headers, '<html>sign in</html>');
      await expect(checkAuthorizeUrl(testHttp(), url, { clientId: 'app' })).resolves.toEqual({
        outcome: 'answers',
      });
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${QUERY}`]);
    }
  });

  test.each([401, 403, 429, 503])('%i, which a browser may get past: inconclusive', async (status) => {
    const { url } = await answering(status);
    await expect(checkAuthorizeUrl(testHttp(), url, { clientId: 'app' })).resolves.toEqual({
      outcome: 'inconclusive',
      status,
    });
  });

  test("400 with the service's unknown-client body: a refusal (service_refused) naming the client", async () => {
    const server = await startServerForTest((_req, res) =>
      json(res, 400, {
        ErrorCode: 'invalid_request',
        Error: 'invalid or null consumer key: app',
        Hint: "please ensure that you are passing the consumer key like so: 'client_id={consumer_key}'",
      }),
    );
    const error = await checkAuthorizeUrl(testHttp(), `${server.origin}${QUERY}`, { clientId: 'app' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServiceError);
    const refusal = error as ServiceError;
    expect(refusal.code).toBe('service_refused');
    expect(refusal.context).toMatchObject({ endpoint: 'authorize', unknownClient: true, clientId: 'app' });
    expect(refusal.message).toBe(
      `the token service refused the login request at ${server.origin}/v2/oauth/authorize (HTTP 400, invalid_request): invalid or null consumer key: app`,
    );
  });

  test.each([404, 502])('%i: the service is not there or failing (service_unavailable)', async (status) => {
    const { url } = await answering(status, {}, '<html><title>Bad</title><h1>Bad</h1></html>');
    const error = (await checkAuthorizeUrl(testHttp(), url, { clientId: 'app' }).catch(
      (e: unknown) => e,
    )) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.code).toBe('service_unavailable');
    expect(error.status).toBe(status);
  });
});
