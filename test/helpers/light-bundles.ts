/** The light bundles `npm run build` wrote (scripts/bundle.mjs), as the launcher names their caches. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const BUNDLES = resolve(import.meta.dirname, '../../dist/cli-bundle');
const HEADER = '// tokencli light bundle ';

/** The build name on a light bundle's first line, and that line. */
export function lightBundleBuild(bundle: string): { build: string; header: string } {
  const header = readFileSync(join(BUNDLES, `${bundle}.cjs`), 'latin1').split('\n', 1)[0] ?? '';
  if (!header.startsWith(HEADER)) throw new Error(`${bundle}.cjs does not begin with "${HEADER}"`);
  return { build: header.slice(HEADER.length), header };
}
