/**
 * The token service's endpoints (docs/contract.md §1), relative to a base URL that may carry a path prefix.
 * One definition for the client (src/oauth, src/login) and the local service (src/server).
 */

/** The browser login: the authorization request (RFC 6749 §4.1.1) and its login form. */
export const AUTHORIZE_PATH = '/v2/oauth/authorize';
/** Create or refresh a token (RFC 6749 §3.2). */
export const TOKEN_PATH = '/v2/oauth/token';
/** Token information of an access token (docs/contract.md §1 rule 9). */
export const TOKENINFO_PATH = '/v2/oauth/tokeninfo';
