/**
 * Create-token requests for every grant (docs/contract.md §1, §2.4; RFC 6749 §4.1.3, §4.4, §6, RFC 7522):
 * `POST <base URL>/v2/oauth/token` with every parameter in an `application/x-www-form-urlencoded`
 * body and an empty query string (secrets in URLs end up in logs). `endOtherSessions=True` is sent
 * only when asked. `authorization_code` is never retried: a code is valid once.
 */
import { redactUrl } from '../http/redact.js';
import { sendRequest } from '../http/request.js';
import { TOKEN_PATH } from '../protocol/endpoints.js';
import { GrantType } from '../protocol/grants.js';
import { endpointUrl } from './endpoint-url.js';
import { parseTokenResponse } from './parse-token-response.js';
import { readServiceJson } from './read-service-response.js';
import type { RequestContext } from './service-error.js';
import type { GrantRequest, ServiceClient, TokenSet } from './types.js';

export interface TokenRequestOptions {
  /** Sends `endOtherSessions=True`, ending the user's other sessions (docs/contract.md §1 rule 10). */
  endOtherSessions?: boolean;
  /** Ctrl-C: the request stops and the signal's reason is thrown. */
  signal?: AbortSignal;
}

/** Grant fields that are not secret; every other field's value is kept out of traces and errors. */
const PUBLIC_FIELDS = new Set(['grant_type', 'redirect_uri', 'email']);

/**
 * Exchanges a grant for tokens. Resolves to the normalised TokenSet (parse-token-response.ts);
 * rejects with ServiceError (refused: exit 3; failed or unexpected: exit 5), NetworkError (exit 5)
 * or UsageError (bad base URL or CA file, exit 2).
 */
export async function requestToken(
  client: ServiceClient,
  grant: GrantRequest,
  options: TokenRequestOptions = {},
): Promise<TokenSet> {
  const url = endpointUrl(client.baseUrl, TOKEN_PATH);
  const form = new URLSearchParams();
  const secrets: string[] = [];
  form.set('grant_type', grant.grant_type);
  form.set('client_id', client.clientId);
  if (client.clientSecret !== undefined) {
    form.set('client_secret', client.clientSecret);
    secrets.push(client.clientSecret);
  }
  for (const [name, value] of Object.entries(grant) as [string, string | undefined][]) {
    if (name === 'grant_type' || value === undefined) continue;
    form.set(name, value);
    if (!PUBLIC_FIELDS.has(name)) secrets.push(value);
  }
  if (options.endOtherSessions) form.set('endOtherSessions', 'True');

  const res = await sendRequest(client.http, {
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form.toString(),
    retry: grant.grant_type !== GrantType.authorizationCode,
    signal: options.signal,
    secrets,
  });
  const receivedAt = client.now ? client.now() : new Date();
  const context: RequestContext = {
    endpoint: 'token',
    url: redactUrl(url),
    grantType: grant.grant_type,
    clientId: client.clientId,
    secrets,
  };
  return parseTokenResponse(readServiceJson(res, context), receivedAt, res.status);
}
