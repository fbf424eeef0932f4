/**
 * The authorize endpoint's HTML: the login page and the error page (SPEC.md §3). Plain HTML that
 * works without JavaScript, one inline style sheet allowed by its hash in the CSP, no resource
 * from anywhere else, and every echoed value escaped.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { escapeHtml } from '../text/escape-html.js';

const STYLE = `
:root{color-scheme:light dark;--bg:#f4f5f7;--card:#fff;--text:#1d2330;--muted:#5b6474;--line:#c9ced8;
--accent:#2457d6;--accent-text:#fff;--error-bg:#fdecec;--error:#a4161a}
@media (prefers-color-scheme:dark){:root{--bg:#14171c;--card:#1d2129;--text:#e7e9ee;--muted:#9aa3b2;
--line:#3a4150;--accent:#6f95ff;--accent-text:#0d1117;--error-bg:#3b1618;--error:#ffb4b4}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:var(--bg);
color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;padding:1rem}
main{width:100%;max-width:24rem;background:var(--card);border-radius:12px;padding:2rem;
box-shadow:0 1px 3px rgba(0,0,0,.12),0 8px 24px rgba(0,0,0,.08)}
h1{font-size:1.35rem;margin:0 0 .25rem}
p.lead{margin:0 0 1.5rem;color:var(--muted)}
p.lead strong{color:var(--text)}
label{display:block;font-weight:600;margin:1rem 0 .35rem}
input[type=text],input[type=password]{width:100%;padding:.65rem .75rem;font:inherit;color:inherit;
background:transparent;border:1px solid var(--line);border-radius:8px}
input:focus{outline:2px solid var(--accent);outline-offset:1px;border-color:var(--accent)}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{flex:1;padding:.7rem;font:inherit;font-weight:600;border:1px solid var(--accent);border-radius:8px;
background:var(--accent);color:var(--accent-text);cursor:pointer}
button.secondary{background:transparent;color:var(--text);border-color:var(--line)}
p.scope{margin:1rem 0 0;font-size:.9rem;color:var(--muted)}
button:focus-visible{outline:2px solid var(--text);outline-offset:2px}
.error{background:var(--error-bg);color:var(--error);border-radius:8px;padding:.65rem .75rem;margin:0 0 .5rem}
footer{margin-top:1.5rem;font-size:.8rem;color:var(--muted);text-align:center}
code{word-break:break-all}
`;

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/**
 * No script, no frame, no resource from elsewhere; the style sheet allowed only by its hash.
 * `form-action` is left out on purpose: browsers also apply it to the redirect after the form
 * posts, which goes to the application's (any) redirect URI.
 */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; base-uri 'none'; frame-ancestors 'none'`,
  'referrer-policy': 'no-referrer',
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
<style>${STYLE}</style>
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

/** An authorization request that cannot go on; never a redirect (RFC 6749 §4.1.2.1). */
export function sendErrorPage(res: ServerResponse, status: number, message: string): void {
  const html = page(
    'Cannot sign in',
    `<h1>Cannot sign in</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p class="lead">The application sent an authorization request this service cannot accept. Close this
page and check the application's client_id and redirect_uri.</p>`,
  );
  send(res, status, html);
}
