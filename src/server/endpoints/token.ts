/**
 * `POST /v2/oauth/token` (docs/contract.md §1, §3): authenticates the client, checks the grant against
 * the application, and hands over to the grant's module.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { consumerKeyError, oauthError, echoValue as sanitizeEcho } from '../../protocol/error-bodies.js';
import { GRANT_NAMES } from '../../protocol/grants.js';
import { clientCredentials } from '../http/client-auth.js';
import { readFormBodyThen } from '../http/form-body.js';
import { answerInternalError } from '../http/internal-error.js';
import { parseFlag, parseParams } from '../http/params.js';
import { type JsonReply, NO_STORE, sendJson } from '../http/reply.js';
import type { ServiceContext } from './context.js';

/** RFC 6749 §5.2: invalid_client is a 401 with a challenge for the scheme the client can use. */
function invalidClient(description: string): JsonReply {
  return {
    ...oauthError(401, 'invalid_client', description),
    headers: { 'www-authenticate': 'Basic realm="tokencli"' },
  };
}

/**
 * Answers once the body is read, from the stream's event: no promise and no microtask per request
 * (the throughput benchmark shows them). A bug answers 500 here, as the router does for the
 * endpoints that answer with a promise.
 */
export function handleToken(
  req: IncomingMessage,
  res: ServerResponse,
  context: ServiceContext,
  query: string,
): void {
  readFormBodyThen(req, (body) => {
    try {
      const reply = body.ok ? answerToken(req, query, body.text, context) : body.reply;
      // Only the SAML grant answers with a promise.
      if (reply instanceof Promise) {
        reply
          .then((settled) => sendJson(res, settled, NO_STORE))
          .catch((error: unknown) => answerInternalError(res, error, context.log));
      } else sendJson(res, reply, NO_STORE);
    } catch (error) {
      answerInternalError(res, error, context.log);
    }
  });
}

/** The token endpoint's answer; parameters come from the query string and the form body alike. */
export function answerToken(
  req: IncomingMessage,
  query: string,
  body: string,
  context: ServiceContext,
): JsonReply | Promise<JsonReply> {
  const parsed = parseParams(query, body);
  if (!parsed.ok) {
    return oauthError(
      400,
      'invalid_request',
      `parameter ${sanitizeEcho(parsed.duplicate, 50)} is given more than once`,
    );
  }
  const { params } = parsed;

  const credentials = clientCredentials(req.headers.authorization, params);
  if (!credentials.ok) {
    return credentials.error === 'invalid_client'
      ? invalidClient(credentials.problem)
      : oauthError(400, 'invalid_request', credentials.problem);
  }
  if (credentials.clientId === undefined) return consumerKeyError('');
  const app = context.registry.app(credentials.clientId);
  if (!app) return consumerKeyError(credentials.clientId);
  if (credentials.clientSecret === undefined) return invalidClient('client_secret is required');
  if (!context.registry.clientSecretMatches(app, credentials.clientSecret)) {
    return invalidClient('client authentication failed: wrong client_secret');
  }

  const grantType = params.get('grant_type');
  if (grantType === undefined) return oauthError(400, 'invalid_request', 'grant_type is required');
  const handler = app.grantHandlers.get(grantType);
  if (handler === undefined) {
    // The refusals only: a known grant the application lacks, or one the service does not know.
    return (GRANT_NAMES as readonly string[]).includes(grantType)
      ? oauthError(400, 'unauthorized_client', `this application is not enabled for grant_type ${grantType}`)
      : oauthError(400, 'unsupported_grant_type', `unknown grant_type ${sanitizeEcho(grantType, 100)}`);
  }
  const endOtherSessions = parseFlag(params.get('endOtherSessions'));
  if (endOtherSessions === undefined) {
    return oauthError(400, 'invalid_request', 'endOtherSessions must be True or False');
  }
  return handler({ app, params, endOtherSessions }, context);
}
