/**
 * One GET of the authorize URL before the browser is sent there (docs/contract.md §2.5): a service
 * that is down, a base URL without the endpoint or a client id the service does not know would
 * otherwise leave the login waiting for a redirect that can never come (300 s by default).
 * Redirects are not followed (src/http/request.ts) and no cookie is sent, so the check signs nobody
 * in and issues no code; the answer only tells whether a browser could get a login page there.
 */

import { redactUrl } from '../http/redact.js';
import { sendRequest } from '../http/request.js';
import type { HttpSettings } from '../http/settings.js';
import { parseErrorResponse } from './parse-error-response.js';
import { ServiceError } from './service-error.js';

export type AuthorizeCheck =
  /** A page or a redirect (to the login page, a single sign-on portal): the browser can go on. */
  | { outcome: 'answers' }
  /**
   * A status a browser may still get past (401/403 from a gateway that asks the browser to sign in
   * or runs a bot check, 429/503 from a busy service or a challenge page): worth a warning only.
   */
  | { outcome: 'inconclusive'; status: number };

/**
 * Answers after which no browser gets a login page: the service refused the authorization request
 * itself (400: an unknown client id or an unregistered redirect URI; `tokencli serve` shows an
 * error page, never a redirect, docs/contract.md §3), there is no authorize endpoint at this base
 * URL (404, 405, 410), or the service is failing (500, 501, 502, 504 — not 503, which challenge
 * pages use too).
 */
const CONCLUSIVE = new Set([400, 404, 405, 410, 500, 501, 502, 504]);

/**
 * Resolves with what the answer says; rejects with NetworkError (the service cannot be reached:
 * exit 5) or ServiceError with endpoint `authorize` (a conclusive refusal or failure), or with the
 * signal's reason.
 */
export async function checkAuthorizeUrl(
  http: HttpSettings,
  authorizeUrl: string,
  options: { clientId: string; signal?: AbortSignal | undefined },
): Promise<AuthorizeCheck> {
  const url = new URL(authorizeUrl);
  const res = await sendRequest(http, {
    method: 'GET',
    url,
    headers: { accept: 'text/html,application/json;q=0.9,*/*;q=0.8' },
    retry: true,
    signal: options.signal,
  });
  if (res.status >= 200 && res.status < 400) return { outcome: 'answers' };
  if (!CONCLUSIVE.has(res.status)) return { outcome: 'inconclusive', status: res.status };
  const endpoint = new URL(url);
  endpoint.search = '';
  const requested = redactUrl(endpoint);
  const parsed = parseErrorResponse(res, {
    endpoint: 'authorize',
    url: requested,
    clientId: options.clientId,
    secrets: [],
  });
  const refused = parsed.code === 'service_refused';
  const lead = refused
    ? 'the token service refused the login request'
    : res.status >= 500
      ? 'the token service failed'
      : 'the token service has no login page';
  const code =
    parsed.serviceCode && parsed.serviceCode !== String(res.status) ? `, ${parsed.serviceCode}` : '';
  const what = parsed.description ? `: ${parsed.description}` : '';
  throw new ServiceError({
    status: parsed.status,
    serviceCode: parsed.serviceCode,
    subcode: parsed.subcode,
    description: parsed.description,
    ...parsed.context,
    message: `${lead} at ${requested} (HTTP ${res.status}${code})${what}`,
    code: refused ? 'service_refused' : 'service_unavailable',
  });
}
