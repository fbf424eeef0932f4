/**
 * The loopback redirect URI of the login (docs/contract.md §2.1, §2.5; RFC 8252 §7.3): which address the
 * listener binds, which port and path it serves, and which `Host` headers it accepts.
 */
import { InputError } from '../errors.js';

/** A redirect URI the listener can serve. */
export interface LoopbackRedirect {
  /** The URI as given (port 0 still 0 here). */
  uri: URL;
  /** The only address bound: never a wildcard (docs/contract.md §2.5). `localhost` binds 127.0.0.1. */
  bindAddress: '127.0.0.1' | '::1';
  /** 0 = any free port. */
  port: number;
  /** The path the redirect arrives on, e.g. `/callback`. */
  path: string;
}

/** Reason `redirect_uri_invalid`; `details` hold the value and why (the CLI names its flag). */
function invalid(value: string, why: string): InputError {
  return new InputError(`invalid redirect URI "${value}": ${why}`, 'redirect_uri_invalid', { value, why });
}

/**
 * Parses and checks a redirect URI: `http:` (RFC 8252 §7.3 — loopback redirects use plain http),
 * host 127.0.0.1, [::1] or localhost, no credentials, query or fragment. Throws an InputError
 * (`redirect_uri_invalid`) otherwise.
 */
export function parseRedirectUri(value: string): LoopbackRedirect {
  let uri: URL;
  try {
    uri = new URL(value);
  } catch {
    throw invalid(value, 'not a URL');
  }
  if (uri.protocol !== 'http:') {
    throw invalid(value, `the login listener only serves loopback http:// URLs, not ${uri.protocol}//`);
  }
  let bindAddress: LoopbackRedirect['bindAddress'];
  if (uri.hostname === '127.0.0.1' || uri.hostname === 'localhost') bindAddress = '127.0.0.1';
  else if (uri.hostname === '[::1]') bindAddress = '::1';
  else throw invalid(value, `host "${uri.hostname}" is not a loopback address (127.0.0.1, [::1], localhost)`);
  if (uri.username !== '' || uri.password !== '') throw invalid(value, 'it must not carry credentials');
  if (uri.search !== '' || uri.hash !== '') throw invalid(value, 'it must not carry a query or a fragment');
  // WHATWG URL already rejects ports above 65535; an empty port means http's default, 80.
  const port = uri.port === '' ? 80 : Number(uri.port);
  return { uri, bindAddress, port, path: uri.pathname };
}

/** The redirect URI with the port the listener really got (for port 0). */
export function withPort(redirect: LoopbackRedirect, port: number): string {
  const uri = new URL(redirect.uri.href);
  uri.port = String(port);
  return uri.href;
}

/**
 * `Host` header values the listener accepts: the bound address with its port, and `localhost`
 * with its port (browsers send what the URL said). Anything else is refused so a web page cannot
 * reach the listener through DNS rebinding (docs/contract.md §2.5).
 */
export function allowedHosts(redirect: LoopbackRedirect, port: number): Set<string> {
  const address = redirect.bindAddress === '::1' ? '[::1]' : '127.0.0.1';
  const hosts = new Set([`${address}:${port}`, `localhost:${port}`]);
  // Browsers leave out the default port.
  if (port === 80) hosts.add(address).add('localhost');
  return hosts;
}
