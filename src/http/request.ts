/**
 * One HTTP exchange with the token service (docs/contract.md §2.4), over node's HTTP client or undici (dispatcher.ts): `User-Agent` on every
 * request, a deadline covering connect, headers and body of each attempt, the retries of
 * retry-policy.ts, no redirects followed (undici's `request` never follows them; the caller turns
 * a 3xx into an error), bodies capped at 1 MiB, a redacted `--verbose` trace.
 *
 * Transport failures become NetworkError (exit 5). Any HTTP status, error or not, is returned to
 * the caller, which knows what the body should be.
 */
import { VERSION } from '../version.js';
import { dispatcherFor, wholeMs } from './dispatcher.js';
import { classifyNetworkError, isNotConnected, NetworkError, timeoutError } from './network-error.js';
import type { Transport } from './node-transport.js';
import { MAX_RESPONSE_BYTES, readCappedBody } from './read-body.js';
import {
  connectBackoffMs,
  MAX_RETRIES,
  MAX_RETRY_AFTER_MS,
  RETRYABLE_STATUSES,
  retryAfterMs,
} from './retry-policy.js';
import type { HttpSettings } from './settings.js';
import { noteLine, requestLine, responseLine } from './trace.js';

export const USER_AGENT = `tokencli/${VERSION}`;

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: URL;
  /** Added to `User-Agent`; header names in lower case. */
  headers?: Record<string, string>;
  /** An `application/x-www-form-urlencoded` body (the caller sets the content type). */
  body?: string;
  /** False for requests that must be sent at most once (`authorization_code`, docs/contract.md §2.4). */
  retry: boolean;
  /** The caller's cancellation (Ctrl-C); its reason is rethrown as it is. */
  signal?: AbortSignal | undefined;
  /** Secret values this request carries: removed from the trace wherever they appear. */
  secrets?: readonly string[];
}

export interface HttpResponse {
  status: number;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The body decoded as UTF-8 (at most 1 MiB, see read-body.ts). */
  body: string;
}

/**
 * Sends the request, retrying only as docs/contract.md §2.4 allows, and returns the final response whatever
 * its status. Throws NetworkError (exit 5) when no complete response arrived, UsageError (exit 2)
 * for an unreadable `--ca-file`, and the caller's abort reason when its signal fires.
 */
export async function sendRequest(settings: HttpSettings, request: HttpRequest): Promise<HttpResponse> {
  if (!(settings.timeoutMs > 0) || !Number.isFinite(settings.timeoutMs)) {
    throw new TypeError(
      `HttpSettings.timeoutMs must be a positive number of milliseconds, got ${settings.timeoutMs}`,
    );
  }
  const call = await dispatcherFor(settings);
  const secrets = request.secrets ?? [];
  const trace = settings.trace;
  try {
    for (let attempt = 1; ; attempt++) {
      const retriesLeft = request.retry && attempt <= MAX_RETRIES;
      let response: HttpResponse;
      try {
        response = await attemptOnce(call.dispatcher, settings, request, attempt);
      } catch (error) {
        if (request.signal?.aborted) throw request.signal.reason ?? error;
        const failure =
          error instanceof NetworkError
            ? error
            : classifyNetworkError(error, request.url.origin, settings.timeoutMs, secrets);
        if (retriesLeft && isNotConnected(error)) {
          const wait = connectBackoffMs(attempt);
          trace?.(
            noteLine(
              `${failure.message}; retrying in ${wait} ms (retry ${attempt} of ${MAX_RETRIES})`,
              secrets,
            ),
          );
          await pause(settings, wait, request.signal);
          continue;
        }
        trace?.(noteLine(failure.message, secrets));
        throw failure;
      }
      if (retriesLeft && RETRYABLE_STATUSES.has(response.status)) {
        const wait = retryAfterMs(response.headers['retry-after'], Date.now());
        if (wait !== undefined && wait <= MAX_RETRY_AFTER_MS) {
          trace?.(
            noteLine(
              `HTTP ${response.status}; retrying in ${wait} ms as Retry-After asks (retry ${attempt} of ${MAX_RETRIES})`,
              secrets,
            ),
          );
          await pause(settings, wait, request.signal);
          continue;
        }
      }
      return response;
    }
  } finally {
    await call.close();
  }
}

async function attemptOnce(
  dispatcher: Transport,
  settings: HttpSettings,
  request: HttpRequest,
  attempt: number,
): Promise<HttpResponse> {
  const { url, method } = request;
  const secrets = request.secrets ?? [];
  const headers = { ...request.headers, 'user-agent': USER_AGENT };
  const timeoutMs = wholeMs(settings.timeoutMs);
  // One deadline over connect, headers and body, as AbortSignal.timeout; undici's own connect,
  // headers and body timeouts (dispatcher.ts) back it up on the socket.
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
  settings.trace?.(requestLine({ method, url, headers, body: request.body, attempt }, secrets));
  // Timed only for the trace: the clock of `performance` is a module load of its own.
  const started = settings.trace ? performance.now() : 0;
  try {
    const res = await dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method,
      headers,
      body: request.body,
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const read = await readCappedBody(res.body);
    const responseHeaders = flattenHeaders(res.headers);
    settings.trace?.(
      responseLine(
        method,
        url,
        res.statusCode,
        performance.now() - started,
        responseHeaders,
        read.text,
        secrets,
      ),
    );
    if (read.tooLarge) {
      throw new NetworkError(
        `the response from ${url.origin} (HTTP ${res.statusCode}) was larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB and was cut off`,
        'too_large',
        undefined,
        'too_large',
      );
    }
    return { status: res.statusCode, headers: responseHeaders, body: read.text };
  } catch (error) {
    if (!request.signal?.aborted && deadline.aborted) throw timeoutError(url.origin, timeoutMs, error);
    throw error;
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The back-off wait: the injected sleep (tests) or a timer that Ctrl-C cuts short. */
async function pause(settings: HttpSettings, ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (settings.sleep) await settings.sleep(ms);
  else {
    try {
      // Loaded on the first retry only: a call that succeeds at once never waits. Not by
      // `import()`: a bundle gives a builtin imported that way as a default export only.
      const { setTimeout: delay } = process.getBuiltinModule('node:timers/promises');
      await delay(ms, undefined, signal ? { signal } : undefined);
    } catch (error) {
      throw signal?.reason ?? error;
    }
  }
  if (signal?.aborted) throw signal.reason;
}
