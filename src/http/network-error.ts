/**
 * Failures where no usable HTTP response arrived: connection errors, timeouts, TLS failures, an
 * oversize body. All are exit 5 (docs/contract.md §2.6: "the service could not be reached or failed"), code
 * `network`. The `reason` says which failure it was (`tls_untrusted`, `connect`, `timeout`, …) so
 * that the CLI can name the fix in its own terms (src/cli/output/error-hints.ts).
 */
import { TokencliError } from '../errors.js';
import { formatSeconds } from '../text/seconds.js';
import { scrubKnownSecrets } from './redact.js';

/** What went wrong on the wire, for callers and tests that need more than the message. */
export type NetworkFailure =
  | 'timeout'
  | 'connect'
  | 'dns'
  | 'tls'
  | 'reset'
  | 'proxy'
  | 'too_large'
  | 'other';

/** The finer failure, for hints: which TLS problem, or a non-HTTP answer. */
export type NetworkReason =
  | Exclude<NetworkFailure, 'tls'>
  | 'tls_untrusted'
  | 'tls_clock'
  | 'tls_hostname'
  | 'tls_handshake'
  | 'not_http';

export class NetworkError extends TokencliError {
  readonly failure: NetworkFailure;
  /** The system or undici error code that caused it (`ECONNREFUSED`, `CERT_HAS_EXPIRED`, …). */
  readonly systemCode: string | undefined;

  constructor(
    message: string,
    failure: NetworkFailure,
    systemCode: string | undefined,
    reason: NetworkReason,
    cause?: unknown,
    details: Record<string, string | number | undefined> = {},
  ) {
    super(message, { code: 'network', reason, details, cause });
    this.name = 'NetworkError';
    this.failure = failure;
    this.systemCode = systemCode;
  }
}

/** Certificate problems a missing CA explains: the hint is to add one (docs/contract.md §2.4). */
const UNTRUSTED_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_CHAIN_TOO_LONG',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REJECTED',
]);
const CLOCK_CODES = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const HOSTNAME_CODES = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'UND_ERR_PRX_TLS']);

/** The error, its `cause`s and an AggregateError's members, each once. */
function errorChain(error: unknown): object[] {
  const chain: object[] = [];
  const visit = (e: unknown): void => {
    if (e === null || typeof e !== 'object' || chain.includes(e)) return;
    chain.push(e);
    visit((e as { cause?: unknown }).cause);
    const members = (e as { errors?: unknown }).errors;
    if (Array.isArray(members)) for (const m of members) visit(m);
  };
  visit(error);
  return chain;
}

/** Every error code in the chain (`ECONNREFUSED`, `UND_ERR_SOCKET`, `CERT_HAS_EXPIRED`, …). */
export function errorCodes(error: unknown): string[] {
  return (
    errorChain(error)
      // A TokencliError's `code` is its own kind (`network`, `usage`), not a system error code.
      .filter((e) => !(e instanceof TokencliError))
      .map((e) => (e as { code?: unknown }).code)
      .filter((c): c is string => typeof c === 'string')
  );
}

/** True when the error proves no request reached the service: the only retryable failures (docs/contract.md §2.4). */
export function isNotConnected(error: unknown): boolean {
  return errorCodes(error).some((c) => c === 'ECONNREFUSED' || c === 'ENOTFOUND' || c === 'EAI_AGAIN');
}

/**
 * Turns an error thrown by undici into a NetworkError. `target` is the origin (never a full URL
 * with a query) so nothing secret ends up in the message.
 */
export function classifyNetworkError(
  error: unknown,
  target: string,
  timeoutMs: number,
  secrets: readonly string[] = [],
): NetworkError {
  const codes = errorCodes(error);
  // undici's own wording is shown in two cases below; it never should, but could, quote a header.
  const messageOf = (e: unknown) => scrubKnownSecrets(e instanceof Error ? e.message : String(e), secrets);
  const has = (set: Set<string>) => codes.find((c) => set.has(c));
  const seconds = formatSeconds(timeoutMs);

  if (codes.some((c) => c.startsWith('UND_ERR_') && c.endsWith('_TIMEOUT')) || codes.includes('ETIMEDOUT')) {
    return timeoutError(target, timeoutMs, error);
  }
  const untrusted = has(UNTRUSTED_CODES);
  if (untrusted) {
    return new NetworkError(
      `the TLS certificate of ${target} is not trusted (${untrusted})`,
      'tls',
      untrusted,
      'tls_untrusted',
      error,
    );
  }
  const clock = has(CLOCK_CODES);
  if (clock) {
    const what = clock === 'CERT_HAS_EXPIRED' ? 'has expired' : 'is not yet valid';
    return new NetworkError(
      `the TLS certificate of ${target} ${what} (${clock})`,
      'tls',
      clock,
      'tls_clock',
      error,
    );
  }
  const hostname = has(HOSTNAME_CODES);
  if (hostname) {
    return new NetworkError(
      `the TLS certificate of ${target} does not match its host name (${hostname})`,
      'tls',
      hostname,
      'tls_hostname',
      error,
    );
  }
  const tls = codes.find((c) => c.startsWith('ERR_SSL_') || c.startsWith('ERR_TLS_') || c === 'EPROTO');
  if (tls) {
    return new NetworkError(
      `the TLS handshake with ${target} failed (${tls})`,
      'tls',
      tls,
      'tls_handshake',
      error,
    );
  }
  if (codes.includes('ECONNREFUSED')) {
    return new NetworkError(
      `could not connect to ${target}: connection refused`,
      'connect',
      'ECONNREFUSED',
      'connect',
      error,
    );
  }
  const dns = codes.find((c) => c === 'ENOTFOUND' || c === 'EAI_AGAIN');
  if (dns) {
    return new NetworkError(`could not resolve the host of ${target} (${dns})`, 'dns', dns, 'dns', error);
  }
  // undici reports a refused CONNECT (`Proxy response (502) !== 200 …`) or a 407 only in the message.
  if (/\bproxy\b/i.test(messageOf(error))) {
    return new NetworkError(
      `the proxy refused to connect to ${target}: ${messageOf(error)}`,
      'proxy',
      codes[0],
      'proxy',
      error,
    );
  }
  // undici's HTTPParserError carries an HPE_ code only for some parser errors; else its message says.
  const parserError = errorChain(error).find((e) => (e as { name?: unknown }).name === 'HTTPParserError');
  const parseCode = codes.find((c) => c.startsWith('HPE_'));
  if (parseCode || parserError) {
    const detail = parseCode ? ` (${parseCode})` : `: ${messageOf(parserError)}`;
    return new NetworkError(
      `the answer from ${target} is not valid HTTP${detail}`,
      'other',
      parseCode,
      'not_http',
      error,
    );
  }
  const reset = codes.find((c) => c === 'ECONNRESET' || c === 'EPIPE' || c === 'UND_ERR_SOCKET');
  if (reset) {
    return new NetworkError(
      `the connection to ${target} broke before the response was complete (${reset})`,
      'reset',
      reset,
      'reset',
      error,
      { timeoutSeconds: seconds },
    );
  }
  const code = codes[0];
  return new NetworkError(
    `the request to ${target} failed${code ? ` (${code})` : ''}: ${messageOf(error)}`,
    'other',
    code,
    'other',
    error,
  );
}

/** The request deadline passed: exit 5 "timed out after N s" (the CLI's hint names `--timeout`). */
export function timeoutError(target: string, timeoutMs: number, cause?: unknown): NetworkError {
  return new NetworkError(
    `the request to ${target} timed out after ${formatSeconds(timeoutMs)} s`,
    'timeout',
    'ETIMEDOUT',
    'timeout',
    cause,
  );
}
