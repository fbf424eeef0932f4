/**
 * The README keeps up with the code it describes: its Contents list names every section, and its
 * design notes justify every dependency package.json declares (common engineering standards).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};

/** The README without its fenced code blocks, whose `#` lines are shell comments, not headings. */
const prose = readme.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

test('the Contents list links every section, in order', () => {
  const sections = [...prose.matchAll(/^## (.+)$/gm)]
    .map((m) => m[1] ?? '')
    .filter((heading) => heading !== 'Contents');
  const contents = prose.split(/^## Contents$/m)[1]?.split(/^## /m)[0] ?? '';
  const listed = [...contents.matchAll(/^- \[(.+)\]\(#([^)]+)\)$/gm)].map((m) => [m[1], m[2]]);
  expect(listed).toEqual(sections.map((heading) => [heading, anchor(heading)]));
});

test('the design notes name every dependency', () => {
  const notes = prose.split(/^## Design notes$/m)[1] ?? '';
  const names = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})];
  expect(names.filter((name) => !notes.includes(`\`${name}\``))).toEqual([]);
});
