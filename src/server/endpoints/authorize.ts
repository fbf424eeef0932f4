/**
 * `GET|POST /v2/oauth/authorize` (docs/contract.md §3): GET shows the login page, the form posts back,
 * a good login answers 302 to the redirect URI with `code` and `state`. A post a browser sent from
 * another site's page is refused with 403 (src/server/http/form-origin.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { echoValue as sanitizeEcho } from '../../protocol/error-bodies.js';
import { checkAuthorizeRequest } from '../authorize-request.js';
import { readFormBody } from '../http/form-body.js';
import { postedFromElsewhere } from '../http/form-origin.js';
import { parseParams } from '../http/params.js';
import { sendJson } from '../http/reply.js';
import { sendErrorPage, sendLoginPage } from '../login-page.js';
import { redirectWithCode, redirectWithError } from '../redirect-uri.js';
import type { ServiceContext } from './context.js';

export async function handleAuthorize(
  req: IncomingMessage,
  res: ServerResponse,
  context: ServiceContext,
  query: string,
): Promise<void> {
  const isPost = req.method === 'POST';
  let body = '';
  if (isPost) {
    const form = await readFormBody(req);
    if (!form.ok) return sendJson(res, form.reply);
    body = form.text;
    // Read first, so the connection stays usable; then nothing in it is acted on.
    if (postedFromElsewhere(req)) {
      return sendErrorPage(
        res,
        403,
        'This sign-in form was sent from another site, so it was not acted on.',
        'If you did not mean to sign in, close this page. Otherwise start the login again from the application.',
      );
    }
  }
  const parsed = parseParams(query, body);
  if (!parsed.ok) {
    return sendErrorPage(
      res,
      400,
      `The parameter ${sanitizeEcho(parsed.duplicate, 50)} is given more than once.`,
    );
  }
  const { params } = parsed;
  const check = checkAuthorizeRequest(params, context.registry, context.scope);
  if (!check.ok) {
    if (!check.redirect) return sendErrorPage(res, 400, check.message);
    const { redirectUri, error, description, state } = check.redirect;
    return sendRedirect(res, redirectWithError(redirectUri, error, description, state));
  }
  const request = check.request;
  if (!isPost) return sendLoginPage(res, { appName: request.app.name, hidden: request.hidden });
  // "Deny" on the login page: back to the application with access_denied (RFC 6749 §4.1.2.1).
  if (params.get('decision') === 'deny') {
    const denied = 'the user denied the application access';
    return sendRedirect(res, redirectWithError(request.redirectUri, 'access_denied', denied, request.state));
  }

  const email = params.get('email');
  const password = params.get('password');
  const user =
    email !== undefined && password !== undefined
      ? context.registry.authenticateUser(email, password)
      : undefined;
  if (!user) {
    return sendLoginPage(res, {
      appName: request.app.name,
      hidden: request.hidden,
      email: email ?? '',
      error:
        email === undefined || password === undefined
          ? 'Enter your email and your password.'
          : 'The email or password is incorrect.',
    });
  }
  // The concurrent-session rule is applied when the code is exchanged (docs/contract.md §1 rule 10).
  const code = context.store.issueCode(
    request.app,
    user,
    request.redirectUri,
    request.redirectUriGiven,
    request.codeChallenge,
    request.endOtherSessions,
  );
  sendRedirect(res, redirectWithCode(request.redirectUri, code, request.state));
}

function sendRedirect(res: ServerResponse, location: string): void {
  res.writeHead(302, {
    location,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'content-length': 0,
  });
  res.end();
}
