/**
 * The one loopback-host rule (docs/contract.md §2.1, §2.5; RFC 8252 §8.3): a base URL on such a host may
 * use plain `http://`, and only such `http://` URLs are handed to a browser. Hostnames as WHATWG
 * `URL.hostname` gives them (IPv6 in brackets, lower case, IPv4 normalised to dotted decimal).
 */

/** 127.0.0.0/8 (the whole IPv4 loopback block), [::1], and `localhost`. */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(hostname);
  return octets?.slice(1).every((o) => Number(o) <= 255) === true;
}
