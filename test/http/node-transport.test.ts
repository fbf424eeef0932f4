/** Which transport carries a call: node's client without proxy variables, undici with them. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { nodeTransport, proxyConfigured } from '../../src/http/node-transport.js';
import { ipv6LoopbackMissing } from '../helpers/ipv6.js';

// The IPv4 path is covered by every other test; only this one needs `::1`.
const noIpv6 = await ipv6LoopbackMissing();

describe('proxyConfigured', () => {
  it.each(['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'])('is true when %s is set', (name) => {
    expect(proxyConfigured({ [name]: 'http://proxy.example:3128' })).toBe(true);
  });

  it('is false with no proxy variable, an empty one, or NO_PROXY alone', () => {
    expect(proxyConfigured({})).toBe(false);
    expect(proxyConfigured({ HTTPS_PROXY: '' })).toBe(false);
    expect(proxyConfigured({ NO_PROXY: '*' })).toBe(false);
  });
});

describe('nodeTransport', () => {
  it.skipIf(noIpv6)(
    `sends the body with its length and reaches an IPv6 loopback literal${noIpv6 ? ` (skipped: ${noIpv6})` : ''}`,
    async () => {
      const server = createServer((req, res) => {
        let body = '';
        req.setEncoding('utf8').on('data', (c: string) => {
          body += c;
        });
        req.on('end', () =>
          res.end(JSON.stringify({ length: req.headers['content-length'], body, host: req.headers.host })),
        );
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '::1', resolve);
      });
      const port = (server.address() as AddressInfo).port;
      const transport = nodeTransport(undefined);
      try {
        const response = await transport.request({
          origin: `http://[::1]:${port}`,
          path: '/echo',
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'a=é',
          signal: AbortSignal.timeout(5000),
          headersTimeout: 5000,
          bodyTimeout: 5000,
        });
        let text = '';
        for await (const chunk of response.body) text += Buffer.from(chunk).toString('utf8');
        expect(response.statusCode).toBe(200);
        expect(JSON.parse(text)).toEqual({ length: '4', body: 'a=é', host: `[::1]:${port}` });
      } finally {
        await transport.destroy();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  );
});
