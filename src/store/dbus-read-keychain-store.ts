/**
 * The keychain store of the cached-token fast path on the Secret Service platforms (open-store.ts,
 * `lazyKeyring`): its first `getTokens` reads the record over the D-Bus connection the probe
 * already opened (secret-service-reader.ts), so a fresh cached token is printed without loading
 * `@napi-rs/keyring` — whose load, D-Bus connection and encrypted session cost more than the rest
 * of the run (README, design notes). Everything else, and every read the JavaScript reader does not
 * answer plainly (no entry, several, a locked one, a record that does not parse), goes to the
 * native KeychainStore, loaded then: it decides, warns and sets damage aside exactly as without
 * this store. Nothing is ever written over this connection.
 */
import type { DbusConnection } from './dbus-connection.js';
import {
  type KeychainStore,
  keychainName,
  secretServiceAttributes,
  tokensAccount,
} from './keychain-store.js';
import { readSecretText, type SecretLookup, startSecretRead } from './secret-service-reader.js';
import { parseTokenRecordText } from './token-record-shape.js';
import type { CredentialStore, TokenRecord } from './types.js';

/** A profile's token lookup, sent ahead of the store's first read: see {@link lookUpTokens}. */
export interface TokensLookup {
  readonly profile: string;
  readonly lookup: SecretLookup;
}

/**
 * Sends the keychain lookup of `profile`'s token record now, on `connection` (alongside the
 * probe's calls, so they share a round trip); the store's first `getTokens` of that profile goes
 * on from it.
 */
export function lookUpTokens(connection: DbusConnection, profile: string): TokensLookup {
  return { profile, lookup: startSecretRead(connection, secretServiceAttributes(tokensAccount(profile))) };
}

export interface DbusReadKeychainStoreOptions {
  /** The probe's open connection; this store closes it after its one read, or when unused. */
  connection: DbusConnection;
  /** The lookup already sent on it, if any (lookUpTokens). */
  sentLookup?: TokensLookup | undefined;
  /** Loads the native module and builds the KeychainStore (rejects when it does not load). */
  openNative: () => Promise<KeychainStore>;
}

export class DbusReadKeychainStore implements CredentialStore {
  readonly kind = 'keychain' as const;
  readonly location = keychainName();
  #connection: DbusConnection | undefined;
  readonly #sentLookup: TokensLookup | undefined;
  readonly #openNative: () => Promise<KeychainStore>;
  #native: Promise<KeychainStore> | undefined;

  constructor(options: DbusReadKeychainStoreOptions) {
    this.#connection = options.connection;
    this.#sentLookup = options.sentLookup;
    this.#openNative = options.openNative;
  }

  async getTokens(profile: string): Promise<TokenRecord | undefined> {
    const connection = this.#takeConnection();
    if (connection) {
      const sent = this.#sentLookup;
      const read = await readSecretText(
        connection,
        sent?.profile === profile ? sent.lookup : secretServiceAttributes(tokensAccount(profile)),
      );
      connection.close();
      if ('text' in read) {
        const parsed = parseTokenRecordText(read.text);
        if ('record' in parsed) return parsed.record;
      }
    }
    return (await this.#nativeStore()).getTokens(profile);
  }

  async setTokens(profile: string, record: TokenRecord): Promise<void> {
    return (await this.#nativeStore()).setTokens(profile, record);
  }

  async deleteTokens(profile: string): Promise<void> {
    return (await this.#nativeStore()).deleteTokens(profile);
  }

  async getClientSecret(profile: string): Promise<string | undefined> {
    return (await this.#nativeStore()).getClientSecret(profile);
  }

  async setClientSecret(profile: string, secret: string): Promise<void> {
    return (await this.#nativeStore()).setClientSecret(profile, secret);
  }

  async deleteClientSecret(profile: string): Promise<void> {
    return (await this.#nativeStore()).deleteClientSecret(profile);
  }

  async listProfiles(): Promise<string[]> {
    return (await this.#nativeStore()).listProfiles();
  }

  /** The connection for the one read it serves; later calls get undefined. */
  #takeConnection(): DbusConnection | undefined {
    const connection = this.#connection;
    this.#connection = undefined;
    return connection;
  }

  #nativeStore(): Promise<KeychainStore> {
    this.#takeConnection()?.close();
    this.#native ??= this.#openNative();
    return this.#native;
  }
}
