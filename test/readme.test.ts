/**
 * The README and the documents it sends readers to keep up with the code they describe: the
 * README stays a short user guide whose Contents list names every section, every relative link
 * leads to a file and heading that exist, the design notes justify every dependency package.json
 * declares, the contract has every section the code cites, and the start-up lines of `serve` that
 * the documents quote are the ones it prints.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { demoCredentialsText, demoSsoText } from '../src/cli/commands/serve/serve-text.js';
import { REPOSITORY_URL } from '../src/cli/output/doc-location.js';
import { isAddress, linkTargets, prose } from './helpers/markdown.js';

const root = resolve(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const readme = read('README.md');
const pkg = JSON.parse(read('package.json')) as {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};

/** The documents: the README, docs/, CONTRIBUTING.md and the benchmarks' README. */
const documents = [
  'README.md',
  'CONTRIBUTING.md',
  'bench/README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

function anchors(text: string): string[] {
  return [...prose(text).matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1] ?? ''));
}

test('the README is a user guide of at most 450 lines, Install and Try it locally on its first screen', () => {
  const lines = readme.split('\n');
  expect(lines.at(-1)).toBe('');
  expect(lines.length - 1).toBeLessThanOrEqual(450);
  const headings = lines.map((line) => line.match(/^## (.+)$/)?.[1]);
  expect(headings.indexOf('Install')).toBeLessThan(20);
  expect(headings.indexOf('Try it locally')).toBeLessThan(50);
  expect(readme).toContain('npm install && npm run demo');
  expect(readme).toContain('npm install && npm test');
});

test('the Contents list links every section, in order', () => {
  const sections = [...prose(readme).matchAll(/^## (.+)$/gm)]
    .map((m) => m[1] ?? '')
    .filter((heading) => heading !== 'Contents');
  const contents =
    prose(readme)
      .split(/^## Contents$/m)[1]
      ?.split(/^## /m)[0] ?? '';
  const listed = [...contents.matchAll(/\[([^\]]+)\]\(#([^)]+)\)/g)].map((m) => [m[1], m[2]]);
  expect(listed).toEqual(sections.map((heading) => [heading, anchor(heading)]));
});

/** Where the documents link to a file of the repository's main branch (one the npm package leaves out). */
const ON_MAIN = `${REPOSITORY_URL}/blob/main/`;

test('every relative link in the documents, and every link to the repository, leads to a file, and a heading there when it names one', () => {
  const broken: string[] = [];
  for (const document of documents) {
    for (const target of linkTargets(read(document))) {
      const onMain = target.startsWith(ON_MAIN);
      if (isAddress(target) && !onMain) continue;
      const [path = '', hash] = (onMain ? target.slice(ON_MAIN.length) : target).split('#');
      const file = onMain ? path : path === '' ? document : join(dirname(document), path);
      if (!existsSync(join(root, file))) broken.push(`${document}: ${target} (no file)`);
      else if (hash !== undefined && file.endsWith('.md') && !anchors(read(file)).includes(hash))
        broken.push(`${document}: ${target} (no heading)`);
    }
  }
  expect(broken).toEqual([]);
});

test('the documents name no tracker numbers (readers cannot open them)', () => {
  for (const document of documents) expect(read(document), document).not.toMatch(/\bissues? #?\d+/i);
});

test('the design notes name every dependency', () => {
  const notes = prose(read('docs/design.md'));
  const names = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})];
  expect(names.filter((name) => !notes.includes(`\`${name}\``))).toEqual([]);
});

test('the contract has every section the code cites', () => {
  const sections = new Set(
    [...read('docs/contract.md').matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)].map((m) => m[1] ?? ''),
  );
  const cited = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts'))
        for (const m of read(path).matchAll(/(?:SPEC\.md|docs\/contract\.md) §(\d+(?:\.\d+)?)/g))
          cited.add(m[1] ?? '');
    }
  };
  walk('src');
  expect(cited.size).toBeGreaterThan(0);
  expect([...cited].filter((section) => !sections.has(section))).toEqual([]);
});

const demo = {
  cli: 'tokencli',
  baseUrl: 'http://127.0.0.1:8080',
  clientId: 'demo-client',
  clientSecret: 'demo-secret',
  redirectUri: 'http://127.0.0.1:8765/callback',
  email: 'demo@example.com',
  password: 'demo-password',
};

test("the README's try-it lines are the ones serve prints", () => {
  const printed = demoCredentialsText(demo).split('try it (another terminal):\n')[1] ?? '';
  const lines = printed
    .trimEnd()
    .split('\n')
    .map((line) => line.slice(2));
  expect(lines).toHaveLength(3);
  const tryIt = readme.split('## Try it locally')[1]?.split('\n## ')[0] ?? '';
  expect(tryIt).toContain(['```sh', ...lines, '```'].join('\n'));
});

test("docs/serve.md's SSO line is the one serve prints", () => {
  const line = demoSsoText({
    ...demo,
    issuer: 'https://idp.demo.tokencli.invalid',
    keyPath: '/tmp/tokencli-demo-idp-XXXXXX/demo-idp-key.pem',
  }).split('\n')[0];
  expect(read('docs/serve.md')).toContain(`\n${line}\n`);
});

// That every release the documents pin is this one is the release's version check
// (test/release/version-check.test.ts).
test("the README's npx lines pin a release", () => {
  const code = [...readme.matchAll(/^```[^\n]*\n([\s\S]*?)^```$/gm)].map((m) => m[1]).join('');
  expect(code).toMatch(/npx --yes tokencli@\d/);
  expect(code).not.toMatch(/npx (--yes )?tokencli(?!@)/);
});

test("the README's action example uses only the action's inputs", () => {
  const action = read('action.yml');
  const inputs = new Set(
    [...(action.split('\ninputs:\n')[1]?.split('\noutputs:\n')[0] ?? '').matchAll(/^ {2}([\w-]+):$/gm)].map(
      (m) => m[1],
    ),
  );
  const example = readme.split('- uses: tokencli/tokencli@')[1]?.split('```')[0] ?? '';
  const withBlock = example.split('  with:\n')[1]?.split('\n- ')[0] ?? '';
  const used = [...withBlock.matchAll(/^ {4}([\w-]+):/gm)].map((m) => m[1]);
  expect(used.length).toBeGreaterThan(3);
  expect(used.filter((name) => !inputs.has(name))).toEqual([]);
});

test('engines names exactly the Node lines .ci/run tests, and the README says the same', () => {
  const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
  const ciMajors = (/^NODE_MAJORS=\(([\d ]+)\)$/m.exec(read('.ci/run'))?.[1] ?? '').split(' ');
  const engineMajors = [...engines.matchAll(/\^(\d+)\./g)].map((m) => m[1]);
  // The machine's own node is the fourth line: 20 here, the oldest one engines allows.
  expect(engineMajors).toEqual(['20', ...ciMajors]);
  const install = readme.split('## Install')[1]?.split('\n## ')[0] ?? '';
  expect(install).toContain(
    `Node.js 20 (from 20.18.1), ${ciMajors.slice(0, -1).join(', ')} or ${ciMajors.at(-1)}`,
  );
});

test("the README's first lines say what npm test costs: it is not set-up", () => {
  const first = readme.split('\n## ')[0] ?? '';
  expect(first).toMatch(/npm test .*not set-up.*minutes.*Chromium/);
});
