/**
 * The keychain's entries through `@napi-rs/keyring` (KeychainStore's {@link KeychainEntries}): the
 * macOS Keychain and the Windows Credential Manager. Each call runs off the main thread
 * (`AsyncEntry`) and can be given up.
 */
import type * as Keyring from '@napi-rs/keyring';
import { KEYCHAIN_SERVICE, type KeychainEntries } from './keychain-store.js';

export type KeyringModule = typeof Keyring;

// Where the module would pick a Linux store itself (tests read entries through it there), pin it
// to the Secret Service: its default silently falls back to the kernel keyring, which forgets
// everything at logout.
const ENTRY_OPTIONS: Keyring.EntryOptions = { linux: { store: 'secret-service' } };

export class NativeKeychainEntries implements KeychainEntries {
  readonly #keyring: KeyringModule;
  readonly #entries = new Map<string, Keyring.AsyncEntry>();
  readonly #inFlight = new Set<AbortController>();

  constructor(keyring: KeyringModule) {
    this.#keyring = keyring;
  }

  async read(account: string): Promise<string | undefined> {
    return (await this.#run((signal) => this.#entry(account).getPassword(signal))) ?? undefined;
  }

  async write(account: string, secret: string): Promise<void> {
    await this.#run((signal) => this.#entry(account).setPassword(secret, signal));
  }

  async remove(account: string): Promise<void> {
    // Resolves false when there was no entry.
    await this.#run((signal) => this.#entry(account).deleteCredential(signal));
  }

  async accounts(): Promise<string[]> {
    const found = await this.#run((signal) =>
      this.#keyring.findCredentialsAsync(KEYCHAIN_SERVICE, null, signal),
    );
    return found.map((credential) => credential.account);
  }

  giveUp(): void {
    for (const controller of this.#inFlight) controller.abort();
  }

  async #run<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.#inFlight.add(controller);
    try {
      return await call(controller.signal);
    } finally {
      this.#inFlight.delete(controller);
    }
  }

  #entry(account: string): Keyring.AsyncEntry {
    let entry = this.#entries.get(account);
    if (!entry) {
      entry = new this.#keyring.AsyncEntry(KEYCHAIN_SERVICE, account, ENTRY_OPTIONS);
      this.#entries.set(account, entry);
    }
    return entry;
  }
}
