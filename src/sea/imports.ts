/**
 * The single executable's answer to the packages the CLI bundles import on demand
 * (bin/tokencli.js hands each `import()` of a bundle here when it runs inside the executable):
 * nothing can be imported from disk there, so the packages are bundled into this module, and on
 * macOS and Windows the keychain's native addon is an asset of the executable, loaded through
 * ./native-addon.ts (Linux's keychain is JavaScript: src/store/open-store.ts).
 */
import { join } from 'node:path';
import { loadAddonAnywhere, type RemoveAllButLatest } from './native-addon.js';

/** The executable's asset holding this platform's `@napi-rs/keyring` addon (scripts/release/sea-executable.mjs). */
export const KEYRING_ASSET = 'keyring.node';

// `require`, not `import()`: the full CLI's bundle requires some of them where its sources import
// them statically, and each is initialised only when first asked for.
const packages: Record<string, () => unknown> = {
  undici: () => require('undici'),
  chalk: () => require('chalk'),
  open: () => require('open'),
  'xml-crypto': () => require('xml-crypto'),
  '@xmldom/xmldom': () => require('@xmldom/xmldom'),
};

interface Sea {
  getRawAsset(key: string): ArrayBuffer;
}

/** What the launcher (bin/tokencli.js) lends the packages it loads inside the executable. */
export interface Launcher {
  /**
   * The user cache directory where a native addon may be kept, or undefined: only one no one else
   * can write on the way to (`trustedCacheRoot`). Asked only when the addon is loaded.
   */
  cacheRoot(): string | undefined;
  /** How its caches are pruned, and so other releases' copies of the addon. */
  removeAllButLatest: RemoveAllButLatest;
}

let keyring: unknown;

/** `require(id)` of a package the bundles leave external. */
export function seaRequire(id: string, launcher: Launcher): unknown {
  if (id === '@napi-rs/keyring') {
    if (keyring === undefined) {
      const sea = process.getBuiltinModule('node:sea') as unknown as Sea;
      const bytes = new Uint8Array(sea.getRawAsset(KEYRING_ASSET));
      const root = launcher.cacheRoot();
      const cache =
        root === undefined
          ? undefined
          : { dir: join(root, 'native'), removeAllButLatest: launcher.removeAllButLatest };
      keyring = loadAddonAnywhere(bytes, cache);
    }
    return keyring;
  }
  const load = packages[id];
  if (load === undefined) throw new Error(`Cannot find package '${id}' in this executable`);
  return load();
}
