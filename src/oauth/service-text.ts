/**
 * Text from the service as it may be shown to a person (docs/contract.md §2.4): secrets redacted, control
 * characters and escape sequences removed, whitespace collapsed, and shortened at a sentence or word
 * end. HTML is reduced to its text, each heading or paragraph a sentence, so a gateway's error page
 * reads as "502 Bad Gateway. nginx" and a login page's as "Cannot sign in. No application is…",
 * not as markup or as a heading run into its paragraph.
 */

import { redactText } from '../http/redact.js';
import { sanitizeText } from '../text/sanitize.js';
import { blocksAsSentences, shortenText } from '../text/shorten.js';

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
  return shortenText(clean, max);
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
 * The text of an HTML page, a sentence per block. Its title is shown only where the page does not
 * repeat it: a gateway's error page (nginx, Apache, a load balancer) has "502 Bad Gateway" as both
 * title and heading, and the message should quote it once.
 */
function htmlText(html: string): string {
  const title = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html)?.[1];
  const blocks = markupBlocks(html.replace(/<title\b[\s\S]*?<\/title\s*>/gi, ' '));
  const titleText = title === undefined ? '' : markupBlocks(title).join(' ');
  const words = (t: string) => t.replace(/\s+/g, ' ').trim();
  const repeated = words(blocks.join(' ')).includes(words(titleText));
  return blocksAsSentences(repeated ? blocks : [titleText, ...blocks]);
}

/**
 * Tags that start or end a block of their own: a heading and the paragraph under it are two
 * sentences, not one run of words. Any other tag (`<a>`, `<b>`, `<code>`) is a space at most.
 */
const BLOCK_TAG =
  /<\/?(?:address|article|aside|blockquote|body|br|center|dd|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|head|header|hr|html|li|main|nav|ol|p|pre|section|table|td|th|tr|ul)\b[^>]*>/gi;

function markupBlocks(html: string): string[] {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(BLOCK_TAG, '\u0000')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .split('\u0000');
}
