/**
 * Where a JSON text is broken, without quoting it. V8's own message quotes the text around the
 * mistake (`Unexpected token 's', ..."_secret": s3cret}" is not valid JSON`), and a configuration
 * file may hold a client secret or a password: an error message must never repeat it.
 */

/** "at line 3, column 17" where V8 says where, else "" (the text itself is never quoted). */
export function jsonErrorPlace(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : '';
  const position = /\bat position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return placeOf(text, Number(position));
  if (/Unexpected end of JSON input/i.test(message)) return 'at the end of the file';
  return '';
}

function placeOf(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `at line ${line}, column ${column}`;
}
