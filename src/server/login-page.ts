/**
 * The authorize endpoint's HTML: the login page and the error page (docs/contract.md §3). Plain HTML that
 * works without JavaScript, one inline style sheet allowed by its hash in the CSP, no resource
 * from anywhere else, and every echoed value escaped.
 */
import type { ServerResponse } from 'node:http';
import { escapeHtml } from '../text/escape-html.js';
import { PAGE_STYLE, PAGE_STYLE_HASH } from '../text/page-style.js';

/**
 * No script, no frame, no resource from elsewhere; the style sheet allowed only by its hash.
 * `form-action` is left out on purpose: browsers also apply it to the redirect after the form
 * posts, which goes to the application's (any) redirect URI.
 */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src 'sha256-${PAGE_STYLE_HASH}'; base-uri 'none'; frame-ancestors 'none'`,
  // `same-origin`, not `no-referrer`: under `no-referrer` a browser sends `Origin: null` with the
  // form's post, which the cross-site check (src/server/http/form-origin.ts) cannot tell from a
  // sandboxed page elsewhere. Other sites still get no referrer.
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
${content}
<footer>tokencli local token service</footer>
</main>
</body>
</html>
`;
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { ...PAGE_HEADERS, 'content-length': Buffer.byteLength(html) });
  res.end(html);
}

export interface LoginPage {
  appName: string;
  /** Authorization request parameters to post back unchanged. */
  hidden: ReadonlyArray<readonly [name: string, value: string]>;
  /** The email typed before, kept after a failed attempt. */
  email?: string;
  /** Shown above the form after a failed attempt. */
  error?: string;
}

/**
 * The login form; it posts to the authorize endpoint itself (relative, so a path prefix works).
 * The email field is plain text with an email keyboard, not `type="email"`: browsers refuse
 * internationalised addresses (`jörg@example.com`) there, and the service accepts any address its
 * configuration lists. "Deny" skips validation and sends the browser back with access_denied.
 */
export function sendLoginPage(res: ServerResponse, view: LoginPage): void {
  const app = escapeHtml(view.appName);
  const hidden = view.hidden
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const error =
    view.error === undefined
      ? ''
      : `<p class="error" id="login-error" role="alert">${escapeHtml(view.error)}</p>\n`;
  const describedBy = view.error === undefined ? '' : ' aria-describedby="login-error"';
  const emailFocus = view.email === undefined ? ' autofocus' : '';
  const passwordFocus = view.email === undefined ? '' : ' autofocus';
  const html = page(
    `Sign in · ${view.appName}`,
    `<h1>Sign in</h1>
<p class="lead"><strong>${app}</strong> asks to use your account</p>
${error}<form method="post" action="authorize">
${hidden}
<label for="email">Email</label>
<input type="text" inputmode="email" id="email" name="email" autocomplete="username" autocapitalize="none" spellcheck="false" required${emailFocus}${describedBy} value="${escapeHtml(view.email ?? '')}">
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required${passwordFocus}${describedBy}>
<p class="scope">Signing in lets ${app} obtain tokens for your account from this service.</p>
<div class="actions">
<button type="submit" name="decision" value="allow">Sign in</button>
<button type="submit" name="decision" value="deny" class="secondary" formnovalidate>Deny</button>
</div>
</form>`,
  );
  send(res, 200, html);
}

const BAD_REQUEST_LEAD = `The application sent an authorization request this service cannot accept. Close this
page and check the application's client_id and redirect_uri.`;

/**
 * An authorization request that cannot go on; never a redirect (RFC 6749 §4.1.2.1). `lead` (plain
 * text) says what to do where the default, about the application's request, does not fit.
 */
export function sendErrorPage(
  res: ServerResponse,
  status: number,
  message: string,
  lead: string = BAD_REQUEST_LEAD,
): void {
  const html = page(
    'Cannot sign in',
    `<h1>Cannot sign in</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p class="lead">${escapeHtml(lead)}</p>`,
  );
  send(res, status, html);
}
