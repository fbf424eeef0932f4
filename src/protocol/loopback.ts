/**
 * The one loopback-host rule (docs/contract.md §2.1, §2.5; RFC 8252 §8.3): a base URL on such a host may
 * use plain `http://`, and only such `http://` URLs are handed to a browser. Hostnames as WHATWG
 * `URL.hostname` gives them (IPv6 in brackets, lower case, IPv4 normalised to dotted decimal).
 */

import { isAsciiDigits } from '../text/ascii-digits.js';

/** 127.0.0.0/8 (the whole IPv4 loopback block), [::1], and `localhost`. */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  // 127.a.b.c, each of a, b, c one to three ASCII digits and at most 255. Written out rather than as
  // a regular expression, which V8 would compile on every run that checks a loopback base URL
  // (bench/README.md, Decisions).
  const octets = hostname.split('.');
  return octets.length === 4 && octets[0] === '127' && octets.slice(1).every(isOctet);
}

function isOctet(text: string): boolean {
  return text.length <= 3 && isAsciiDigits(text) && Number(text) <= 255;
}
