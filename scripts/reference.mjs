#!/usr/bin/env node
/**
 * Writes every document generated from the command model and the exit codes (`npm run docs`,
 * which builds first): the tables between `<!-- generated: NAME -->` and `<!-- end generated -->`
 * in README.md and docs/contract.md, docs/reference.md, and the man page (man/tokencli.1, from
 * its Markdown source man/tokencli.1.md through marked-man).
 *
 * `--check` writes nothing and exits 1 naming each file whose generated text differs from what
 * it would write; `--root DIR` works on a copy of those files (the tests use one).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  contractCommands,
  exitCodeTable,
  manSource,
  readmeCommands,
  reference,
} from './reference/render.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const rootAt = args.indexOf('--root');
const root = rootAt === -1 ? repo : resolve(args[rootAt + 1]);

/**
 * The man page's date: marked-man would print today's, which would make every run differ.
 * Move it with the version at each release.
 */
const MAN_DATE = '2026-11-01';

/** Blocks embedded in hand-written documents, by file and marker name. */
const BLOCKS = {
  'README.md': { 'exit-codes': exitCodeTable({ padded: true }), commands: readmeCommands() },
  'docs/contract.md': { 'exit-codes': exitCodeTable({ padded: false }), commands: contractCommands() },
};

function withBlocks(file, text, blocks) {
  let result = text;
  for (const [name, content] of Object.entries(blocks)) {
    const pattern = new RegExp(`(<!-- generated: ${name} -->\\n)[\\s\\S]*?(<!-- end generated -->)`);
    if (!pattern.test(result)) throw new Error(`${file}: no <!-- generated: ${name} --> block`);
    result = result.replace(pattern, (_, open, close) => `${open}${content}\n${close}`);
  }
  return result;
}

function man(source) {
  const version = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version;
  const run = spawnSync(
    process.execPath,
    [
      join(repo, 'node_modules/marked-man/bin/marked-man.js'),
      '--version',
      version,
      '--manual',
      'tokencli manual',
      '--date',
      MAN_DATE,
      // Tables and autolinks are GitHub's: an autolinked URL in a sentence lost the `;` after it.
      '--no-gfm',
    ],
    { input: source, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`marked-man failed: ${run.stderr}`);
  return forEveryMan(run.stdout);
}

/**
 * What marked-man writes, made right for every man: mandoc (macOS's `man`) cannot read its
 * "Month YYYY" date and skips, with a warning each, a paragraph macro right after a heading; and
 * groff hyphenates at a line's end, which breaks names such as TOKENCLI_CLIENT_SECRET where they
 * would be copied from (`.nh` turns that off).
 */
function forEveryMan(page) {
  const lines = page.split('\n');
  const title = lines.findIndex((line) => line.startsWith('.TH '));
  if (title === -1) throw new Error('marked-man wrote no .TH line');
  const fields = lines[title].match(/"[^"]*"|\S+/g);
  fields[3] = `"${MAN_DATE}"`;
  lines[title] = `${fields.join(' ')}\n.nh`;
  return lines.filter((line, i) => !(line === '.P' && /^\.S[HS] /.test(lines[i - 1] ?? ''))).join('\n');
}

const read = (file) => {
  try {
    return readFileSync(join(root, file), 'utf8');
  } catch {
    return '';
  }
};

const source = manSource();
const outputs = {
  ...Object.fromEntries(
    Object.entries(BLOCKS).map(([file, blocks]) => [file, withBlocks(file, read(file), blocks)]),
  ),
  'docs/reference.md': reference(),
  'man/tokencli.1.md': source,
  'man/tokencli.1': man(source),
};

const stale = Object.entries(outputs).filter(([file, text]) => read(file) !== text);
if (check) {
  for (const [file] of stale) console.error(`${file}: differs from what \`npm run docs\` generates`);
  process.exit(stale.length ? 1 : 0);
}
for (const [file, text] of stale) {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
  console.log(`wrote ${file}`);
}
