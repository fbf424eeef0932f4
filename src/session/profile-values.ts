/**
 * The optional values a profile may carry besides its service (docs/contract.md §2.1: `email`,
 * `timeout`, `ca_file`), checked before they are saved, so that a later run never stumbles on
 * what an earlier one wrote. The password is never one of them.
 */
import { isAbsolute, resolve } from 'node:path';
import { loadExtraCertificates } from '../http/ca-certificates.js';
import { forbiddenEmailCharacter } from '../text/email-identity.js';
import { SettingError, type SettingOrigin } from './setting-error.js';

const OPTION: SettingOrigin = { kind: 'option' };

/**
 * An email as a profile keeps it: as given (nothing trimmed or folded — the service decides what
 * matches, src/text/email-identity.ts), with a local part and a domain around one `@`, and none
 * of the characters no address may hold (controls, format characters, white space).
 */
export function checkEmail(raw: string, origin: SettingOrigin = OPTION): string {
  const hint = 'give the address the user logs in with, such as alice@example.com';
  const forbidden = forbiddenEmailCharacter(raw) ?? (raw.includes(' ') ? 'U+0020' : undefined);
  if (forbidden !== undefined) {
    // The raw text is not echoed: the character may be invisible, or move the cursor.
    throw new SettingError(
      'email',
      origin,
      `the email holds ${forbidden}, which no address may contain`,
      hint,
    );
  }
  const at = raw.lastIndexOf('@');
  if (at <= 0 || at === raw.length - 1) {
    throw new SettingError('email', origin, `"${raw}" is not an email address`, hint);
  }
  return raw;
}

/**
 * A CA certificate file as a profile keeps it: an absolute path (later runs start elsewhere) to a
 * readable file holding at least one PEM certificate.
 *
 * @throws InputError `ca_file_unreadable` / `ca_file_not_pem` (src/http/ca-certificates.ts).
 */
export function checkCaFile(raw: string, cwd: string = process.cwd()): string {
  const path = isAbsolute(raw) ? raw : resolve(cwd, raw);
  // Only this file: NODE_EXTRA_CA_CERTS is the environment's, checked when a request is made.
  loadExtraCertificates(path, {});
  return path;
}
