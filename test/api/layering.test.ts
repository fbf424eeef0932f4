/**
 * The library and `tokencli/server` as built: no module reachable from `dist/index.js` or
 * `dist/server/index.js` (static and dynamic imports) lives under `dist/cli/`. Needs `npm run build`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIST = resolve(import.meta.dirname, '../../dist');

/** Every built module reachable by static or dynamic relative import from `entry`. */
function moduleGraph(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:\bfrom|\bimport\(?)\s*['"](\.{1,2}\/[^'"]+\.js)['"]/g)) {
      visit(join(dirname(file), match[1] as string));
    }
  };
  visit(entry);
  return [...seen].map((file) => relative(DIST, file));
}

describe('the built entry points', () => {
  for (const entry of ['index.js', 'server/index.js']) {
    it(`${entry} reaches no module of the CLI`, () => {
      expect(existsSync(join(DIST, entry)), 'run `npm run build` first').toBe(true);
      const graph = moduleGraph(join(DIST, entry));
      // The walk sees through dynamic imports: the library's operations are loaded lazily.
      if (entry === 'index.js') expect(graph).toContain('session/token-steps.js');
      expect(graph.filter((file) => file.startsWith('cli/'))).toEqual([]);
    });
  }
});
