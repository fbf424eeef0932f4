/** Wildcard binds get a base URL a client can use. */
import { expect, test } from 'vitest';
import { isWildcardAddress, urlHostFor } from '../../../src/server/http/wildcard.js';
import { startService } from '../helpers.js';

test.each([
  ['0.0.0.0', true, '127.0.0.1'],
  ['::', true, '[::1]'],
  ['0:0:0:0:0:0:0:0', true, '[::1]'],
  ['127.0.0.1', false, '127.0.0.1'],
  ['::1', false, '[::1]'],
  ['192.0.2.7', false, '192.0.2.7'],
  ['localhost', false, 'localhost'],
])('%s: wildcard %s, URL host %s', (host, wildcard, urlHost) => {
  expect(isWildcardAddress(host)).toBe(wildcard);
  expect(urlHostFor(host)).toBe(urlHost);
});

test('a service on 0.0.0.0 reports and answers on a loopback base URL', async () => {
  const service = await startService(undefined, { host: '0.0.0.0' });
  expect(service.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect((await fetch(`${service.baseUrl}/v2/oauth/tokeninfo`)).status).toBe(400);
});
