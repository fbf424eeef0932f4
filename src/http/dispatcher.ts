/**
 * The dispatcher for one call: with a proxy variable set, undici's `EnvHttpProxyAgent`
 * (HTTPS_PROXY / HTTP_PROXY / NO_PROXY, docs/contract.md §2.4) with the `--timeout` on connect, headers and
 * body, and the extra CAs; without one, node's own HTTP client (node-transport.ts says why).
 *
 * Built per call, not per process: EnvHttpProxyAgent reads the proxy variables when it is
 * constructed, and a fresh agent closed after the call leaves no keep-alive socket holding the
 * CLI's event loop open. A caller's own transport (`HttpSettings.transport`, e.g. a MockAgent
 * through `undiciTransport`) is used as it is and never closed here.
 */
import type { Dispatcher } from 'undici';
import { loadExtraCertificates, withRootCertificates } from './ca-certificates.js';
import { nodeTransport, proxyConfigured, type Transport } from './node-transport.js';
import type { HttpSettings } from './settings.js';
import { loadUndici } from './undici-loader.js';

export interface CallDispatcher {
  /** node's HTTP client, or an undici Dispatcher behind the same `request()` shape. */
  dispatcher: Transport;
  /**
   * Releases the sockets of a dispatcher built here (destroyed, not closed: the call is over and a
   * half-read body must not keep the socket waiting); a no-op for an injected one.
   */
  close(): Promise<void>;
}

/** undici's timeouts must be whole, non-negative milliseconds. */
export function wholeMs(ms: number): number {
  return Math.max(1, Math.ceil(ms));
}

export async function dispatcherFor(settings: HttpSettings): Promise<CallDispatcher> {
  if (settings.transport !== undefined) return { dispatcher: settings.transport, close: async () => {} };
  // Read the CA files before loading undici: a bad --ca-file is a usage error either way.
  const extraCa = loadExtraCertificates(settings.caFile);
  if (!proxyConfigured()) {
    const transport = nodeTransport(extraCa);
    return { dispatcher: transport, close: () => transport.destroy() };
  }
  const ca = extraCa && withRootCertificates(extraCa);
  const { EnvHttpProxyAgent } = await loadUndici();
  const timeout = wholeMs(settings.timeoutMs);
  const tls = ca === undefined ? { timeout } : { timeout, ca };
  const agent = new EnvHttpProxyAgent({
    // `connect` is used for direct connections; through a proxy, undici takes the target's TLS
    // options from `requestTls` and the proxy's own from `proxyTls`.
    connect: tls,
    requestTls: tls,
    proxyTls: tls,
    headersTimeout: timeout,
    bodyTimeout: timeout,
  });
  return {
    dispatcher: undiciTransport(agent),
    close: () => agent.destroy().catch(() => {}),
  };
}

/** An undici Dispatcher (an Agent, a MockAgent) seen through the Transport shape request.ts uses. */
export function undiciTransport(dispatcher: Dispatcher): Transport {
  return {
    async request(request) {
      const response = await dispatcher.request(request);
      return { statusCode: response.statusCode, headers: response.headers, body: response.body };
    },
    destroy: async () => {},
  };
}
