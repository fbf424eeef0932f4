/**
 * Fault injection: the next `count` requests to an endpoint get a canned answer instead
 * of the service's — a gateway's HTML 502, a 503 with `Retry-After`, the platform's 017/018 bodies,
 * an RFC 6749 error — or are answered late, for the failures a happy path never shows.
 */
import { GRANT_NAMES } from '../../protocol/grants.js';
import {
  asObject,
  ControlInputError,
  onlyKeys,
  optionalChoice,
  optionalInteger,
  optionalString,
} from './validate.js';

export const FAULT_ENDPOINTS = ['token', 'tokeninfo', 'authorize'] as const;
export type FaultEndpoint = (typeof FAULT_ENDPOINTS)[number];

/**
 * A fault, in the same shape for `POST /_control/faults` and `service.fault(…)`. Only `endpoint`
 * is required. With nothing but `delay_ms` the request is answered normally, late; otherwise the
 * answer is replaced (default 503 with an RFC 6749 JSON body).
 */
export interface FaultSpec {
  endpoint: FaultEndpoint;
  /** HTTP status; default 403 with a `subcode`, 502 for `body: "html"`, 400 for an object body, else 503. */
  status?: number;
  /** How many matching requests get it; default 1. */
  count?: number;
  /** Seconds, sent as the `Retry-After` header (RFC 9110 §10.2.3). */
  retry_after?: number;
  /**
   * `"html"`: a gateway's HTML error page; `"json"`: an RFC 6749 §5.2 body for the status;
   * `"empty"`: no body at all; an object: that JSON body as it is.
   */
  body?: 'html' | 'json' | 'empty' | Record<string, unknown>;
  /** Wait this long before answering (timeout tests); default 0. */
  delay_ms?: number;
  /** Token endpoint only: match only requests of this grant type. */
  grant_type?: string;
  /** The platform's 403 bodies: "017" bad credentials, "018" concurrent session (docs/contract.md §1). */
  subcode?: '017' | '018';
}

const FAULT_KEYS = [
  'endpoint',
  'status',
  'count',
  'retry_after',
  'body',
  'delay_ms',
  'grant_type',
  'subcode',
];

/** Checks a fault from JSON or code, key by key; throws ControlInputError naming the bad key. */
export function parseFaultSpec(input: unknown): FaultSpec {
  const object = asObject(input, 'the fault');
  onlyKeys(object, FAULT_KEYS, 'the fault');
  const endpoint = optionalChoice(object, 'endpoint', FAULT_ENDPOINTS);
  if (endpoint === undefined) {
    throw new ControlInputError('endpoint', `"endpoint" is required: one of ${FAULT_ENDPOINTS.join(', ')}`);
  }
  const spec: FaultSpec = { endpoint };
  const status = optionalInteger(object, 'status', 200, 599);
  if (status !== undefined) spec.status = status;
  const count = optionalInteger(object, 'count', 1, 1_000_000);
  if (count !== undefined) spec.count = count;
  const retryAfter = optionalInteger(object, 'retry_after', 0, 86_400);
  if (retryAfter !== undefined) spec.retry_after = retryAfter;
  const delay = optionalInteger(object, 'delay_ms', 0, 600_000);
  if (delay !== undefined) spec.delay_ms = delay;
  const grantType = optionalString(object, 'grant_type', 200);
  if (grantType !== undefined) {
    if (endpoint !== 'token') {
      throw new ControlInputError('grant_type', '"grant_type" applies only to the token endpoint');
    }
    if (!(GRANT_NAMES as readonly string[]).includes(grantType)) {
      throw new ControlInputError('grant_type', `"grant_type" must be one of ${GRANT_NAMES.join(', ')}`);
    }
    spec.grant_type = grantType;
  }
  const subcode = optionalChoice(object, 'subcode', ['017', '018'] as const);
  if (subcode !== undefined) spec.subcode = subcode;
  const body = object.body;
  if (body !== undefined) {
    if (typeof body === 'string') {
      spec.body = optionalChoice(object, 'body', ['html', 'json', 'empty'] as const);
    } else if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      spec.body = body as Record<string, unknown>;
    } else {
      throw new ControlInputError('body', '"body" must be "html", "json", "empty" or a JSON object');
    }
    if (subcode !== undefined) {
      throw new ControlInputError(
        'body',
        '"body" and "subcode" exclude each other: a subcode has its own body',
      );
    }
  }
  return spec;
}

/** A pending fault and how many more requests it answers. */
export interface PendingFault {
  readonly spec: FaultSpec;
  remaining: number;
}

/** The faults waiting for requests, in the order they were added; the first match wins. */
export class FaultQueue {
  readonly #pending: PendingFault[] = [];
  readonly #changed: () => void;

  /** @param changed called after every change, so the router's fast-path flag follows. */
  constructor(changed: () => void = () => {}) {
    this.#changed = changed;
  }

  get size(): number {
    return this.#pending.length;
  }

  add(spec: FaultSpec): void {
    this.#pending.push({ spec, remaining: spec.count ?? 1 });
    this.#changed();
  }

  /** Takes one use of the first fault matching the request, if any. */
  take(endpoint: FaultEndpoint, grantType: string | undefined): FaultSpec | undefined {
    const index = this.#pending.findIndex(
      ({ spec }) =>
        spec.endpoint === endpoint && (spec.grant_type === undefined || spec.grant_type === grantType),
    );
    const fault = this.#pending[index];
    if (fault === undefined) return undefined;
    fault.remaining -= 1;
    if (fault.remaining === 0) {
      this.#pending.splice(index, 1);
      this.#changed();
    }
    return fault.spec;
  }

  clear(): void {
    this.#pending.length = 0;
    this.#changed();
  }

  /** What is pending, for the control API's state. */
  list(): Array<FaultSpec & { remaining: number }> {
    return this.#pending.map(({ spec, remaining }) => ({ ...spec, remaining }));
  }
}
