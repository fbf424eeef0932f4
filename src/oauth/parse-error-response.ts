/**
 * Error responses of the token service into ServiceError. The shapes of docs/contract.md §1:
 *
 *   400  {"ErrorCode":"invalid_request","Error":"invalid or null consumer key: …","Hint":"…"}
 *   403  {"error":{"code":403,"message":"Credential provided is invalid. …","subcode":"017"}}
 *   400  {"error":"invalid_grant","error_description":"…"}             (RFC 6749 §5.2)
 *
 * plus `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750 §3), and anything else a gateway
 * may send (HTML, plain text, other JSON, an empty body) shown as a short sanitised snippet.
 */

import type { HttpResponse } from '../http/request.js';
import { recogniseErrorBody } from '../protocol/error-bodies.js';
import {
  isRefusalStatus,
  type RequestContext,
  ServiceError,
  type ServiceErrorFields,
  serviceErrorMessage,
} from './service-error.js';
import { bodySnippet, cleanServiceText } from './service-text.js';

interface ParsedError extends ServiceErrorFields {
  /** The ErrorCode/Error/Hint shape, which the service uses for an unknown client id. */
  unknownClient?: boolean;
  /** True when the body carried one of the service's error shapes (not a snippet of something else). */
  recognised: boolean;
}

/**
 * The ServiceError for a response that is not a success. A 2xx carrying an error shape is a
 * refusal too (code `service_refused`); any other status is one as isRefusalStatus says.
 */
export function parseErrorResponse(res: HttpResponse, context: RequestContext): ServiceError {
  const parsed = parseErrorBody(res, context);
  const refusal = parsed.recognised && res.status < 300 ? true : isRefusalStatus(res.status);
  const retryAfter = res.headers['retry-after'];
  const fields: ServiceErrorFields = {
    status: res.status,
    serviceCode: parsed.serviceCode,
    subcode: parsed.subcode,
    description: parsed.description,
  };
  return new ServiceError({
    ...fields,
    message: serviceErrorMessage(fields, refusal),
    code: refusal ? 'service_refused' : 'service_unavailable',
    endpoint: context.endpoint,
    url: context.url,
    grantType: context.grantType,
    clientId: context.clientId,
    unknownClient: parsed.unknownClient,
    retryAfter: retryAfter && /^\s*\d+\s*$/.test(retryAfter) ? `${retryAfter.trim()} s` : undefined,
  });
}

/**
 * Recognises one of the service's error shapes in a JSON value (src/protocol/error-bodies.ts, the
 * definitions the local service builds them from), its text cleaned for display; or undefined.
 */
export function errorShape(json: unknown, secrets: readonly string[]): ParsedError | undefined {
  const recognised = recogniseErrorBody(json);
  if (!recognised) return undefined;
  const text = (v: unknown, max?: number): string | undefined =>
    typeof v === 'string' || typeof v === 'number' ? cleanServiceText(String(v), secrets, max) : undefined;
  // Codes are identifiers: anything longer than this is not one worth showing in full.
  const CODE_CHARS = 64;
  const parsed: ParsedError = {
    status: 0,
    serviceCode: text(recognised.code, CODE_CHARS),
    description: text(recognised.description),
    recognised: true,
  };
  // The ErrorCode/Error/Hint body is the service's answer to an unknown client id.
  if (recognised.shape === 'consumer_key') parsed.unknownClient = true;
  if (recognised.shape === 'platform') parsed.subcode = text(recognised.subcode, CODE_CHARS);
  return parsed;
}

function parseErrorBody(res: HttpResponse, context: RequestContext): ParsedError {
  const contentType = res.headers['content-type'];
  const fromHeader = bearerChallenge(res.headers['www-authenticate'], context.secrets);
  if (!res.body.trim())
    return { status: res.status, ...fromHeader, recognised: fromHeader.serviceCode !== undefined };
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    return {
      status: res.status,
      ...fromHeader,
      description: bodySnippet(res.body, contentType, context.secrets),
      recognised: false,
    };
  }
  const shape = errorShape(json, context.secrets);
  if (shape) {
    return {
      ...shape,
      status: res.status,
      serviceCode: shape.serviceCode ?? fromHeader.serviceCode,
      description: shape.description ?? fromHeader.description,
    };
  }
  // Other JSON ({"message": …} from a gateway, a problem+json document, a bare string): show it briefly.
  const message = isObject(json) ? (json.message ?? json.detail ?? json.title) : undefined;
  return {
    status: res.status,
    ...fromHeader,
    description:
      typeof message === 'string'
        ? cleanServiceText(message, context.secrets)
        : bodySnippet(res.body, contentType, context.secrets),
    recognised: false,
  };
}

/** `Bearer realm="x", error="invalid_token", error_description="…"` (RFC 6750 §3). */
function bearerChallenge(
  header: string | undefined,
  secrets: readonly string[],
): { serviceCode?: string; description?: string } {
  if (!header || !/^\s*Bearer\b/i.test(header)) return {};
  const param = (name: string) => new RegExp(`\\b${name}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(header)?.[1];
  const code = param('error');
  const description = param('error_description');
  const out: { serviceCode?: string; description?: string } = {};
  const cleanCode = code ? cleanServiceText(code, secrets) : undefined;
  const cleanDescription = description ? cleanServiceText(description, secrets) : undefined;
  if (cleanCode) out.serviceCode = cleanCode;
  if (cleanDescription) out.description = cleanDescription;
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
