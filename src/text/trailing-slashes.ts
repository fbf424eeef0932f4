/**
 * `text` without the slashes it ends with (what `.replace(/\/+$/, '')` gives): a base URL's or a
 * path's trailing slashes, which must not double up when a path is appended.
 *
 * Written out rather than as a regular expression: V8 compiles each regular expression the first
 * time it runs, and base URLs are checked on every cached `tokencli token` (bench/README.md,
 * Decisions).
 */
export function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x2f) end--;
  return end === text.length ? text : text.slice(0, end);
}
