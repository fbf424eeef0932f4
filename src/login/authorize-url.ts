/**
 * The authorize URL the browser is sent to (docs/contract.md §1 and §2.4): the service's documented
 * parameters (`client_id`, `state`, `scope`, `endOtherSessions`) plus the standard OAuth ones
 * (`response_type=code`, `redirect_uri`) and PKCE S256 (RFC 7636 §4.3).
 */
import { AUTHORIZE_PATH } from '../protocol/endpoints.js';
import { withoutTrailingSlashes } from '../text/trailing-slashes.js';

/** What goes into one authorization request. */
export interface AuthorizeUrlParams {
  /** Base URL of the service; may carry a path prefix (`https://gw.example/api`). */
  baseUrl: string;
  clientId: string;
  /** The redirect URI with the listener's real port. */
  redirectUri: string;
  state: string;
  codeChallenge: string;
  /** Only sent when asked (`--scope`). */
  scope?: string | undefined;
  /** Sends `endOtherSessions=True` (docs/contract.md §1 rule 10); nothing is sent otherwise. */
  endOtherSessions?: boolean | undefined;
}

/** Builds `<baseUrl>/v2/oauth/authorize?…`, keeping any path prefix of the base URL. */
export function buildAuthorizeUrl(params: AuthorizeUrlParams): string {
  const url = new URL(params.baseUrl);
  // A trailing slash on the base URL must not double up; its query and fragment are not ours to keep.
  url.pathname = `${withoutTrailingSlashes(url.pathname)}${AUTHORIZE_PATH}`;
  url.search = '';
  url.hash = '';
  const query = new URLSearchParams({
    client_id: params.clientId,
    response_type: 'code',
    redirect_uri: params.redirectUri,
    state: params.state,
    code_challenge: params.codeChallenge,
    code_challenge_method: 'S256',
  });
  if (params.scope !== undefined && params.scope !== '') query.set('scope', params.scope);
  if (params.endOtherSessions === true) query.set('endOtherSessions', 'True');
  url.search = query.toString();
  return url.toString();
}
