/**
 * Endpoint URLs under a base URL that may carry a path prefix (docs/contract.md §1):
 * `https://gw.example/api` + `/v2/oauth/token` → `https://gw.example/api/v2/oauth/token`.
 */
import { InputError } from '../errors.js';
import { withoutTrailingSlashes } from '../text/trailing-slashes.js';

/**
 * The endpoint's URL, with an empty query and no fragment whatever the base URL carried. A trailing
 * slash on the base URL is tolerated. A base URL that does not parse is an InputError (exit 2,
 * reason `base_url_invalid`).
 */
export function endpointUrl(baseUrl: string, path: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch (error) {
    throw new InputError(`the base URL "${baseUrl}" is not a valid URL`, 'base_url_invalid', {}, error);
  }
  url.pathname = `${withoutTrailingSlashes(url.pathname)}${path}`;
  url.search = '';
  url.hash = '';
  return url;
}
