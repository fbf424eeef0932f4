/**
 * The environment for runs of the executable against its own `tokencli serve` on 127.0.0.1 (the
 * code-cache training, the smoke test): the builder's proxy settings left out. A corporate proxy
 * or a self-hosted runner's would carry those loopback requests to the proxy, which cannot reach
 * this machine's service, and the build would fail on a network it never needed.
 */

/** Proxy variables tokencli (undici's EnvHttpProxyAgent) reads, in both cases. */
const PROXY_VARIABLES = new Set(['http_proxy', 'https_proxy', 'all_proxy', 'no_proxy']);

/** `env` without its proxy variables. */
export function withoutProxies(env) {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !PROXY_VARIABLES.has(name.toLowerCase())));
}
