/**
 * The `keychain` store (docs/contract.md §2.7): the OS keychain through `@napi-rs/keyring` — macOS
 * Keychain, Windows Credential Manager, the Secret Service on Linux. Service `tokencli`; per
 * profile the account `<profile>/tokens` holds the TokenRecord as JSON and `<profile>/client_secret`
 * the client secret.
 *
 * Every call runs off the main thread (`AsyncEntry`) and is given up after `timeoutMs`. On Linux,
 * open-store.ts first probes the Secret Service in JavaScript (secret-service-probe.ts), because
 * constructing an entry there talks to D-Bus synchronously.
 */
import type * as Keyring from '@napi-rs/keyring';
import { TokencliError } from '../errors.js';
import { formatSeconds } from '../text/seconds.js';
import { parseTokenRecordText } from './token-record-shape.js';
import type { CredentialStore, TokenRecord } from './types.js';

export type KeyringModule = typeof Keyring;

/** The keychain service name every tokencli entry is filed under. */
export const KEYCHAIN_SERVICE = 'tokencli';

const TOKENS_SUFFIX = '/tokens';

/** The account of a profile's token record; its client secret is `<profile>/client_secret`. */
export const tokensAccount = (profile: string): string => profile + TOKENS_SUFFIX;

/**
 * The Secret Service attributes `@napi-rs/keyring` files an entry under (keyring-rs's Secret
 * Service store: `service` and `username`, nothing else), for reading an entry without it
 * (secret-service-reader.ts). test/store/keychain.test.ts checks them against entries it writes.
 */
export const secretServiceAttributes = (account: string): ReadonlyMap<string, string> =>
  new Map([
    ['service', KEYCHAIN_SERVICE],
    ['username', account],
  ]);

const SECRET_SUFFIX = '/client_secret';

// Pin Linux to the Secret Service: the default silently falls back to the kernel keyring, which
// forgets everything at logout (and would make "keychain works" a lie).
const ENTRY_OPTIONS: Keyring.EntryOptions = { linux: { store: 'secret-service' } };

export interface KeychainStoreOptions {
  keyring: KeyringModule;
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
  readonly #keyring: KeyringModule;
  readonly #timeoutMs: number;
  readonly #warn: (line: string) => void;
  readonly #entries = new Map<string, Keyring.AsyncEntry>();

  constructor(options: KeychainStoreOptions) {
    this.#keyring = options.keyring;
    this.#timeoutMs = options.timeoutMs;
    this.#warn = options.warn;
  }

  async getTokens(profile: string): Promise<TokenRecord | undefined> {
    const account = tokensAccount(profile);
    const text = await this.#call('read', (signal) => this.#entry(account).getPassword(signal));
    if (text === null || text === undefined) return undefined;
    const parsed = parseTokenRecordText(text);
    return 'record' in parsed ? parsed.record : this.#setAside(profile, text, parsed.problem);
  }

  async setTokens(profile: string, record: TokenRecord): Promise<void> {
    const text = JSON.stringify(record);
    await this.#call('write', (signal) => this.#entry(profile + TOKENS_SUFFIX).setPassword(text, signal));
  }

  async deleteTokens(profile: string): Promise<void> {
    await this.#call('delete', (signal) => this.#entry(profile + TOKENS_SUFFIX).deleteCredential(signal));
  }

  async getClientSecret(profile: string): Promise<string | undefined> {
    const secret = await this.#call('read', (signal) =>
      this.#entry(profile + SECRET_SUFFIX).getPassword(signal),
    );
    return secret === null || secret === '' ? undefined : secret;
  }

  async setClientSecret(profile: string, secret: string): Promise<void> {
    await this.#call('write', (signal) => this.#entry(profile + SECRET_SUFFIX).setPassword(secret, signal));
  }

  async deleteClientSecret(profile: string): Promise<void> {
    await this.#call('delete', (signal) => this.#entry(profile + SECRET_SUFFIX).deleteCredential(signal));
  }

  async listProfiles(): Promise<string[]> {
    const found = await this.#call('list', (signal) =>
      this.#keyring.findCredentialsAsync(KEYCHAIN_SERVICE, null, signal),
    );
    const profiles = new Set<string>();
    for (const { account } of found) {
      if (account.endsWith(TOKENS_SUFFIX)) profiles.add(account.slice(0, -TOKENS_SUFFIX.length));
    }
    return [...profiles].sort();
  }

  #entry(account: string): Keyring.AsyncEntry {
    let entry = this.#entries.get(account);
    if (!entry) {
      entry = new this.#keyring.AsyncEntry(KEYCHAIN_SERVICE, account, ENTRY_OPTIONS);
      this.#entries.set(account, entry);
    }
    return entry;
  }

  /**
   * A damaged record is never overwritten without a copy (docs/contract.md §2.7): it is kept under
   * `<profile>/tokens.corrupt-<timestamp>`, and the profile reads as logged out.
   */
  async #setAside(profile: string, text: string, problem: string): Promise<undefined> {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const backup = `${profile}${TOKENS_SUFFIX}.corrupt-${stamp}`;
    await this.#call('write', (signal) => this.#entry(backup).setPassword(text, signal));
    await this.#call('delete', (signal) => this.#entry(profile + TOKENS_SUFFIX).deleteCredential(signal));
    this.#warn(
      `warning: the stored tokens of profile "${profile}" in the ${this.location} were damaged (${problem}); kept them as "${backup}" and treated the profile as logged out`,
    );
    return undefined;
  }

  /** Runs one keychain call, giving up after the timeout and turning failures into TokencliErrors. */
  async #call<T>(what: string, operation: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
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
      return await Promise.race([operation(controller.signal), timeout]);
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
