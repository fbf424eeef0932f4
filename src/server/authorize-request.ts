/**
 * Checks an authorization request (SPEC.md §1 authorize parameters, RFC 6749 §4.1.1, RFC 7636
 * §4.3). Every failure becomes an error page, never a redirect: an unknown client or redirect URI
 * must not turn the service into an open redirector, and the rest are developer errors best shown
 * where the developer looks.
 */
import { type Params, parseFlag } from './http/params.js';
import { sanitizeEcho } from './http/reply.js';
import { S256_CHALLENGE } from './pkce.js';
import { resolveRedirectUri } from './redirect-uri.js';
import type { AppEntry, Registry } from './registry.js';

/** An accepted authorization request. */
export interface AuthorizeRequest {
  app: AppEntry;
  /** Where the browser goes after the login: the request's URI or the registered one. */
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string | null;
  endOtherSessions: boolean;
  /** The request's own parameters, carried through the login form unchanged. */
  hidden: Array<[string, string]>;
}

export type AuthorizeCheck = { ok: true; request: AuthorizeRequest } | { ok: false; message: string };

/** The authorization parameters the login form carries; others are ignored (RFC 6749 §3.1). */
const CARRIED = [
  'client_id',
  'redirect_uri',
  'response_type',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
  'endOtherSessions',
] as const;

const quote = (value: string) => JSON.stringify(sanitizeEcho(value, 120));

export function checkAuthorizeRequest(params: Params, registry: Registry, scope: string): AuthorizeCheck {
  const fail = (message: string): AuthorizeCheck => ({ ok: false, message });
  const clientId = params.get('client_id');
  if (clientId === undefined) return fail('The request has no client_id.');
  const app = registry.app(clientId);
  if (!app) return fail(`No application is registered with client_id ${quote(clientId)}.`);
  const requested = params.get('redirect_uri');
  const redirectUri = resolveRedirectUri(requested, app.redirectUris);
  if (redirectUri === undefined) {
    return fail(`The redirect_uri ${quote(requested ?? '')} is not registered for ${app.name}.`);
  }
  // The platform documents no response_type; standard clients send "code", the only one there is.
  const responseType = params.get('response_type');
  if (responseType !== undefined && responseType !== 'code') {
    return fail(`Unsupported response_type ${quote(responseType)}: only "code" is supported.`);
  }
  if (!app.grants.has('authorization_code')) {
    return fail(`${app.name} is not enabled for the authorization-code flow.`);
  }
  const requestedScope = params.get('scope');
  if (requestedScope !== undefined && requestedScope !== scope) {
    return fail(`Unsupported scope ${quote(requestedScope)}: the only scope is ${quote(scope)}.`);
  }
  const challenge = params.get('code_challenge');
  const method = params.get('code_challenge_method');
  if (challenge === undefined && method !== undefined) {
    return fail('code_challenge_method was given without a code_challenge.');
  }
  if (challenge !== undefined) {
    // RFC 7636 §4.3: without a method, "plain" is meant; plain is refused.
    if (method !== 'S256') {
      return fail(
        `code_challenge_method must be S256; ${quote(method ?? 'plain (the default)')} is not supported.`,
      );
    }
    if (!S256_CHALLENGE.test(challenge)) {
      return fail('code_challenge must be 43 base64url characters: BASE64URL(SHA256(code_verifier)).');
    }
  }
  const endOtherSessions = parseFlag(params.get('endOtherSessions'));
  if (endOtherSessions === undefined) return fail('endOtherSessions must be True or False.');

  const hidden: Array<[string, string]> = [];
  for (const name of CARRIED) {
    const value = params.get(name);
    if (value !== undefined) hidden.push([name, value]);
  }
  return {
    ok: true,
    request: {
      app,
      redirectUri,
      state: params.get('state'),
      codeChallenge: challenge ?? null,
      endOtherSessions,
      hidden,
    },
  };
}
