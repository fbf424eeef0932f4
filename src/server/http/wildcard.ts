/**
 * Wildcard binds (`0.0.0.0`, `::`): the service listens on every interface, but a URL naming the
 * wildcard address is not one a client can use everywhere (browsers and some stacks refuse it),
 * so the base URL names the loopback address of the same family instead.
 */
import { isIP } from 'node:net';

/** Whether `host` is the IPv4 or IPv6 "any address". */
export function isWildcardAddress(host: string): boolean {
  const family = isIP(host);
  if (family === 4) return host === '0.0.0.0';
  if (family === 6) return new URL(`http://[${host}]/`).hostname === '[::]';
  return false;
}

/** The host to put in the base URL for a bind address: loopback for a wildcard, brackets for IPv6. */
export function urlHostFor(host: string): string {
  if (isWildcardAddress(host)) return isIP(host) === 6 ? '[::1]' : '127.0.0.1';
  return isIP(host) === 6 ? `[${host}]` : host;
}
