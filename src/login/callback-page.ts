/**
 * The short page the browser tab shows after the redirect reaches the listener, in the look of the
 * local service's login page (src/text/page-style.ts). Self-contained
 * (no scripts, images, fonts or third-party resources), every text HTML-escaped, and served with
 * headers that keep the URL (which carried the code) out of referrers, caches and frames.
 */
import { escapeHtml } from '../text/escape-html.js';
import { PAGE_STYLE, PAGE_STYLE_HASH } from '../text/page-style.js';

/** What the page says. */
export interface CallbackPage {
  ok: boolean;
  title: string;
  message: string;
}

/** Headers of every answer the listener gives. */
export const CALLBACK_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': `default-src 'none'; style-src 'sha256-${PAGE_STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
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
<style>${PAGE_STYLE}</style>
</head>
<body>
<main class="${page.ok ? 'ok' : 'fail'}">
<h1><span class="mark" aria-hidden="true">${mark}</span>${escapeHtml(page.title)}</h1>
<p class="message">${escapeHtml(page.message)}</p>
<footer>tokencli</footer>
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
