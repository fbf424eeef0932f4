/**
 * DNS-rebinding defence (docs/contract.md §3): while the service listens on a loopback address, a request
 * must name a loopback host in its `Host` header, so a web page whose domain was re-pointed at
 * 127.0.0.1 cannot talk to it. `--allow-host NAME` admits other names (a container's name).
 */
import { isIP } from 'node:net';

/** Whether a bound address (from `server.address()`) is a loopback one. */
export function isLoopbackAddress(address: string): boolean {
  if (address.startsWith('::ffff:')) return isLoopbackAddress(address.slice(7));
  if (address === '::1') return true;
  return isIP(address) === 4 && address.startsWith('127.');
}

/** The host name of a `Host` header value, lower case, without port; undefined if malformed. */
function hostName(header: string): string | undefined {
  if (header === '' || /[/?#@\\\s]/.test(header)) return undefined;
  try {
    // The URL parser also normalises IPv4 shorthands (127.1) and IPv6 spellings.
    return new URL(`http://${header}`).hostname;
  } catch {
    return undefined;
  }
}

function isLoopbackName(host: string): boolean {
  if (host === 'localhost' || host === '[::1]') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/**
 * A predicate over `Host` header values: true for `localhost`, `127.0.0.0/8` and `[::1]` on any
 * port, and for the allowed names. A request without `Host` is refused.
 */
export function createHostCheck(allowHosts: readonly string[]): (header: string | undefined) => boolean {
  const allowed = new Set(allowHosts.map((h) => hostName(h) ?? h.toLowerCase()));
  const cache = new Map<string, boolean>();
  return (header) => {
    if (header === undefined) return false;
    const known = cache.get(header);
    if (known !== undefined) return known;
    const host = hostName(header);
    const ok = host !== undefined && (isLoopbackName(host) || allowed.has(host));
    // Only a handful of distinct values reach a local service; cap the cache against a flood.
    if (cache.size < 256) cache.set(header, ok);
    return ok;
  };
}
