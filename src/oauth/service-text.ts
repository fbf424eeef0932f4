/**
 * Text from the service as it may be shown to a person (docs/contract.md §2.4): secrets redacted, control
 * characters and escape sequences removed, whitespace collapsed, and shortened. HTML is reduced to
 * its text so a gateway's error page reads as "502 Bad Gateway nginx", not as markup.
 */

import { redactText } from '../http/redact.js';
import { sanitizeText } from '../text/sanitize.js';

/** Service messages (error descriptions) are cut to this many characters. */
export const MAX_DESCRIPTION_CHARS = 300;
/** Snippets of unexpected bodies (HTML pages, odd JSON) are cut shorter. */
export const MAX_SNIPPET_CHARS = 160;

export function cleanServiceText(
  text: string,
  secrets: readonly string[],
  max = MAX_DESCRIPTION_CHARS,
): string | undefined {
  // Only the start is ever shown: bound the work on a 1 MiB body.
  const head = text.length > 64 * 1024 ? text.slice(0, 64 * 1024) : text;
  const clean = sanitizeText(redactText(head, secrets)).replace(/\s+/g, ' ').trim();
  if (!clean) return undefined;
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}

/** True for a body that looks like markup rather than data. */
export function looksLikeHtml(body: string, contentType: string | undefined): boolean {
  return (
    /\bhtml\b/i.test(contentType ?? '') || /^\s*<(!doctype|html|head|body|\?xml|[a-z]+[\s>])/i.test(body)
  );
}

/** A short, readable snippet of an unexpected body; HTML reduced to its text. */
export function bodySnippet(
  body: string,
  contentType: string | undefined,
  secrets: readonly string[],
): string | undefined {
  // The snippet is short: 16 KiB of the body is plenty, and bounds the regular expressions' work.
  const head = body.slice(0, 16 * 1024);
  const text = looksLikeHtml(head, contentType) ? htmlText(head) : head;
  return cleanServiceText(text, secrets, MAX_SNIPPET_CHARS);
}

/**
 * The text of an HTML page. Its title is shown only where the page does not repeat it: a gateway's
 * error page (nginx, Apache, a load balancer) has "502 Bad Gateway" as both title and heading, and
 * the message should quote it once.
 */
function htmlText(html: string): string {
  const title = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html)?.[1];
  const text = markupText(html.replace(/<title\b[\s\S]*?<\/title\s*>/gi, ' '));
  const titleText = title === undefined ? '' : markupText(title);
  const words = (t: string) => t.replace(/\s+/g, ' ').trim();
  return words(text).includes(words(titleText)) ? text : `${titleText} ${text}`;
}

function markupText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
