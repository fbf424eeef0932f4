/**
 * Turns what a user hands `tokencli sso` (a file or stdin) into the form value the service wants:
 * base64 of XML (docs/contract.md §1, §2.2). Raw XML is encoded here; base64 is checked to decode to XML so
 * that a wrong file fails locally with a clear message instead of as an opaque `invalid_grant`.
 */
import { UsageError } from '../errors.js';

export interface EncodeSamlInputOptions {
  /** Limit on the XML (decoded) size in bytes. */
  maxBytes: number;
  /** What the input is called in messages (a file name, `stdin`); default `the SAML input`. */
  label?: string;
}

const BOM = '\ufeff';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function kib(bytes: number): string {
  return `${Math.ceil(bytes / 1024)} KiB`;
}

function tooLarge(label: string, bytes: number, maxBytes: number): UsageError {
  return new UsageError(
    `${label} is too large (${kib(bytes)}; the limit is ${kib(maxBytes)})`,
    'pass a single SAML response or assertion, not a log or an archive',
  );
}

/** Whether the text, after a byte-order mark and whitespace, starts like XML. */
function looksLikeXml(text: string): boolean {
  return text.replace(BOM, '').trimStart().startsWith('<');
}

/**
 * Returns the base64 encoding of the SAML XML in `raw`, which holds either the XML itself or its
 * base64 (line breaks and other whitespace are allowed and dropped).
 *
 * @throws UsageError (exit 2) when the input is empty, over `maxBytes`, not valid UTF-8, or neither
 *   XML nor base64 of XML
 */
export function encodeSamlInput(raw: Buffer | string, options: EncodeSamlInputOptions): string {
  const label = options.label ?? 'the SAML input';
  const { maxBytes } = options;
  const rawBytes = typeof raw === 'string' ? Buffer.byteLength(raw) : raw.length;
  // Base64 is 4/3 the size of what it encodes, plus line breaks: refuse more before decoding.
  if (rawBytes > Math.ceil(maxBytes / 3) * 4 * 1.1 + 1024) throw tooLarge(label, rawBytes, maxBytes);
  let text: string;
  try {
    text = typeof raw === 'string' ? raw : new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new UsageError(`${label} is not UTF-8 text`, 'pass the SAML XML or its base64 encoding');
  }
  if (text.trim() === '' || text.replace(BOM, '').trim() === '') {
    throw new UsageError(`${label} is empty`, 'pass a file holding the SAML XML or its base64 encoding');
  }

  if (looksLikeXml(text)) {
    const xml = Buffer.from(text.replace(BOM, '').trimStart(), 'utf8');
    if (xml.length > maxBytes) throw tooLarge(label, xml.length, maxBytes);
    return xml.toString('base64');
  }

  const compact = text.replace(BOM, '').replace(/\s+/g, '');
  const neither = new UsageError(
    `${label} is neither XML nor base64 of XML`,
    'pass the SAML XML as it is, or its standard base64 encoding',
  );
  if (!BASE64.test(compact) || compact.length % 4 === 1) throw neither;
  const decoded = Buffer.from(compact, 'base64');
  if (decoded.length > maxBytes) throw tooLarge(label, decoded.length, maxBytes);
  let decodedText: string;
  try {
    decodedText = new TextDecoder('utf-8', { fatal: true }).decode(decoded);
  } catch {
    throw neither;
  }
  if (!looksLikeXml(decodedText)) throw neither;
  // Re-encoded so the service gets canonical padding and no byte-order mark.
  return Buffer.from(decodedText.replace(BOM, '').trimStart(), 'utf8').toString('base64');
}
