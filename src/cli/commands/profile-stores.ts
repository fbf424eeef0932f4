/**
 * The store each profile's credentials live in, for the commands that look at several profiles
 * (`status`, `profile show|remove`): a `--store`/TOKENCLI_STORE choice for all, else the store the
 * profile recorded, else the run's default store. Each kind is opened at most once per run.
 */

import { storeUnreachable } from '../../session/profile-record.js';
import { openStore } from '../../store/open-store.js';
import type { CredentialStore, StoreKind } from '../../store/types.js';
import type { Deps } from '../deps.js';
import { noteLine } from '../output/prefixes.js';

export type StoreFor = (profile: string) => Promise<CredentialStore>;

export function profileStores(deps: Deps): StoreFor {
  const opened = new Map<StoreKind | 'default', Promise<CredentialStore>>();
  const warn = (line: string) => noteLine(deps, line);
  return async (profile) => {
    const settings = await deps.settings();
    const kind =
      settings.storeSource === 'explicit'
        ? settings.storeKind
        : (settings.config.profiles[profile]?.store as StoreKind | undefined);
    // The run's own store follows these rules for the run's profile (and says why it falls back).
    if (profile === settings.profile || (kind === undefined && settings.storeSource === undefined)) {
      return deps.store();
    }
    const key = kind ?? 'default';
    let store = opened.get(key);
    if (store === undefined) {
      store = openStore({ kind, configDir: settings.configDir, warn });
      opened.set(key, store);
    }
    // A keychain the profile recorded but cannot be reached: say where its credentials are, in
    // the words the profile's own runs use (profile-record.ts).
    if (settings.storeSource === 'explicit') return store;
    return store.catch((error: unknown) => {
      throw storeUnreachable(error, { ...settings, profile, storeSource: 'profile' });
    });
  };
}

/** Every store a profile's credentials may be in here: the file always, the keychain if reachable. */
export async function everyStore(
  deps: Deps,
): Promise<{ stores: CredentialStore[]; unreachable: string | undefined }> {
  const settings = await deps.settings();
  const warn = (line: string) => noteLine(deps, line);
  const stores = [await openStore({ kind: 'file', configDir: settings.configDir, warn })];
  try {
    stores.push(await openStore({ kind: 'keychain', configDir: settings.configDir, warn }));
    return { stores, unreachable: undefined };
  } catch (error) {
    return { stores, unreachable: error instanceof Error ? error.message : String(error) };
  }
}
