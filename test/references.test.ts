/**
 * Every reference to a file or a document section resolves: repository paths (`src/…`, `test/…`,
 * `scripts/…`, `bench/…`, `bin/…`, `docs/<name>.md`, `man/…`) and backquoted file names in the
 * documents, the same and bare file names (`token-flags.ts`) in every comment of the code, and
 * `docs/contract.md §N` and `<name>.md#<anchor>` wherever they appear. test/readme.test.ts checks the
 * documents' Markdown links. Needs `npm run build` (comments name built files too).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** Files under a folder, skipping fixtures (data, not prose) and node_modules. */
function files(dir: string): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (!entry.isDirectory()) return [path];
    return entry.name === 'node_modules' || entry.name === 'fixtures' ? [] : files(path);
  });
}

const code = ['src', 'test', 'scripts', 'bin', 'bench']
  .flatMap(files)
  .filter((path) => /\.(?:ts|mjs|cjs|js)$/.test(path));
const documents = [
  'README.md',
  'CONTRIBUTING.md',
  'bench/README.md',
  ...files('docs').filter((path) => path.endsWith('.md')),
];

/** The comments of a source file (a `//` after a quote or a colon is taken as a URL, not one). */
function comments(text: string): string {
  return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\w])\/\/.*$/gm)].map((m) => m[0]).join('\n');
}

/** Every file name the repository, its build and the code's own string literals know. */
const known = new Set(
  [
    ...['src', 'test', 'scripts', 'bin', 'bench', 'docs', 'man', '.ci', 'dist'].flatMap(files),
    ...readdirSync(root),
  ].map((path) => basename(path)),
);
// A file the code itself writes (a benchmark's empty script) is named in a string literal.
for (const path of code)
  for (const m of read(path).matchAll(/['"`]([\w-]+\.(?:ts|mjs|cjs|js))['"`]/g)) known.add(m[1] ?? '');

/** A repository path exists, as written or as the TypeScript source of a `.js` name. */
const pathExists = (path: string) =>
  existsSync(join(root, path)) || existsSync(join(root, path.replace(/\.js$/, '.ts')));
const nameKnown = (name: string) => known.has(name) || known.has(name.replace(/\.js$/, '.ts'));

const PATH = /(?<![\w./@~$-])((?:src|test|scripts|bench|bin|docs|man)\/[\w./-]*\w)/g;
const NAME = /(?<![\w./@~$-])([\w-]+\.(?:ts|mjs|cjs))\b|`([\w-]+\.js)`/g;

function missing(source: string, text: string, names: RegExp): string[] {
  const found: string[] = [];
  for (const [, path = ''] of text.matchAll(PATH)) if (!pathExists(path)) found.push(`${source}: ${path}`);
  for (const m of text.matchAll(names)) {
    const name = m[1] ?? m[2] ?? '';
    if (!nameKnown(name)) found.push(`${source}: ${name}`);
  }
  return found;
}

/**
 * Dangling today in src/cli/, which is being reorganised: fixed there, each line must go from here
 * (the test compares the whole list, so a fixed one left here fails it too).
 */
const AWAITING_CLI_CHANGE = ['src/cli/commands/token-flags.ts: get-token.ts'];

test('every path and file name a comment names exists', () => {
  const found = code.flatMap((path) => missing(path, comments(read(path)), NAME));
  expect(found).toEqual(AWAITING_CLI_CHANGE);
});

test('every path and backquoted file name a document names exists', () => {
  const found = documents.flatMap((path) => missing(path, read(path), /`([\w-]+\.(?:ts|mjs|cjs|js))`/g));
  expect(found).toEqual([]);
});

test('every contract section cited anywhere exists', () => {
  const sections = new Set(
    [...read('docs/contract.md').matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)].map((m) => m[1]),
  );
  const cited: string[] = [];
  for (const path of [...code, ...documents]) {
    const text = read(path);
    for (const m of text.matchAll(/(?:contract(?:\.md)?|SPEC\.md)\)? §(\d+(?:\.\d+)*)/g))
      if (!sections.has(m[1])) cited.push(`${path}: ${m[0]}`);
    // The contract's own bare `§N`; an RFC's section follows the RFC's number.
    if (path === 'docs/contract.md')
      for (const m of text.matchAll(/(?<!\d )§(\d+(?:\.\d+)*)/g))
        if (!sections.has(m[1])) cited.push(`${path}: ${m[0]}`);
  }
  expect(cited).toEqual([]);
});

/** GitHub's anchor for a heading, as test/readme.test.ts computes it. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');

test('every document#anchor named in the code exists', () => {
  const broken: string[] = [];
  for (const path of code)
    for (const [ref, file = '', hash = ''] of comments(read(path)).matchAll(
      /((?:docs\/)?[\w-]+\.md)#([\w-]+)/g,
    )) {
      const doc = [file, `docs/${file}`].find((candidate) => existsSync(join(root, candidate)));
      const headings = doc ? [...read(doc).matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1] ?? '')) : [];
      if (!headings.includes(hash)) broken.push(`${path}: ${ref}`);
    }
  expect(broken).toEqual([]);
});

test('the check sees a missing file and a missing name', () => {
  expect(missing('x', '// see src/cli/no-such-file.ts', NAME)).toEqual(['x: src/cli/no-such-file.ts']);
  expect(missing('x', ' * (get-token.ts)', NAME)).toEqual(['x: get-token.ts']);
  expect(missing('x', '// src/cli/exit-codes.ts, light-argv.cjs, docs/contract.md', NAME)).toEqual([]);
});
