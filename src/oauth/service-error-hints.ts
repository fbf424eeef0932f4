/**
 * What to do about a service error: one table from the service's codes (SPEC.md §1, RFC 6749 §5.2,
 * RFC 6750 §3.1) to a hint a person can act on, refined by the grant that was tried.
 */
import type { RequestContext, ServiceErrorFields } from './service-error.js';
import { GrantType, type GrantTypeValue } from './types.js';

const VERBOSE = 'run again with --verbose to see what was sent (secrets redacted)';
const CLIENT_CREDENTIALS =
  'check the client id and client secret (tokencli configure, or TOKENCLI_CLIENT_ID and TOKENCLI_CLIENT_SECRET)';
const USER_CREDENTIALS =
  'check the email and password (--email or TOKENCLI_EMAIL, --password-stdin or TOKENCLI_PASSWORD)';
const NEW_ACCESS_TOKEN =
  'the access token is invalid, expired or revoked; get a new one with tokencli token or tokencli login';
const BASE_URL =
  'check the base URL (--base-url, TOKENCLI_BASE_URL): the token endpoint is <base URL>/v2/oauth/token';

/** The hint for subcode 018 (SPEC.md §1 rule 10). */
export const END_OTHER_SESSIONS_HINT = 'run again with --end-other-sessions to end your other sessions';

const GRANT_NAMES: Record<GrantTypeValue, string> = {
  authorization_code: 'authorization code (tokencli login)',
  refresh_token: 'refresh token',
  client_credentials: 'client credentials (email and password)',
  'urn:ietf:params:oauth:client-assertion-type:saml2-bearer': 'SAML bearer (tokencli sso)',
};

function invalidGrantHint(grant: GrantTypeValue | undefined): string {
  switch (grant) {
    case GrantType.authorizationCode:
      return 'an authorization code is valid once and for 20 seconds; run tokencli login again';
    case GrantType.refreshToken:
      return 'the refresh token is invalid, expired or revoked; run tokencli login';
    case GrantType.clientCredentials:
      return USER_CREDENTIALS;
    case GrantType.saml2Bearer:
      return "check the SAML document: signed with the application's registered key, the right issuer and audience, within its validity window, and not used before";
    default:
      return VERBOSE;
  }
}

function grantNotEnabledHint(grant: GrantTypeValue | undefined): string {
  const name = grant ? `the ${GRANT_NAMES[grant]} grant` : 'this grant';
  return `the application is not enabled for ${name}; ask the platform operator to enable it, or use tokencli login`;
}

/** The hint for a parsed service error, or undefined where there is nothing useful to say. */
export function serviceErrorHint(
  fields: ServiceErrorFields & { unknownClient?: boolean; retryAfter?: string | undefined },
  context: RequestContext,
): string | undefined {
  const { status, code, subcode } = fields;
  if (subcode === '018') return END_OTHER_SESSIONS_HINT;
  if (subcode === '017') {
    return context.grantType === GrantType.clientCredentials ? USER_CREDENTIALS : CLIENT_CREDENTIALS;
  }
  if (fields.unknownClient) {
    const id = context.clientId ? ` "${context.clientId}"` : '';
    return `check the client id${id}: it must be the application's consumer key (--client-id, TOKENCLI_CLIENT_ID or tokencli configure)`;
  }
  switch (code) {
    case 'invalid_client':
      return CLIENT_CREDENTIALS;
    case 'invalid_grant':
      return invalidGrantHint(context.grantType);
    case 'unauthorized_client':
    case 'unsupported_grant_type':
      return grantNotEnabledHint(context.grantType);
    case 'invalid_scope':
      return 'the service supports a single scope; leave the scope out or ask the platform operator which one';
    case 'invalid_token':
      return NEW_ACCESS_TOKEN;
    case 'access_denied':
      return 'access was denied by the user or the platform operator';
    case 'invalid_request':
      return context.endpoint === 'tokeninfo'
        ? 'tokeninfo inspects access tokens only (not refresh tokens); check the token and the client id'
        : VERBOSE;
  }
  if (status === 401) return context.endpoint === 'tokeninfo' ? NEW_ACCESS_TOKEN : CLIENT_CREDENTIALS;
  if (status === 429 || status === 503) {
    const wait = fields.retryAfter ? ` (the service asks to wait ${fields.retryAfter})` : '';
    return `the token service is busy or down; try again later${wait}`;
  }
  if (status === 404 || status === 405) return BASE_URL;
  if (status >= 500) return 'the token service is failing; try again later, or ask its operator';
  if (status >= 400) return VERBOSE;
  return undefined;
}

/** For a 2xx or 3xx body that is not the token service's JSON: probably the wrong URL or a gateway. */
export function unexpectedResponseHint(): string {
  return `${BASE_URL}; a proxy or gateway may have answered instead of the service`;
}
