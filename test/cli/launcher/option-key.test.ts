/**
 * optionKey (src/cli/command-model/types.ts) must key every flag of the model exactly as commander
 * keys its value, since the launcher's parser and the full CLI hand the same options object to the
 * same run functions.
 */
import { Option } from 'commander';
import { describe, expect, test } from 'vitest';
import { PROGRAM } from '../../../src/cli/command-model/program.js';
import { commandPaths, optionKey } from '../../../src/cli/command-model/types.js';

describe('optionKey', () => {
  test.each([
    ['--min-ttl', 'minTtl'],
    ['--no-store', 'store'],
    ['--json', 'json'],
    ['--show-tokens', 'showTokens'],
    ['--no-open-browser', 'openBrowser'],
    ['--a-b-c', 'aBC'],
  ])('%s → %s', (long, key) => {
    expect(optionKey(long)).toBe(key);
    expect(new Option(long).attributeName()).toBe(key);
  });

  test("agrees with commander's attributeName for every flag of every command", () => {
    const longs = new Set([
      ...PROGRAM.globals.map((flag) => flag.long),
      ...commandPaths(PROGRAM).flatMap(([, command]) => command.flags.map((flag) => flag.long)),
    ]);
    expect(longs.size).toBeGreaterThan(20);
    for (const long of longs) expect(optionKey(long), long).toBe(new Option(long).attributeName());
  });
});
