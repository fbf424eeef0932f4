/**
 * The local token service's configuration (docs/contract.md §3): its shape and its defaults. Validation
 * lives in `config-validation.ts`, reading a file in `config-file.ts`.
 */

import type { GRANT_NAMES } from '../protocol/grants.js';

/** The grant types of docs/contract.md §1, as they appear in `grant_type` and in an app's `grants`. */

export type GrantName = (typeof GRANT_NAMES)[number];

/** The SSO connection of an application: who signs its assertions and with which key. */
export interface SamlConfig {
  /** The `Issuer` an assertion must carry. */
  issuer: string;
  /** PEM: an X.509 certificate or a `PUBLIC KEY`; the only key a signature is checked against. */
  certificate: string;
  /** The `Audience` an assertion must name, where it names one. */
  audience?: string;
}

/** A registered client application. */
export interface AppConfig {
  client_id: string;
  client_secret: string;
  /** Shown on the login page and returned by tokeninfo as `app_name`. */
  app_name: string;
  /** Absolute URIs; loopback ones match on any port (RFC 8252 §7.3). */
  redirect_uris: string[];
  /** Enabled grants; default `["authorization_code"]` (docs/contract.md §1 rule 1). */
  grants: GrantName[];
  /** Whether the authorization-code flow also issues refresh tokens (docs/contract.md §1 rule 2). */
  refresh_tokens: boolean;
  saml?: SamlConfig;
  /**
   * The `token_type` of this application's token and tokeninfo answers; default the platform's
   * `"BearerToken"`. `"Bearer"` (RFC 6750 §4) lets strict OAuth clients, which refuse other
   * types (RFC 6749 §7.1), be tested against the service.
   */
  token_type?: TokenType;
}

/** The token types an application may answer with: the platform's, and RFC 6750's. */
export const TOKEN_TYPES = ['BearerToken', 'Bearer', 'bearer'] as const;

export type TokenType = (typeof TOKEN_TYPES)[number];

/** What the platform sends (docs/contract.md §1), and the service unless an application says otherwise. */
export const PLATFORM_TOKEN_TYPE: TokenType = 'BearerToken';

/** A user who can log in. Passwords are plain text: this is a test service. */
export interface UserConfig {
  email: string;
  password: string;
  /** Barred from holding two sessions at once (docs/contract.md §1 rule 10, subcode 018). */
  single_session: boolean;
}

/** The whole configuration, with every default filled in. */
export interface ServiceConfig {
  /** The single supported scope. */
  scope: string;
  /** Seconds. */
  access_token_ttl: number;
  /** Seconds. */
  refresh_token_ttl: number;
  /** Seconds an authorization code stays valid (docs/contract.md §1 rule 3). */
  code_ttl: number;
  apps: AppConfig[];
  users: UserConfig[];
}

/** Defaults of docs/contract.md §1 rules 3–4. */
export const CONFIG_DEFAULTS = {
  scope: 'demoservices',
  access_token_ttl: 3600,
  refresh_token_ttl: 2_592_000,
  code_ttl: 20,
} as const;
