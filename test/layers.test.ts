/**
 * The layer rules (.dependency-cruiser.cjs) hold on the code as built, and they catch what they
 * are for: each check below adds one forbidden import to a copy of the compiled tree and expects
 * dependency-cruiser to name that rule. Runs on dist/ (`npm test` builds first).
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unregisteredTempDir } from './helpers/temp-dirs.js';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
// Inside the checkout, so packages resolve from its node_modules and package.json says which
// are dependencies (a copy under the system TMPDIR would find neither).
let copy = '';

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** The rules each tree breaks, checked in one run: `rule from → to`, paths relative to the tree. */
function violations(trees: Record<string, string>): Record<string, string[]> {
  const paths = Object.values(trees).map((tree) => relative(root, tree));
  let output: string;
  try {
    // The tool's own script, run by this node: Windows cannot start node_modules/.bin's shell wrapper.
    output = execFileSync(
      process.execPath,
      [
        join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
        '--config',
        '.dependency-cruiser.cjs',
        '--output-type',
        'json',
        ...paths,
      ],
      {
        cwd: root,
        env: { ...process.env, LAYERS_ROOT: paths.join(',') },
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      },
    );
  } catch (error) {
    output = (error as { stdout: string }).stdout;
  }
  const result = JSON.parse(output) as { summary: { violations: Violation[]; totalCruised: number } };
  expect(result.summary.totalCruised).toBeGreaterThan(100 * paths.length);
  return Object.fromEntries(
    Object.entries(trees).map(([name, tree]) => {
      const prefix = `${relative(root, tree)}/`;
      const own = result.summary.violations.filter((v) => v.from.startsWith(prefix));
      const local = (path: string) => path.replace(prefix, '');
      return [name, own.map((v) => `${v.rule.name} ${local(v.from)} → ${local(v.to)}`)];
    }),
  );
}

let trees = 0;

/** A fresh copy of the compiled modules, with a line added to each file named. */
function withLines(lines: Record<string, string>): string {
  trees += 1;
  const tree = join(copy, `tree${trees}`);
  cpSync(dist, tree, {
    recursive: true,
    filter: (path) => !path.includes('cli-bundle') && !path.endsWith('.d.ts'),
  });
  for (const [file, line] of Object.entries(lines)) appendFileSync(join(tree, file), `\n${line}\n`);
  return tree;
}

beforeAll(() => {
  expect(existsSync(join(dist, 'index.js')), 'run `npm run build` first').toBe(true);
  mkdirSync(join(root, '.tmp'), { recursive: true });
  copy = unregisteredTempDir(join(root, '.tmp'), 'layers-test-');
});

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('the layer rules', () => {
  // One run of dependency-cruiser (a few seconds) over two copies: the tree as built, and one
  // with every forbidden import below added at once; each test reads its rule's line.
  let clean: string[] = [];
  let broken: string[] = [];
  let cli = '';
  beforeAll(() => {
    // Any module of the CLI will do as the forbidden target.
    cli = `cli/${readdirSync(join(dist, 'cli'), { recursive: true, encoding: 'utf8' }).find((f) => f.endsWith('.js'))}`;
    const found = violations({
      clean: withLines({}),
      broken: withLines({
        'protocol/endpoints.js': `import '../${cli}';`,
        'session/inspect.js': `export const cli = () => import('../${cli}');`,
        'server/service.js': "import '../http/request.js';",
        'text/duration.js': "import './seconds.js'; import 'vitest';",
        'text/seconds.js': "import './duration.js';",
      }),
    });
    clean = found.clean ?? [];
    broken = found.broken ?? [];
  }, 60_000);

  it('pass on the code as it is', () => {
    expect(clean).toEqual([]);
  });

  it('refuse an upward import (protocol/ importing cli/)', () => {
    expect(broken).toContain(`layer-protocol protocol/endpoints.js → ${cli}`);
  });

  it('refuse the library reaching cli/, even through a lazy import', () => {
    expect(broken).toContain(`layer-session session/inspect.js → ${cli}`);
    expect(broken).toContain(`index-not-cli index.js → ${cli}`);
  });

  it('keep the server off the client (server/ importing http/)', () => {
    expect(broken).toContain('layer-server server/service.js → http/request.js');
  });

  it('refuse a devDependency and a cycle', () => {
    expect(broken).toContain('no-dev-dependency text/duration.js → node_modules/vitest/dist/index.js');
    expect(broken).toContain('no-circular text/duration.js → text/seconds.js');
  });
});
