/**
 * The release workflow's first step: `node scripts/release/version-check.mjs TAG`. Every file that
 * names the release it comes with must name the tag's version, or the release would ship a program,
 * an install.sh or an action that says or installs the version before it: package.json's
 * `version` (and package-lock.json's), src/version.ts's `VERSION` (what `tokencli --version`
 * prints), install.sh's `RELEASED_VERSION`, action.yml's `version` default, the man page's `.TH`
 * line (`npm run docs`), and every release a document pins (`tokencli@0.1.0`,
 * `…/releases/download/v0.1.0/…`, `…/blob/v0.1.0/…`, an archive's name). Each file that disagrees is said in one
 * line; exit 1. So is a tag that names no release (tagProblem), before any file is read.
 */
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A version as a tag or a pin names it: 1.2.3, or a prerelease such as 1.0.0-rc.1 (semver's form). */
const VERSION = String.raw`\d+\.\d+\.\d+(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?`;

/**
 * Build metadata after an npm pin's version (`tokencli@1.2.3+build.5`): read with it, so that the
 * pin is said to disagree (no tag has it) rather than passed over as no pin at all.
 */
const BUILD = String.raw`(?:\+[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?`;

/** Where a version ends: not in a longer name, though a sentence's full stop may follow it. */
const END = String.raw`(?![\w+-]|\.\w)`;

/**
 * Every release of tokencli that `text` pins: npm's `tokencli@V` and the action's
 * `tokencli/tokencli@vV`, this repository's release page, download or source URL (`releases/tag`,
 * `releases/download`, `tree`, `blob`), an archive's or
 * tarball's name; never another package's or repository's (`foo-tokencli@1.2.3`,
 * `someone/tokencli@v1`, node's `tree/v20.18.1`). The man page's escapes (`0\.1\.0`, `rc\-1`)
 * are read as the characters they stand for.
 */
export function pinnedReleases(text) {
  const repository = String.raw`github\.com/tokencli/tokencli`;
  const pins = new RegExp(
    String.raw`(?<![\w@/.-])tokencli(?:/tokencli)?@v?(${VERSION}${BUILD})${END}` +
      `|${repository}/(?:releases/download|releases/tag|tree|blob)/v(${VERSION})${END}` +
      String.raw`|(?<![\w.-])tokencli-(${VERSION})(?:-(?:linux|darwin|win)-|\.tgz)`,
    'g',
  );
  return [...text.replace(/\\([.-])/g, '$1').matchAll(pins)].map((m) => m.slice(1).find(Boolean));
}

/** The files whose pinned releases must be the tag's: the documents, install.sh, the action, the man page. */
function pinningFiles(root) {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return [
    'README.md',
    'CONTRIBUTING.md',
    'bench/README.md',
    ...docs,
    'install.sh',
    'action.yml',
    'man/tokencli.1',
  ];
}

/** Where each file names its version: the file, what it is called there, and how to read it. */
const PLACES = [
  ['package.json', "package.json's version", (text) => JSON.parse(text).version],
  [
    'package-lock.json',
    "package-lock.json's version (npm version X does it)",
    (text) => {
      const lock = JSON.parse(text);
      // The root package's version is written twice; both must be the release's.
      return lock.version === lock.packages?.['']?.version
        ? lock.version
        : `${lock.version} and ${lock.packages?.['']?.version}`;
    },
  ],
  [
    'src/version.ts',
    "src/version.ts's VERSION (tokencli --version)",
    (text) => /^export const VERSION = '([^']*)';$/m.exec(text)?.[1],
  ],
  [
    'install.sh',
    "install.sh's RELEASED_VERSION",
    (text) => /^RELEASED_VERSION=(["']?)(\S+?)\1$/m.exec(text)?.[2],
  ],
  [
    'action.yml',
    "action.yml's version default",
    (text) => /^ {2}version:\n(?: {4}.*\n)*? {4}default: (["']?)(\S+?)\1$/m.exec(text)?.[2],
  ],
  [
    'man/tokencli.1',
    "the man page's .TH version (npm run docs)",
    (text) => /^\.TH "TOKENCLI" "1" "[^"]*" "([^"]+)"/m.exec(text)?.[1],
  ],
];

/**
 * Why `tag` names no release, or undefined: a release's tag is v and a version (v1.2.3, or a
 * prerelease such as v1.2.3-rc.1). Build metadata (v1.2.3+build.5) is refused: npm drops it, so
 * 1.2.3+build.5 would be published as 1.2.3, and its hyphen would mark it a prerelease.
 */
export function tagProblem(tag) {
  if (new RegExp(`^v${VERSION}$`).test(tag)) return undefined;
  return `the tag ${JSON.stringify(tag)} is not a release's: v and a version such as v1.2.3 or v1.2.3-rc.1, with no build metadata (+…)`;
}

/** One line for each place in the checkout at `root` that does not name `version` (a tag's v is dropped). */
export function versionMismatches(root, tag) {
  const version = tag.replace(/^v/, '');
  const lines = [];
  /** `read` of the file's text in `{ value }`, or undefined after saying why it cannot be read. */
  const readFile = (file, what, read) => {
    try {
      return { value: read(readFileSync(join(root, file), 'utf8')) };
    } catch (error) {
      lines.push(`${what ? `${what}: ` : ''}${file} cannot be read (${error.code ?? error.message})`);
    }
  };
  for (const [file, what, read] of PLACES) {
    const found = readFile(file, what, read);
    if (found && found.value !== version)
      lines.push(`${what} is ${found.value ?? 'missing'}, not the tag's ${version}`);
  }
  for (const file of pinningFiles(root)) {
    const pins = readFile(file, undefined, pinnedReleases);
    const others = [...new Set(pins?.value.filter((pin) => pin !== version))];
    if (others.length) lines.push(`${file} pins ${others.join(', ')}, not the tag's ${version}`);
  }
  return lines;
}

// Run as a script: node names its main module by its real path, and argv[1] may reach it through
// a link (a linked checkout or temporary directory), which must not make the check pass unrun.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const tag = process.argv[2];
  if (!tag) {
    console.error('usage: node scripts/release/version-check.mjs TAG (e.g. v0.1.0)');
    process.exit(2);
  }
  const problem = tagProblem(tag);
  if (problem) {
    console.error(`version-check: ${problem}`);
    process.exit(1);
  }
  const mismatches = versionMismatches(resolve(import.meta.dirname, '../..'), tag);
  for (const line of mismatches) console.error(`version-check: ${line}`);
  if (mismatches.length) {
    console.error('version-check: bump them together (CONTRIBUTING.md, Releases)');
    process.exit(1);
  }
  console.log(`version-check: every file names ${tag.replace(/^v/, '')}`);
}
