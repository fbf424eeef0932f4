/**
 * The short page the browser tab shows after the redirect reaches the listener. Self-contained
 * (no scripts, images, fonts or third-party resources), every text HTML-escaped, and served with
 * headers that keep the URL (which carried the code) out of referrers, caches and frames.
 */
import { createHash } from 'node:crypto';
import { escapeHtml } from '../text/escape-html.js';

/** What the page says. */
export interface CallbackPage {
  ok: boolean;
  title: string;
  message: string;
}

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
main { max-width: 32rem; margin: 1.5rem; padding: 2rem; border-radius: 12px; border: 1px solid #8884; }
h1 { font-size: 1.4rem; margin: 0 0 0.75rem; }
h1 span { margin-right: 0.4rem; }
.ok h1 span { color: #1a7f37; }
.fail h1 span { color: #cf222e; }
p { line-height: 1.5; margin: 0.5rem 0 0; overflow-wrap: anywhere; }
.small { opacity: 0.75; font-size: 0.9rem; }
`;

/** The CSP admits exactly the one inline style block above, by hash; nothing else may load. */
const STYLE_HASH = createHash('sha256').update(STYLE, 'utf8').digest('base64');

/** Headers of every answer the listener gives. */
export const CALLBACK_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // One request per connection: nothing keeps the listener open after the answer (see close()).
  Connection: 'close',
};

/** Renders a complete page; every piece of text is escaped here, callers pass plain text. */
export function renderCallbackPage(page: CallbackPage): string {
  const mark = page.ok ? '✓' : '✕';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(page.title)} · tokencli</title>
<style>${STYLE}</style>
</head>
<body>
<main class="${page.ok ? 'ok' : 'fail'}">
<h1><span aria-hidden="true">${mark}</span>${escapeHtml(page.title)}</h1>
<p>${escapeHtml(page.message)}</p>
<p class="small">tokencli</p>
</main>
</body>
</html>
`;
}

/** The pages of the login flow, in one place so their wording stays consistent. */
export const pages = {
  success: (detail: string): CallbackPage => ({
    ok: true,
    title: 'Logged in',
    message: `${detail} You can close this tab and return to the terminal.`,
  }),
  exchangeFailed: (): CallbackPage => ({
    ok: false,
    title: 'Login failed',
    message: 'The browser step worked, but exchanging the code for tokens failed. The terminal says why.',
  }),
  wrongState: (): CallbackPage => ({
    ok: false,
    title: 'Not this login',
    message:
      'This answer does not belong to the login waiting in the terminal (its state does not match), so it was ignored. ' +
      'If you started tokencli login again, finish in the newest browser tab.',
  }),
  refused: (description: string): CallbackPage => ({
    ok: false,
    title: 'Login not completed',
    message: `The service answered: ${description}. The terminal says what to do next.`,
  }),
  alreadyDone: (): CallbackPage => ({
    ok: false,
    title: 'Already finished',
    message: 'This login has already finished. You can close this tab.',
  }),
  interrupted: (): CallbackPage => ({
    ok: false,
    title: 'Login interrupted',
    message: 'The login was stopped in the terminal before it finished. Nothing was stored.',
  }),
  notFound: (): CallbackPage => ({ ok: false, title: 'Not found', message: 'Nothing here.' }),
  forbiddenHost: (): CallbackPage => ({
    ok: false,
    title: 'Forbidden',
    message: 'This listener only answers requests addressed to its loopback address.',
  }),
  wrongMethod: (): CallbackPage => ({
    ok: false,
    title: 'Method not allowed',
    message: 'The login redirect arrives with GET.',
  }),
};
