/**
 * The first step of processing any answer of the token service: a success yields its JSON, anything
 * else a ServiceError (docs/contract.md §2.4, §2.6). Redirects are reported, not followed: the credentials
 * just sent must never be re-sent to wherever the redirect points.
 */

import { redactUrl } from '../http/redact.js';
import type { HttpResponse } from '../http/request.js';
import { errorShape, parseErrorResponse } from './parse-error-response.js';
import { type RequestContext, ServiceError, unexpectedResponseError } from './service-error.js';
import { bodySnippet, cleanServiceText } from './service-text.js';

/** The parsed JSON of a 2xx response, or the ServiceError that describes what came instead. */
export function readServiceJson(res: HttpResponse, context: RequestContext): unknown {
  const { status } = res;
  if (status >= 300 && status < 400) throw redirectError(res, context);
  if (status < 200 || status >= 300) throw parseErrorResponse(res, context);
  const contentType = res.headers['content-type'];
  if (!res.body.trim()) {
    throw unexpectedResponseError(
      status,
      'the body is empty',
      undefined,
      context.endpoint,
      'unexpected_response',
      context.url,
    );
  }
  let json: unknown;
  try {
    // A UTF-8 byte-order mark before the JSON (some gateways add one) is not part of it (RFC 8259 §8.1).
    json = JSON.parse(res.body.charCodeAt(0) === 0xfeff ? res.body.slice(1) : res.body);
  } catch (error) {
    const type = contentType ? `${cleanServiceText(contentType, [], 60)}, ` : '';
    const snippet = bodySnippet(res.body, contentType, context.secrets) ?? '';
    throw unexpectedResponseError(
      status,
      `the body is not JSON (${type}${res.body.length} characters): ${snippet}`,
      error,
      context.endpoint,
      'unexpected_response',
      context.url,
    );
  }
  // Some gateways answer 200 with an error document: it is still the service's refusal.
  if (errorShape(json, context.secrets) && !hasAccessToken(json)) throw parseErrorResponse(res, context);
  return json;
}

function hasAccessToken(json: unknown): boolean {
  return json !== null && typeof json === 'object' && 'access_token' in json;
}

function redirectError(res: HttpResponse, context: RequestContext): ServiceError {
  const location = res.headers.location;
  const where = location
    ? ` to ${cleanServiceText(redactUrl(location), context.secrets, 200)}`
    : ' without a Location';
  return new ServiceError({
    status: res.status,
    description: location ? cleanServiceText(redactUrl(location), context.secrets, 200) : undefined,
    message: `the token service answered with a redirect (HTTP ${res.status})${where}; redirects are not followed so that credentials are never sent elsewhere`,
    code: 'service_unavailable',
    reason: 'redirect',
    endpoint: context.endpoint,
    url: context.url,
  });
}
