/**
 * The `keychain` store (docs/contract.md §2.7): the OS keychain — macOS Keychain, Windows Credential
 * Manager, the Secret Service on Linux and the BSDs. Service `tokencli`; per profile the account
 * `<profile>/tokens` holds the TokenRecord as JSON and `<profile>/client_secret` the client secret.
 *
 * The rules are here, for every platform; the entries are kept by a {@link KeychainEntries}: on the
 * Secret Service platforms the JavaScript D-Bus client (secret-service-entries.ts), elsewhere
 * `@napi-rs/keyring` (native-keychain-entries.ts). Every call is given up after `timeoutMs`.
 */
import { TokencliError } from '../errors.js';
import { formatSeconds } from '../text/seconds.js';
import { parseTokenRecordText } from './token-record-shape.js';
import type { CredentialStore, TokenRecord } from './types.js';

/** The keychain service name every tokencli entry is filed under. */
export const KEYCHAIN_SERVICE = 'tokencli';

const TOKENS_SUFFIX = '/tokens';

/** The account of a profile's token record; its client secret is `<profile>/client_secret`. */
export const tokensAccount = (profile: string): string => profile + TOKENS_SUFFIX;

const SECRET_SUFFIX = '/client_secret';

/**
 * A keychain's entries of the service {@link KEYCHAIN_SERVICE}, by account: where KeychainStore
 * keeps its records. Each method rejects with an Error whose message says what failed.
 */
export interface KeychainEntries {
  /** The entry's secret, or undefined when there is none. */
  read(account: string): Promise<string | undefined>;
  /** Creates the entry, or replaces its secret. */
  write(account: string, secret: string): Promise<void>;
  /** Removes the entry; none there is not an error. */
  remove(account: string): Promise<void>;
  /** The accounts that have an entry. */
  accounts(): Promise<string[]>;
  /** Gives up every call in flight (their promises may then never settle): the store's time is up. */
  giveUp(): void;
}

export interface KeychainStoreOptions {
  entries: KeychainEntries;
  timeoutMs: number;
  /** Receives complete `warning: …` lines (a damaged record). */
  warn: (line: string) => void;
}

/** Names the keychain of this platform, for `status` and messages. */
export function keychainName(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return 'macOS Keychain';
  if (platform === 'win32') return 'Windows Credential Manager';
  return 'OS keychain (Secret Service)';
}

/** A CredentialStore in the OS keychain. */
export class KeychainStore implements CredentialStore {
  readonly kind = 'keychain' as const;
  readonly location = keychainName();
  readonly #entries: KeychainEntries;
  readonly #timeoutMs: number;
  readonly #warn: (line: string) => void;

  constructor(options: KeychainStoreOptions) {
    this.#entries = options.entries;
    this.#timeoutMs = options.timeoutMs;
    this.#warn = options.warn;
  }

  async getTokens(profile: string): Promise<TokenRecord | undefined> {
    const text = await this.#call('read', () => this.#entries.read(tokensAccount(profile)));
    if (text === undefined) return undefined;
    const parsed = parseTokenRecordText(text);
    return 'record' in parsed ? parsed.record : this.#setAside(profile, text, parsed.problem);
  }

  async setTokens(profile: string, record: TokenRecord): Promise<void> {
    const text = JSON.stringify(record);
    await this.#call('write', () => this.#entries.write(tokensAccount(profile), text));
  }

  async deleteTokens(profile: string): Promise<void> {
    await this.#call('delete', () => this.#entries.remove(tokensAccount(profile)));
  }

  async getClientSecret(profile: string): Promise<string | undefined> {
    const secret = await this.#call('read', () => this.#entries.read(profile + SECRET_SUFFIX));
    return secret === '' ? undefined : secret;
  }

  async setClientSecret(profile: string, secret: string): Promise<void> {
    await this.#call('write', () => this.#entries.write(profile + SECRET_SUFFIX, secret));
  }

  async deleteClientSecret(profile: string): Promise<void> {
    await this.#call('delete', () => this.#entries.remove(profile + SECRET_SUFFIX));
  }

  async listProfiles(): Promise<string[]> {
    const accounts = await this.#call('list', () => this.#entries.accounts());
    const profiles = new Set<string>();
    for (const account of accounts) {
      if (account.endsWith(TOKENS_SUFFIX)) profiles.add(account.slice(0, -TOKENS_SUFFIX.length));
    }
    return [...profiles].sort();
  }

  /**
   * A damaged record is never overwritten without a copy (docs/contract.md §2.7): it is kept under
   * `<profile>/tokens.corrupt-<timestamp>`, and the profile reads as logged out.
   */
  async #setAside(profile: string, text: string, problem: string): Promise<undefined> {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const backup = `${profile}${TOKENS_SUFFIX}.corrupt-${stamp}`;
    await this.#call('write', () => this.#entries.write(backup, text));
    await this.#call('delete', () => this.#entries.remove(tokensAccount(profile)));
    this.#warn(
      `warning: the stored tokens of profile "${profile}" in the ${this.location} were damaged (${problem}); kept them as "${backup}" and treated the profile as logged out`,
    );
    return undefined;
  }

  /** Runs one keychain call, giving up after the timeout and turning failures into TokencliErrors. */
  async #call<T>(what: string, operation: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    // Made before the operation starts, so that it fires first where the entries keep a time limit
    // of their own (the D-Bus client's): the reason given is always this one.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.#entries.giveUp();
        reject(
          new TokencliError(
            `the ${this.location} did not answer within ${formatSeconds(this.#timeoutMs)}s (${what})`,
            {
              code: 'store',
              reason: 'keychain_timeout',
            },
          ),
        );
      }, this.#timeoutMs);
    });
    try {
      return await Promise.race([operation(), timeout]);
    } catch (error) {
      if (error instanceof TokencliError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new TokencliError(`the ${this.location} failed (${what}): ${message}`, {
        code: 'store',
        reason: 'keychain_failed',
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  }
}
