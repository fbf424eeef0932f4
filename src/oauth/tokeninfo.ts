/**
 * Token information (docs/contract.md §1, §2.4): `GET <base URL>/v2/oauth/tokeninfo?client_id=…` with
 * `Authorization: Bearer <access token>` (RFC 6750 §2.1). Only access tokens can be inspected.
 */
import { InputError } from '../errors.js';
import { redactUrl } from '../http/redact.js';
import { sendRequest } from '../http/request.js';
import { TOKENINFO_PATH } from '../protocol/endpoints.js';
import { endpointUrl } from './endpoint-url.js';
import { parseTokenInfo } from './parse-token-info.js';
import { readServiceJson } from './read-service-response.js';
import type { RequestContext } from './service-error.js';
import type { ServiceClient, TokenInfo } from './types.js';

export interface TokenInfoOptions {
  /** Ctrl-C: the request stops and the signal's reason is thrown. */
  signal?: AbortSignal;
}

// What can go into an Authorization header (RFC 6750 §2.1, loosened to visible ASCII).
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/**
 * Asks the service about an access token. Resolves to every field it returned, normalised by
 * parse-token-info.ts (with `expires_at` from `client.now` at receipt); rejects with ServiceError
 * (an invalid, expired or revoked token: exit 3), NetworkError (exit 5) or InputError (exit 2).
 */
export async function fetchTokenInfo(
  client: ServiceClient,
  accessToken: string,
  options: TokenInfoOptions = {},
): Promise<TokenInfo> {
  if (!HEADER_SAFE.test(accessToken)) {
    throw new InputError(
      accessToken === ''
        ? 'the access token is empty'
        : 'the access token holds spaces, line breaks or other characters a token cannot have',
      'access_token_malformed',
    );
  }
  const url = endpointUrl(client.baseUrl, TOKENINFO_PATH);
  const requested = redactUrl(url);
  url.searchParams.set('client_id', client.clientId);
  const secrets = [accessToken];
  const res = await sendRequest(client.http, {
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    retry: true,
    signal: options.signal,
    secrets,
  });
  const receivedAt = client.now ? client.now() : new Date();
  const context: RequestContext = {
    endpoint: 'tokeninfo',
    url: requested,
    clientId: client.clientId,
    secrets,
  };
  return parseTokenInfo(readServiceJson(res, context), receivedAt, res.status);
}
