/**
 * The one rule for when two spellings of an email address name the same user of `tokencli serve`:
 * used for the users of the configuration, the login page, the client-credentials grant and the
 * NameID of a SAML assertion, so no user can be reached under a second spelling anywhere.
 *
 * JavaScript's `trim()` strips every Unicode white space (U+00A0, U+FEFF, …) and `toLowerCase()`
 * folds characters such as the Kelvin sign U+212A to an ASCII `k`: with them, a signed NameID of
 * `alice@example.com\u00a0` or `\u212aate@example.com` would reach alice or kate. So: only XML white
 * space is trimmed (XML 1.0 §2.3 `S`), only ASCII letters are folded (the domain part is ASCII case
 * insensitive, RFC 5321 §2.4), everything else must match exactly (`jörg@example.com` still works),
 * and control characters, format characters and non-ASCII white space are refused outright.
 */

/** XML white space (XML 1.0 §2.3): space, tab, carriage return, line feed — nothing else. */
const XML_SPACE_RUN_AT_ENDS = /^[ \t\r\n]+|[ \t\r\n]+$/g;

/**
 * Characters no email address of a user may contain: C0/C1 controls and DEL (Cc), format
 * characters such as U+FEFF, U+200B and bidi overrides (Cf), surrogates and unassigned or private
 * code points (Cs, Cn, Co), and any white space other than the ASCII space.
 */
const NOT_IN_EMAIL = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]|(?! )\p{White_Space}/u;

/** `text` without leading and trailing XML white space (space, tab, CR, LF) only. */
export function trimXmlSpace(text: string): string {
  return text.replace(XML_SPACE_RUN_AT_ENDS, '');
}

/**
 * The first character of `email` that no email address may contain, as `U+XXXX`, or undefined.
 * For messages: the code point is named, never the raw character (it may be invisible).
 */
export function forbiddenEmailCharacter(email: string): string | undefined {
  const match = NOT_IN_EMAIL.exec(email);
  if (!match) return undefined;
  const code = match[0].codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The key two spellings of one user's email share: ASCII letters lower-cased, nothing else
 * changed. Callers refuse `forbiddenEmailCharacter` first; this function does not trim.
 */
export function emailKey(email: string): string {
  return email.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * The lookup key for an email typed or sent by someone else (login form, client-credentials grant,
 * NameID): XML white space trimmed, then `emailKey`; undefined when it holds a forbidden character,
 * so such a spelling matches no user at all.
 */
export function lookupEmailKey(email: string): string | undefined {
  const trimmed = trimXmlSpace(email);
  if (forbiddenEmailCharacter(trimmed) !== undefined) return undefined;
  return emailKey(trimmed);
}
