/**
 * Where a person can read one of the package's documents (a file of its docs/ folder) from the
 * tokencli they run. Lower layers name a document and a section only (src/errors.ts): a bare
 * relative path points at nothing the user has. The npm package and a checkout hold the file; the
 * single executable holds no docs/ at all (its release archive has the executable, LICENSE and the
 * man page), so from there, or wherever the file is missing, the answer is that document in this
 * release's source on GitHub.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { VERSION } from '../../version.js';
import { runningAsExecutable } from '../single-executable.js';

/**
 * package.json's `repository` as a web address; a constant because the executable has no
 * package.json to read (test/cli/output/doc-location.test.ts keeps the two in step).
 */
export const REPOSITORY_URL = 'https://github.com/tokencli/tokencli';

/** What the location depends on, found by {@link thisInstallation}; tests pass their own. */
export interface Installation {
  /** Running as the single executable (Node's single executable application). */
  sea: boolean;
  /** The directory of the tokencli package (or checkout) this CLI runs from, if it was found. */
  packageRoot: string | undefined;
}

/**
 * Where `doc` (a file name in docs/, e.g. `serve.md`) and its `section` (a heading) can be read:
 * the file's absolute path followed by the section in parentheses, or the document's address on
 * GitHub at this version's tag with the section's anchor.
 */
export function docLocation(doc: string, section?: string, installation = thisInstallation()): string {
  const file =
    installation.sea || installation.packageRoot === undefined
      ? undefined
      : join(installation.packageRoot, 'docs', doc);
  if (file !== undefined && existsSync(file)) return section === undefined ? file : `${file} (${section})`;
  const url = `${REPOSITORY_URL}/blob/v${VERSION}/docs/${doc}`;
  return section === undefined ? url : `${url}#${githubAnchor(section)}`;
}

/**
 * GitHub's anchor for a Markdown heading: lower case, punctuation dropped (hyphens and underscores
 * kept), each space a hyphen.
 */
export function githubAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The installation this process runs from. */
export function thisInstallation(): Installation {
  return runningAsExecutable()
    ? { sea: true, packageRoot: undefined }
    : { sea: false, packageRoot: packageRoot() };
}

/**
 * The package holding the launcher this process was started with (`bin/tokencli.js`, reached
 * through npm's link in a `bin` directory, hence the real path): the nearest directory above it
 * whose package.json names tokencli. Not this module's own location: the same code runs from the
 * ES module bundles and from the light CommonJS scripts the launcher compiles itself, where
 * `import.meta` is empty and there is no `__filename`.
 */
function packageRoot(): string | undefined {
  const launcher = process.argv[1];
  if (launcher === undefined || launcher === '') return undefined;
  let dir: string;
  try {
    dir = dirname(realpathSync(launcher));
  } catch {
    return undefined;
  }
  for (;;) {
    if (namesTokencli(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function namesTokencli(packageJson: string): boolean {
  try {
    return (JSON.parse(readFileSync(packageJson, 'utf8')) as { name?: unknown }).name === 'tokencli';
  } catch {
    return false;
  }
}
