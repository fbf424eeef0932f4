/**
 * The `none` store (docs/contract.md §2.7): credentials live in this process only and are gone when it
 * exits — for CI jobs that take their secrets from the CI's secret store (`--store none`).
 */
import type { CredentialStore, TokenRecord } from './types.js';

/** A CredentialStore backed by maps; nothing is written anywhere. */
export class MemoryStore implements CredentialStore {
  readonly kind = 'none' as const;
  readonly location = 'memory (this run only)';
  readonly #tokens = new Map<string, TokenRecord>();
  readonly #secrets = new Map<string, string>();

  async getTokens(profile: string): Promise<TokenRecord | undefined> {
    const record = this.#tokens.get(profile);
    return record === undefined ? undefined : { ...record };
  }

  async setTokens(profile: string, record: TokenRecord): Promise<void> {
    this.#tokens.set(profile, { ...record });
  }

  async deleteTokens(profile: string): Promise<void> {
    this.#tokens.delete(profile);
  }

  async getClientSecret(profile: string): Promise<string | undefined> {
    return this.#secrets.get(profile);
  }

  async setClientSecret(profile: string, secret: string): Promise<void> {
    this.#secrets.set(profile, secret);
  }

  async deleteClientSecret(profile: string): Promise<void> {
    this.#secrets.delete(profile);
  }

  async listProfiles(): Promise<string[]> {
    return [...this.#tokens.keys()].sort();
  }
}
