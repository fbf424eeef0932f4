/**
 * Whether `npm run build` has run: the release build packs and carries what it wrote to dist/ (the
 * light bundles, the library's modules), and the scripts that import from dist/ would otherwise
 * end in a module loader's stack trace. Checked before anything is removed or imported.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BuildFailure } from './failure.mjs';

/** Throws a BuildFailure naming what is missing unless ROOT's dist/ holds a build. */
export function assertBuilt(root) {
  for (const file of ['dist/index.js', 'dist/cli-bundle/light-argv.cjs']) {
    if (!existsSync(join(root, ...file.split('/'))))
      throw new BuildFailure(
        `${file} is missing: run \`npm run build\` first (\`npm run build:release\` runs both)`,
      );
  }
}
