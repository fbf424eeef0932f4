/**
 * Where the client's credentials come from on the token endpoint: `client_id`/`client_secret`
 * parameters (what the platform documents, docs/contract.md §1) or HTTP Basic (RFC 6749 §2.3.1), which
 * standard OAuth libraries send by default.
 */
import type { Params } from './params.js';

export type ClientCredentials =
  | { ok: true; clientId: string | undefined; clientSecret: string | undefined }
  | { ok: false; error: 'invalid_client' | 'invalid_request'; problem: string };

function formDecode(value: string): string {
  // RFC 6749 §2.3.1: id and secret are form-urlencoded before they are joined with ':'.
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

function parseBasic(authorization: string): { id: string; secret: string } | undefined {
  const match = /^basic[ ]+([A-Za-z0-9+/]+={0,2})[ ]*$/i.exec(authorization);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  try {
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

/**
 * The client id and secret of a token request. Using both methods for the secret is refused
 * (RFC 6749 §2.3: "MUST NOT use more than one authentication method in each request"); a
 * `client_id` parameter next to Basic is fine when it names the same client.
 */
export function clientCredentials(authorization: string | undefined, params: Params): ClientCredentials {
  const idParam = params.get('client_id');
  const secretParam = params.get('client_secret');
  if (authorization === undefined || !/^basic(?:[ ]|$)/i.test(authorization)) {
    return { ok: true, clientId: idParam, clientSecret: secretParam };
  }
  const basic = parseBasic(authorization);
  if (!basic) {
    return {
      ok: false,
      error: 'invalid_client',
      problem: 'the Authorization: Basic header is malformed (RFC 6749 §2.3.1)',
    };
  }
  if (secretParam !== undefined) {
    return {
      ok: false,
      error: 'invalid_request',
      problem: 'use one client authentication method: Basic or client_secret, not both',
    };
  }
  if (idParam !== undefined && idParam !== basic.id) {
    return {
      ok: false,
      error: 'invalid_request',
      problem: 'client_id differs from the client named in the Authorization header',
    };
  }
  return { ok: true, clientId: basic.id, clientSecret: basic.secret };
}
