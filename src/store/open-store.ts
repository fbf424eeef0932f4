/**
 * Chooses the credential store (docs/contract.md §2.1 `--store` / TOKENCLI_STORE, §2.7):
 *
 * - `none`: memory, this run only.
 * - `file`: `<config dir>/credentials.json`; the keychain module is never loaded (start-up time of
 *   the cached-token path is benchmarked, docs/contract.md §4).
 * - `keychain` (explicit): the OS keychain, or an error (exit 2, a usage error: the store the user
 *   asked for cannot be had here) with a hint naming `--store file`. Never a silent fallback.
 * - default: the keychain where a probe works within the timeout; otherwise the file store, with
 *   exactly one warning line saying why and where the credentials are kept.
 */
import { join } from 'node:path';
import { InputError, TokencliError } from '../errors.js';
import { errorLine } from '../text/error-line.js';
import { FileStore } from './file-store.js';
import { MemoryStore } from './memory-store.js';
import type { KeyringModule } from './native-keychain-entries.js';
import type { EntryLookup } from './secret-service-entries.js';
import type { CredentialStore, StoreKind } from './types.js';

export interface OpenStoreOptions {
  /** The explicit choice (`--store` or TOKENCLI_STORE); undefined = the default rule. */
  kind?: StoreKind | undefined;
  /** The config directory; the file store is `credentials.json` in it. */
  configDir: string;
  /** Receives complete lines, `warning: ` included, for stderr. */
  warn: (line: string) => void;
  /**
   * Told instead of `warn` when the default rule falls back to the file store, so the caller can
   * announce it once per profile rather than on every run; default: one `warn` line.
   */
  onFallback?: ((reason: string, filePath: string) => void | Promise<void>) | undefined;
  /** How long a keychain probe or call may take before it is given up (default 3000 ms). */
  keychainTimeoutMs?: number | undefined;
  /**
   * The profile whose tokens the run reads first (the cached-token fast path,
   * src/cli/launcher/light-token.ts). On the Secret Service platforms their keychain lookup is sent
   * with the probe's own calls, so that the probe and the read take two round trips in all, not
   * four.
   */
  tokensProfile?: string | undefined;
  /** The file store's `leaveDamagedFile` (file-store.ts), for the same cached-token fast path. */
  leaveDamagedFile?: boolean | undefined;
}

const DEFAULT_KEYCHAIN_TIMEOUT_MS = 3_000;
const STORE_KINDS: ReadonlySet<string> = new Set<StoreKind>(['keychain', 'file', 'none']);

/** Platforms whose keychain is the Secret Service on D-Bus, spoken in JavaScript (no native code). */
const SECRET_SERVICE_PLATFORMS: ReadonlySet<NodeJS.Platform> = new Set([
  'linux',
  'freebsd',
  'openbsd',
  'netbsd',
]);

/**
 * Opens the store to use for this run.
 *
 * @throws InputError (exit 2) for a `kind` that is not a store;
 *   TokencliError exit 2 when `kind` is `keychain` and the keychain cannot be used;
 *   TokencliError exit 2 when a symbolic link sits at the credentials file (file store, on use).
 */
export async function openStore(options: OpenStoreOptions): Promise<CredentialStore> {
  const { kind, warn } = options;
  if (kind !== undefined && !STORE_KINDS.has(kind)) {
    // The settings layer validates --store and TOKENCLI_STORE; this guards against a slip there.
    throw new InputError(`unknown credential store "${String(kind)}"`, 'store_unknown', {
      kind: String(kind),
    });
  }
  if (kind === 'none') return new MemoryStore();
  const filePath = join(options.configDir, 'credentials.json');
  const fileStore = () => new FileStore({ path: filePath, warn, leaveDamagedFile: options.leaveDamagedFile });
  if (kind === 'file') return fileStore();

  const opened = await openKeychain(
    options.keychainTimeoutMs ?? DEFAULT_KEYCHAIN_TIMEOUT_MS,
    warn,
    options.tokensProfile,
  );
  if ('store' in opened) return opened.store;
  if (kind === 'keychain') {
    throw new TokencliError(`the OS keychain cannot be used: ${opened.reason}`, {
      code: 'store',
      reason: 'keychain_unavailable',
      details: { why: opened.reason },
    });
  }
  if (options.onFallback) {
    await options.onFallback(opened.reason, filePath);
    return fileStore();
  }
  warn(`warning: OS keychain unavailable (${opened.reason}); keeping credentials in ${filePath}`);
  return fileStore();
}

async function openKeychain(
  timeoutMs: number,
  warn: (line: string) => void,
  tokensProfile: string | undefined,
): Promise<{ store: CredentialStore } | { reason: string }> {
  const { KeychainStore, tokensAccount } = await import('./keychain-store.js');
  if (SECRET_SERVICE_PLATFORMS.has(process.platform)) {
    const { openSecretService } = await import('./secret-service-probe.js');
    const { SecretServiceEntries, lookUpEntry } = await import('./secret-service-entries.js');
    let lookup: EntryLookup | undefined;
    const probe = await openSecretService(timeoutMs, process.env, {
      alongside: (connection) => {
        if (tokensProfile !== undefined) lookup = lookUpEntry(connection, tokensAccount(tokensProfile));
      },
    });
    if (!probe.ok) return { reason: probe.reason };
    const reopen = async () => {
      const again = await openSecretService(timeoutMs);
      if (!again.ok) throw new Error(again.reason);
      return again.connection;
    };
    const entries = new SecretServiceEntries(probe.connection, { lookup, reopen });
    return { store: new KeychainStore({ entries, timeoutMs, warn }) };
  }
  let keyring: KeyringModule;
  try {
    keyring = await import('@napi-rs/keyring');
  } catch (error) {
    return { reason: `the keyring module does not load: ${errorLine(error)}` };
  }
  const { NativeKeychainEntries } = await import('./native-keychain-entries.js');
  const store = new KeychainStore({ entries: new NativeKeychainEntries(keyring), timeoutMs, warn });
  // macOS and Windows: one real read of an entry nobody writes proves the keychain answers.
  try {
    await store.getClientSecret('.probe');
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) };
  }
  return { store };
}
