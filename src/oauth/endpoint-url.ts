/**
 * Endpoint URLs under a base URL that may carry a path prefix (SPEC.md §1):
 * `https://gw.example/api` + `/v2/oauth/token` → `https://gw.example/api/v2/oauth/token`.
 */
import { UsageError } from '../errors.js';

export const TOKEN_PATH = '/v2/oauth/token';
export const TOKENINFO_PATH = '/v2/oauth/tokeninfo';
export const AUTHORIZE_PATH = '/v2/oauth/authorize';

/**
 * The endpoint's URL, with an empty query and no fragment whatever the base URL carried. A trailing
 * slash on the base URL is tolerated. A base URL that does not parse is a usage error (exit 2).
 */
export function endpointUrl(baseUrl: string, path: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch (error) {
    throw new UsageError(
      `the base URL "${baseUrl}" is not a valid URL`,
      'give an absolute URL such as https://api.example.com (--base-url, TOKENCLI_BASE_URL)',
      error,
    );
  }
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  url.search = '';
  url.hash = '';
  return url;
}
