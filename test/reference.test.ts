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
  expect(source).toMatch(/^\.TH "TOKENCLI" "1" /);
  const sections = [...source.matchAll(/^\.SH "?([^"\n]+)"?$/gm)].map((m) => m[1]);
  expect(sections).toEqual(MAN_SECTIONS);
  // Rendered only where groff is installed (CI's Debian has it; the structure above is checked anyway).
  if (spawnSync('groff', ['--version']).status !== 0) return;
  const warnings = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-z', page], { encoding: 'utf8' });
  expect(warnings.stderr).toBe('');
  const text = execFileSync('groff', ['-man', '-Tascii', '-P', '-cbou', page], { encoding: 'utf8' });
  for (const section of MAN_SECTIONS) expect(text).toMatch(new RegExp(`^${section}$`, 'm'));
  expect(text.replace(/\s+/g, ' ')).toContain('an explicit --store keychain that cannot be had');
});
