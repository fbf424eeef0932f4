/**
 * The release workflow's first step: `node scripts/release/version-check.mjs TAG`. Every file that
 * names the release it comes with must name the tag's version, or the release would ship an
 * install.sh (or an action) that installs the version before it: package.json's `version`,
 * install.sh's `RELEASED_VERSION`, action.yml's `version` default, and the man page's `.TH` line
 * (`npm run docs`). Each file that disagrees is said in one line; exit 1.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where each file names its version: the file, what it is called there, and how to read it. */
const PLACES = [
  ['package.json', "package.json's version", (text) => JSON.parse(text).version],
  ['install.sh', "install.sh's RELEASED_VERSION", (text) => /^RELEASED_VERSION=(\S+)$/m.exec(text)?.[1]],
  [
    'action.yml',
    "action.yml's version default",
    (text) => /^ {2}version:\n(?: {4}.*\n)*? {4}default: (\S+)$/m.exec(text)?.[1],
  ],
  [
    'man/tokencli.1',
    "the man page's .TH version (npm run docs)",
    (text) => /^\.TH "TOKENCLI" "1" "[^"]*" "([^"]+)"/m.exec(text)?.[1],
  ],
];

/** One line for each place in the checkout at `root` that does not name `version` (a tag's v is dropped). */
export function versionMismatches(root, tag) {
  const version = tag.replace(/^v/, '');
  const lines = [];
  for (const [file, what, read] of PLACES) {
    let found;
    try {
      found = read(readFileSync(join(root, file), 'utf8'));
    } catch (error) {
      lines.push(`${what}: ${file} cannot be read (${error.code ?? error.message})`);
      continue;
    }
    if (found !== version) lines.push(`${what} is ${found ?? 'missing'}, not the tag's ${version}`);
  }
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const tag = process.argv[2];
  if (!tag) {
    console.error('usage: node scripts/release/version-check.mjs TAG (e.g. v0.1.0)');
    process.exit(2);
  }
  const mismatches = versionMismatches(resolve(import.meta.dirname, '../..'), tag);
  for (const line of mismatches) console.error(`version-check: ${line}`);
  if (mismatches.length) {
    console.error('version-check: bump them together (CONTRIBUTING.md, Releases)');
    process.exit(1);
  }
  console.log(`version-check: every file names ${tag.replace(/^v/, '')}`);
}
