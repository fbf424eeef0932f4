/**
 * Whether `text` is one or more ASCII digits, 0-9 (what `/^\d+$/` matches, without the u flag).
 *
 * Written out rather than as a regular expression: V8 compiles each regular expression the first
 * time it runs, and the rules that use this run on every cached `tokencli token` (bench/README.md,
 * Decisions).
 */
export function isAsciiDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}
