/**
 * `GET /v2/oauth/tokeninfo` (docs/contract.md §1 rules 8–9, §3): the information of an access token,
 * presented as `Authorization: Bearer <token>` (RFC 6750 §2.1) by the client it was issued to.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { consumerKeyError, oauthError, echoValue as sanitizeEcho } from '../../protocol/error-bodies.js';
import { accessFieldsJson, refreshFieldsJson } from '../grants/answer-json.js';
import { parseParams } from '../http/params.js';
import { type JsonReply, JsonText, NO_STORE, sendJson } from '../http/reply.js';
import type { ServiceContext } from './context.js';

const BEARER = /^bearer[ ]+([A-Za-z0-9\-._~+/]+=*)[ ]*$/i;

/**
 * 401 for an unknown, expired or revoked token, and also for another client's token: the same
 * answer for all, so a client cannot learn that a token it was not given exists (RFC 6750 §3.1).
 */
const INVALID_TOKEN: JsonReply = {
  ...oauthError(
    401,
    'invalid_token',
    'the access token is invalid, expired or revoked, or not issued to this client',
  ),
  headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
};

/**
 * No token at all: a bare challenge. RFC 6750 §3.1: a request without authentication information
 * gets no error code, in the challenge or (so that the two agree) in the body.
 */
const NO_TOKEN: JsonReply = {
  status: 401,
  body: { error_description: 'pass the access token in an Authorization: Bearer header' },
  headers: { 'www-authenticate': 'Bearer' },
};

let scopeSerialised: string | undefined;
let approvedScopeText = '';

/**
 * `,"status":"approved","scope":…`, the same for every answer of a service: serialised when the
 * scope changes (one service per process, as a rule), not per request.
 */
function approvedScopeJson(scope: string): string {
  if (scope !== scopeSerialised) {
    approvedScopeText = `,"status":"approved","scope":${JSON.stringify(scope)}`;
    scopeSerialised = scope;
  }
  return approvedScopeText;
}

export function handleTokenInfo(
  req: IncomingMessage,
  res: ServerResponse,
  context: ServiceContext,
  query: string,
): void {
  sendJson(res, answerTokenInfo(req, query, context), NO_STORE);
}

/** The client id from the query or, since the platform does not say where it goes, a `client_id` header. */
function clientIdOf(req: IncomingMessage, fromQuery: string | undefined): string | undefined {
  if (fromQuery !== undefined) return fromQuery;
  const header = req.headers.client_id;
  return typeof header === 'string' && header !== '' ? header : undefined;
}

export function answerTokenInfo(req: IncomingMessage, query: string, context: ServiceContext): JsonReply {
  const parsed = parseParams(query);
  if (!parsed.ok) {
    return oauthError(
      400,
      'invalid_request',
      `parameter ${sanitizeEcho(parsed.duplicate, 50)} is given more than once`,
    );
  }
  const clientId = clientIdOf(req, parsed.params.get('client_id'));
  if (clientId === undefined) return consumerKeyError('');
  const app = context.registry.app(clientId);
  if (!app) return consumerKeyError(clientId);

  const match = BEARER.exec(req.headers.authorization ?? '');
  if (!match) return NO_TOKEN;
  const token = match[1] as string;
  const { store } = context;
  // One reading of the clock for the whole answer: the checks and the seconds left agree.
  const now = store.now();
  const record = store.findAccessToken(token, now);
  if (!record || record.app !== app) {
    const refresh = store.findRefreshToken(token, now);
    if (refresh && refresh.app === app) {
      return oauthError(
        400,
        'invalid_request',
        'information for a refresh token is not supported; pass an access token',
      );
    }
    return INVALID_TOKEN;
  }

  // Every field of docs/contract.md §1 rule 9, the redirect URI spelled as the sample payload spells it.
  let text = `${accessFieldsJson(token, app.json, store.secondsLeft(record.expiresAt, now))}${approvedScopeJson(context.scope)}`;
  const refresh = record.refresh;
  if (refresh !== null && store.findRefreshToken(refresh.token, now) === refresh) {
    text += refreshFieldsJson(refresh.token, store.secondsLeft(refresh.expiresAt, now));
  }
  text += `${app.json.redirectUrl},"email":${record.user.emailJson},"app_name":${app.json.name}}`;
  return { status: 200, body: new JsonText(text) };
}
