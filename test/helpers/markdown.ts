/** What the tests read from the project's Markdown documents. */

/** A document without its fenced code blocks, whose `#` lines are shell comments, not headings. */
export function prose(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

/** The target of every inline link in a document's prose, as written: `path#heading` or an address. */
export function linkTargets(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '');
}

/** Whether a link target is an address (`https:`, `mailto:`), not a path relative to the document. */
export function isAddress(target: string): boolean {
  return /^[a-z]+:/.test(target);
}
