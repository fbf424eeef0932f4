/**
 * The documents generated from the command model and the exit codes (scripts/reference.mjs,
 * `npm run docs`) are committed as generated: the README and the contract cannot disagree on an
 * exit code or a command, and the man page renders. Needs `npm run build` (the generator reads
 * the built modules).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { requiredInCi } from './helpers/ci-required.js';
import { tempDir } from './helpers/temp-dirs.js';

const root = resolve(import.meta.dirname, '..');
const generator = join(root, 'scripts/reference.mjs');

const check = (...args: string[]) =>
  spawnSync(process.execPath, [generator, '--check', ...args], { cwd: root, encoding: 'utf8' });

test('every generated text is what the generator writes now', () => {
  const run = check();
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
});

test('the check names a document whose generated text was edited by hand', () => {
  const copy = tempDir('reference-');
  for (const path of ['README.md', 'docs', 'man'])
    cpSync(join(root, path), join(copy, path), { recursive: true });
  const readme = join(copy, 'README.md');
  const text = readFileSync(readme, 'utf8');
  const edited = text.replace(/^\| 2 +\| usage error: .*$/m, '| 2    | usage error |');
  expect(edited).not.toBe(text);
  writeFileSync(readme, edited);
  const run = check('--root', copy);
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('README.md: differs');
  expect(run.stderr).not.toContain('contract.md');
});

test('the README and the contract give every exit code the same meaning', () => {
  const rows = (path: string) => {
    const text = readFileSync(join(root, path), 'utf8');
    const block = text.split('<!-- generated: exit-codes -->\n')[1]?.split('<!-- end generated -->')[0] ?? '';
    return [...block.matchAll(/^\| (\d+) +\| (.+?) +\|$/gm)].map((m) => `${m[1]} ${m[2]}`);
  };
  expect(rows('README.md')).toHaveLength(8);
  expect(rows('README.md')).toEqual(rows('docs/contract.md'));
});

const MAN_SECTIONS = [
  'NAME',
  'SYNOPSIS',
  'DESCRIPTION',
  'COMMANDS',
  'GLOBAL OPTIONS',
  'EXIT STATUS',
  'ENVIRONMENT',
  'FILES',
  'EXAMPLES',
  'SEE ALSO',
];

test('the man page has its sections and renders without a warning', () => {
  const page = join(root, 'man/tokencli.1');
  const source = readFileSync(page, 'utf8');
  // A date every man reads (mandoc cannot parse "November 2026").
  expect(source).toMatch(/^\.TH "TOKENCLI" "1" "\d{4}-\d{2}-\d{2}" /);
  const sections = [...source.matchAll(/^\.SH "?([^"\n]+)"?$/gm)].map((m) => m[1]);
  expect(sections).toEqual(MAN_SECTIONS);
  // Rendered only where groff is installed (CI's Debian has it; the structure above is checked anyway).
  if (spawnSync('groff', ['--version']).status !== 0) return;
  const warnings = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-z', page], { encoding: 'utf8' });
  expect(warnings.stderr).toBe('');
  const text = execFileSync('groff', ['-man', '-Tascii', '-P', '-cbou', page], { encoding: 'utf8' });
  for (const section of MAN_SECTIONS) expect(text).toMatch(new RegExp(`^${section}$`, 'm'));
  expect(text.replace(/\s+/g, ' ')).toContain('an explicit --store keychain that cannot be had');
  // Nothing named is split at a line's end (a hyphen groff adds), where it would be copied from.
  const narrow = execFileSync('groff', ['-man', '-Tutf8', '-rLL=72n', '-P', '-cbou', page], {
    encoding: 'utf8',
  });
  expect(narrow).not.toMatch(/\w[\u2010-]\n/);
});

test("the reference gives the program's own examples, as tokencli --help does", () => {
  const reference = readFileSync(join(root, 'docs/reference.md'), 'utf8');
  const examples = reference.slice(reference.indexOf('## Examples'), reference.indexOf('## Commands'));
  expect(examples).toContain('tokencli info --json | jq .expires_in');
});

test('the man page names every global option, --help and the variables tokencli reads', () => {
  const source = readFileSync(join(root, 'man/tokencli.1.md'), 'utf8');
  const globals = source.slice(source.indexOf('## GLOBAL OPTIONS'), source.indexOf('## EXIT STATUS'));
  for (const flag of [
    '--version',
    '--profile',
    '--store',
    '--verbose',
    '--quiet',
    '--no-color',
    '-h, --help',
  ])
    expect(globals).toContain(`\`${flag}`);
  expect(globals).toContain('one of keychain, file, none');
  expect(globals).toMatch(/`serve`, `completion` and `version` take only `--version` and `--verbose`/);
  const environment = source.slice(source.indexOf('## ENVIRONMENT'), source.indexOf('## FILES'));
  for (const name of ['TOKENCLI_CONFIG_DIR', 'TOKENCLI_PASSWORD', 'BROWSER', 'NO_COLOR', 'HTTPS_PROXY'])
    expect(environment).toContain(name);
  // Every command's examples, a subcommand's too (`profile show`), and the program's own.
  const examples = source.slice(source.indexOf('## EXAMPLES'));
  for (const example of ['tokencli profile show work --json', 'tokencli info --json | jq .expires_in'])
    expect(examples).toContain(example);
  // The page ships beside the executable on every platform.
  expect(source).toContain('~/Library/Application Support/tokencli');
  expect(source).toContain('~/Library/Caches/tokencli/');
});

/** Why the mandoc test skips, or undefined when mandoc runs. */
const mandocMissing = spawnSync('mandoc', ['-T', 'lint', '/dev/null']).error
  ? 'the mandoc command is not installed'
  : undefined;
requiredInCi(mandocMissing, "install Debian's mandoc");

test.skipIf(mandocMissing !== undefined)(
  `the man page reads without a warning in mandoc, macOS's man${mandocMissing ? ` (skipped: ${mandocMissing})` : ''}`,
  () => {
    const page = join(root, 'man/tokencli.1');
    const lint = spawnSync('mandoc', ['-T', 'lint', '-W', 'warning', page], { encoding: 'utf8' });
    expect(lint.stdout + lint.stderr).toBe('');
  },
);
