/**
 * Plain data shared by the protocol layer, the store and the commands. Field names follow the
 * service's wire names (docs/contract.md §1) so `--json` output and records read the same.
 */

import type { HttpSettings } from '../http/settings.js';
import type { GrantType } from '../protocol/grants.js';

/** Where a token printed by a command came from (the `source` field of `--json`, docs/contract.md §2.6). */
export type TokenSource =
  | 'cache'
  | 'refresh_token'
  | 'client_credentials'
  | 'authorization_code'
  | 'saml2-bearer';

/**
 * A token response after normalisation: `redirect_url` folded into `redirect_uri`, unknown fields
 * dropped, absolute expiry times computed from the local clock at receipt.
 */
export interface TokenSet {
  access_token: string;
  token_type: string;
  /** Remaining lifetime in seconds as the service reported it. */
  expires_in: number;
  /** ISO 8601, receipt time + expires_in. */
  expires_at: string;
  refresh_token?: string;
  refresh_token_expires_in?: number;
  refresh_token_expires_at?: string;
  redirect_uri?: string;
  email?: string;
}

/** Token information (docs/contract.md §1 rule 9) plus whatever else the service sent. */
export interface TokenInfo {
  access_token?: string;
  token_type?: string;
  expires_in?: number;
  status?: string;
  scope?: string;
  refresh_token?: string;
  refresh_token_expires_in?: number;
  redirect_uri?: string;
  email?: string;
  app_name?: string;
  /** ISO 8601, receipt time + expires_in, when expires_in was present. */
  expires_at?: string;
  [field: string]: unknown;
}

/** The grant-specific parameters of a create-token request (docs/contract.md §1, §2.4). */
export type GrantRequest =
  | {
      grant_type: typeof GrantType.authorizationCode;
      code: string;
      redirect_uri: string;
      code_verifier?: string;
    }
  | { grant_type: typeof GrantType.refreshToken; refresh_token: string }
  | { grant_type: typeof GrantType.clientCredentials; email: string; password: string }
  | { grant_type: typeof GrantType.saml2Bearer; SAMLResponse: string }
  | { grant_type: typeof GrantType.saml2Bearer; SAMLAssertion: string };

/** Everything a request to the token service needs. */
export interface ServiceClient {
  /** Base URL, may carry a path prefix (`https://gw.example/api`); no trailing slash. */
  baseUrl: string;
  clientId: string;
  /** Absent for tokeninfo. */
  clientSecret?: string | undefined;
  http: HttpSettings;
  /** The clock used for expires_at; tests replace it. */
  now?: (() => Date) | undefined;
}
