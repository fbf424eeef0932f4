/**
 * Escapes text for HTML element content and (double- or single-quoted) attribute values. Shared by
 * the login page of `tokencli serve` and the browser pages of `tokencli login`: both echo text that
 * came from a request (an error description, an application name, a state).
 */
const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}
