import type { TokenSource } from '../oauth/types.js';

export type StoreKind = 'keychain' | 'file' | 'none';

/** One record per profile (docs/contract.md §2.7). */
export interface TokenRecord {
  base_url: string;
  client_id: string;
  access_token: string;
  token_type: string;
  /** ISO 8601. */
  expires_at: string;
  refresh_token?: string;
  /** ISO 8601. */
  refresh_token_expires_at?: string;
  email?: string;
  redirect_uri?: string;
  /**
   * ISO 8601: when the service refused the access token (revoked, or cut short) and it was dropped.
   * It is never handed out or sent again; the next renewal replaces the record.
   */
  access_token_refused_at?: string;
  /** The grant that produced it. */
  grant: Exclude<TokenSource, 'cache'>;
  /** ISO 8601. */
  obtained_at: string;
}

/**
 * Where tokens and client secrets live. Implementations: keychain, file, none (memory for one run).
 * Every method may throw a TokencliError (exit 1/2) with a hint; a corrupt store is reported through
 * the warn callback given to openStore and treated as empty.
 */
export interface CredentialStore {
  readonly kind: StoreKind;
  /** Human-readable location for `status` and warnings (a path, or "OS keychain (Secret Service)"). */
  readonly location: string;
  getTokens(profile: string): Promise<TokenRecord | undefined>;
  setTokens(profile: string, record: TokenRecord): Promise<void>;
  deleteTokens(profile: string): Promise<void>;
  getClientSecret(profile: string): Promise<string | undefined>;
  setClientSecret(profile: string, secret: string): Promise<void>;
  deleteClientSecret(profile: string): Promise<void>;
  /** Profiles that have a token record (for `status`). */
  listProfiles(): Promise<string[]>;
}
