/**
 * The token service answered, but not with what was asked for: a refusal (4xx, exit 3), a failure
 * (5xx, exit 5), a redirect, or a body that is not the JSON expected (exit 5) — docs/contract.md §1, §2.6.
 * The message names the HTTP status and the service's code/subcode/message; what to do about it is
 * the CLI's to say (src/cli/output/error-hints.ts), from the fields and the request context kept here.
 */
import { TokencliError } from '../errors.js';
import type { GrantTypeValue } from '../protocol/grants.js';
import type { MalformedReason } from './parse-fields.js';

/** What the request was, so that errors can say what to do about it. */
export interface RequestContext {
  /** `authorize`: the check of the authorize URL before the browser login (authorize-check.ts). */
  endpoint: 'token' | 'tokeninfo' | 'authorize';
  /** The endpoint's URL as requested (no query; any user:password redacted), for hints to name. */
  url?: string | undefined;
  grantType?: GrantTypeValue | undefined;
  clientId?: string | undefined;
  /** Secret values sent with the request: never repeated in an error message. */
  secrets: readonly string[];
}

export interface ServiceErrorFields {
  /** The HTTP status of the response. */
  status: number;
  /** The service's error code: RFC 6749 `error`, `ErrorCode`, or `error.code` of the 403 shape. */
  serviceCode?: string | undefined;
  /** `error.subcode` of the 403 shape (`017` bad credentials, `018` concurrent session). */
  subcode?: string | undefined;
  /** The service's message, sanitised and shortened, or a snippet of an unexpected body. */
  description?: string | undefined;
}

/** What the request was and what else the answer said, for the CLI's hints. */
export interface ServiceErrorContext {
  endpoint?: RequestContext['endpoint'] | undefined;
  /** The endpoint's URL as requested, when known: a 404's hint names it rather than a pattern. */
  url?: string | undefined;
  grantType?: GrantTypeValue | undefined;
  clientId?: string | undefined;
  /** The ErrorCode/Error/Hint body, the service's answer to an unknown client id. */
  unknownClient?: boolean | undefined;
  /** `Retry-After` in seconds, as "120 s", when the service sent one. */
  retryAfter?: string | undefined;
}

export interface ServiceErrorOptions extends ServiceErrorFields, ServiceErrorContext {
  message: string;
  /** A refusal of what was sent, or a failure of the service. */
  code: 'service_refused' | 'service_unavailable';
  /** `unexpected_response` (a body that is not the JSON expected) or `redirect`. */
  reason?: 'unexpected_response' | 'redirect' | 'access_token_refused' | MalformedReason | undefined;
  details?: Record<string, string | number | undefined> | undefined;
  cause?: unknown;
}

/**
 * The service answered with a refusal (`code` `service_refused`, exit 3) or a failure, redirect or
 * unexpected body (`service_unavailable`, exit 5).
 */
export class ServiceError extends TokencliError {
  /** The HTTP status of the response. */
  readonly status: number;
  /** The service's own error code (`invalid_grant`, `invalid_client`, `403`, …). */
  readonly serviceCode: string | undefined;
  /** `error.subcode` of the 403 shape (`017` bad credentials, `018` concurrent session). */
  readonly subcode: string | undefined;
  /** The service's message, sanitised and shortened, or a snippet of an unexpected body. */
  readonly description: string | undefined;
  readonly context: Readonly<ServiceErrorContext>;

  constructor(options: ServiceErrorOptions) {
    super(options.message, {
      code: options.code,
      reason: options.reason,
      details: options.details,
      cause: options.cause,
    });
    this.name = 'ServiceError';
    this.status = options.status;
    this.serviceCode = options.serviceCode;
    this.subcode = options.subcode;
    this.description = options.description;
    this.context = {
      endpoint: options.endpoint,
      url: options.url,
      grantType: options.grantType,
      clientId: options.clientId,
      unknownClient: options.unknownClient,
      retryAfter: options.retryAfter,
    };
  }
}

/** Statuses in the 4xx range that say nothing about the credentials: the service failed or is elsewhere. */
const NOT_A_REFUSAL = new Set([404, 405, 408, 413, 429]);

/**
 * Exit 3 where the service refused what was sent (docs/contract.md §2.6: bad credentials, grant not enabled,
 * invalid code or token), exit 5 for everything else: 5xx, redirects, wrong endpoint, rate limits.
 */
export function isRefusalStatus(status: number): boolean {
  return status >= 400 && status < 500 && !NOT_A_REFUSAL.has(status);
}

/**
 * `the token service refused the request (HTTP 403, subcode 017): Credential provided is invalid.`
 * The code is left out where it only repeats the status (the 403 shape's `"code":403`).
 */
export function serviceErrorMessage(fields: ServiceErrorFields, refused: boolean): string {
  const { status, serviceCode: code, subcode, description } = fields;
  const lead = refused
    ? 'the token service refused the request'
    : status >= 500
      ? 'the token service failed'
      : 'the token service sent an unexpected response';
  const parts = [`HTTP ${status}`];
  if (code && code !== String(status)) parts.push(code);
  if (subcode) parts.push(`subcode ${subcode}`);
  // Without a description or a code there was nothing in the body to show.
  const what = description ? `: ${description}` : code || subcode ? '' : ' with an empty body';
  return `${lead} (${parts.join(', ')})${what}`;
}

/**
 * A 2xx (or 3xx) whose body is not the JSON expected: exit 5, the message saying what was wrong
 * (`access_token is missing`, `the body is not JSON: <snippet>`).
 */
export function unexpectedResponseError(
  status: number,
  problem: string,
  cause?: unknown,
  endpoint: RequestContext['endpoint'] = 'token',
  /** `bad_lifetime` / `bad_token_type`: the JSON is the service's, one field in it is unusable (parse-fields.ts). */
  reason: 'unexpected_response' | MalformedReason = 'unexpected_response',
  url?: string,
): ServiceError {
  return new ServiceError({
    status,
    description: problem,
    message: `the token service sent an unexpected response (HTTP ${status}): ${problem}`,
    code: 'service_unavailable',
    reason,
    endpoint,
    url,
    cause,
  });
}

/**
 * The same refusal of a stored access token after it was dropped from the cache: reason
 * `access_token_refused`, details `canRenew` (1 when a refresh token remains to renew it).
 */
export function droppedTokenError(refused: ServiceError, canRenew: boolean): ServiceError {
  return new ServiceError({
    status: refused.status,
    serviceCode: refused.serviceCode,
    subcode: refused.subcode,
    description: refused.description,
    ...refused.context,
    message: refused.message,
    code: refused.code === 'service_unavailable' ? 'service_unavailable' : 'service_refused',
    reason: 'access_token_refused',
    details: { canRenew: canRenew ? 1 : 0 },
    cause: refused,
  });
}
