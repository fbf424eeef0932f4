/**
 * Whether a form post to the login page came from a page of another origin (cross-site request
 * forgery), by what the browser says about it. A page elsewhere can make a browser post the form
 * (a "simple" request needs no CORS preflight) — with the demo configuration's public credentials,
 * or to deny on the user's behalf — so such posts are refused, as the control API refuses every
 * request a browser marks as coming from a page.
 *
 * - `Sec-Fetch-Site`, where the browser sends it, decides: only `same-origin` (the login page
 *   itself) and `none` (the user, not a page) pass. It is the browser's own view of the page's
 *   origin, so it holds behind a proxy that rewrites `Host`.
 * - Else `Origin` (browsers send it on every form post) must name this service: the scheme's host
 *   and port as the request's `Host` header gives them. `null` (a sandboxed or opaque page) does not.
 * - A post with neither header comes from a program (curl, a test posting the form), which no
 *   page can steer; it is served as before.
 */
import type { IncomingMessage } from 'node:http';

export function postedFromElsewhere(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  return !isOwnOrigin(origin, req.headers.host);
}

function isOwnOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined || /[/?#@\\\s]/.test(host)) return false;
  try {
    const from = new URL(origin);
    if ((from.protocol !== 'http:' && from.protocol !== 'https:') || from.origin !== origin.toLowerCase()) {
      return false;
    }
    // Parsed with the origin's scheme, so that default ports compare equal (`:80`, `:443`).
    return from.host === new URL(`${from.protocol}//${host}`).host;
  } catch {
    return false;
  }
}
