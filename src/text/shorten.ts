/**
 * Cutting text from outside to a length a terminal line can hold, where a reader still gets whole
 * words: at the last sentence end that fits (nothing more to mark, what is left reads as said),
 * else at the last word end, marked with `…`; only one word longer than the whole limit (a token,
 * a URL) is cut inside itself.
 */

/** A sentence end: `.`, `!` or `?`, closing quotes or brackets after it, then white space. */
const SENTENCE_END = /[.!?]["'”’)\]]*(?=\s)/g;

/**
 * `text` (already on one line) at most `max` characters long, `…` included.
 *
 * A sentence end counts only in the later half of the limit, so that a short first sentence
 * ("Error.") does not stand for a long message that a word cut would show more of.
 */
export function shortenText(text: string, max: number): string {
  if (text.length <= max) return text;
  let sentenceEnd = 0;
  for (const match of text.matchAll(SENTENCE_END)) {
    const end = match.index + match[0].length;
    if (end > max) break;
    sentenceEnd = end;
  }
  if (sentenceEnd >= max / 2) return text.slice(0, sentenceEnd);
  const room = text.slice(0, max); // `max - 1` characters of text and the `…`, or a space to cut at
  const wordEnd = room.search(/\s\S*$/);
  if (wordEnd > 0) return `${room.slice(0, wordEnd).trimEnd()}…`;
  return `${text.slice(0, max - 1)}…`;
}

/** Blocks of text (an HTML page's headings and paragraphs) as one line of sentences. */
export function blocksAsSentences(blocks: readonly string[]): string {
  const lines = blocks.map((block) => block.replace(/\s+/g, ' ').trim()).filter(Boolean);
  return lines
    .map((line, i) => (i < lines.length - 1 && !/[.!?:;]["'”’)\]]*$/.test(line) ? `${line}.` : line))
    .join(' ');
}
