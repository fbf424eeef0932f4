/** Which transport carries a call: node's client without proxy variables, undici with them. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { nodeTransport, proxyConfigured } from '../../src/http/node-transport.js';

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
  it('sends the body with its length and reaches an IPv6 loopback literal', async () => {
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (c: string) => {
        body += c;
      });
      req.on('end', () =>
        res.end(JSON.stringify({ length: req.headers['content-length'], body, host: req.headers.host })),
      );
    });
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(0, '::1', () => resolve(true));
    });
    if (!listening) return; // no IPv6 on this machine; the IPv4 path is covered by every other test
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
  });
});
