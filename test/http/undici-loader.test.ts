/**
 * The direct undici loader must give the same working agent as the package entry. Each test runs
 * in this file's own process, where nothing has imported 'undici' before the first test.
 */
import { describe, expect, it } from 'vitest';
import { loadDirect, loadEntry } from '../../src/http/undici-loader.js';
import { json, startServer } from './loopback-server.js';

async function roundTrip(EnvHttpProxyAgent: Awaited<ReturnType<typeof loadDirect>>['EnvHttpProxyAgent']) {
  const server = await startServer((_req, res) => json(res, 200, { ok: true }));
  const agent = new EnvHttpProxyAgent({ httpProxy: '', httpsProxy: '', noProxy: '' });
  try {
    const res = await agent.request({ origin: server.origin, path: '/', method: 'GET' });
    return { status: res.statusCode, body: await res.body.text() };
  } finally {
    await agent.destroy();
    await server.close();
  }
}

describe('loadUndici', () => {
  it('loads the agent and the request API directly, without the package entry', async () => {
    const parts = await loadDirect();
    expect(await roundTrip(parts.EnvHttpProxyAgent)).toStrictEqual({ status: 200, body: '{"ok":true}' });
  });

  it('gives the same class as the package entry', async () => {
    const direct = await loadDirect();
    const entry = await loadEntry();
    expect(direct.EnvHttpProxyAgent).toBe(entry.EnvHttpProxyAgent);
  });
});
