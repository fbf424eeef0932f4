/**
 * Child processes in these tests run against the BUILT modules in dist/ (`npm test` builds first
 * through `pretest`; after editing src/, run `npx tsc -p tsconfig.build.json` before running
 * these tests alone).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The file URL of a built module, e.g. distModule('fs/lock.js'); throws when it was not built. */
export function distModule(relative: string): string {
  const path = resolve(import.meta.dirname, '../../dist', relative);
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build\` first`);
  return pathToFileURL(path).href;
}
