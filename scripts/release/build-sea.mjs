/**
 * Builds the release's single executable `.tmp/sea/tokencli` (tokencli.exe on Windows; or in the
 * directory given as the first argument): sea-executable.mjs says what it carries. Run after
 * `npm run build` (`npm run build:release` does both). Prints the executable's path.
 *
 * TOKENCLI_SEA_CODE_CACHE=0 builds it without any code cache of its own, to measure them.
 */
import { join, resolve } from 'node:path';
import { assertBuilt } from './built.mjs';
import { reportFailures } from './failure.mjs';

reportFailures('build-sea');

const root = resolve(import.meta.dirname, '../..');
assertBuilt(root);
// Imported once dist/ is known to be there: the training's scripts import the library from it.
const { buildSeaExecutable } = await import('./sea-executable.mjs');
// Scratch space outside release/, which holds only what a release uploads.
const out = resolve(process.argv[2] ?? join(root, '.tmp', 'sea'));
console.log(await buildSeaExecutable({ out, codeCaches: process.env.TOKENCLI_SEA_CODE_CACHE !== '0' }));
