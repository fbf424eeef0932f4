/** undici comes from its package entry (no private `undici/lib/…` paths) and works as the proxy agent. */
import { describe, expect, it } from 'vitest';
import { loadUndici } from '../../src/http/undici-loader.js';
import { json, startServer } from './loopback-server.js';

describe('loadUndici', () => {
  it('loads the package entry once, whose agent makes a request', async () => {
    const undici = await loadUndici();
    expect(await loadUndici()).toBe(undici);
    expect(undici.EnvHttpProxyAgent).toBe((await import('undici')).EnvHttpProxyAgent);
    const server = await startServer((_req, res) => json(res, 200, { ok: true }));
    const agent = new undici.EnvHttpProxyAgent({ httpProxy: '', httpsProxy: '', noProxy: '' });
    try {
      const res = await agent.request({ origin: server.origin, path: '/', method: 'GET' });
      expect({ status: res.statusCode, body: await res.body.text() }).toStrictEqual({
        status: 200,
        body: '{"ok":true}',
      });
    } finally {
      await agent.destroy();
      await server.close();
    }
  });
});
