/**
 * tokencli-command.ts overrides commander methods that are not in its typings (the unknown-option,
 * missing-argument, unknown-command and help-command hooks) to keep tokencli's messages. Private
 * methods may change in any release, so commander is pinned to one exact version: upgrading it
 * fails here first, and whoever upgrades re-reads those overrides against the new source.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { describe, expect, test } from 'vitest';

const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
};
const installed = (
  JSON.parse(
    readFileSync(new URL('../../../node_modules/commander/package.json', import.meta.url), 'utf8'),
  ) as {
    version: string;
  }
).version;

describe('commander is pinned for the hooks tokencli-command.ts overrides', () => {
  test('package.json names one exact version, and it is the one installed', () => {
    expect(manifest.dependencies.commander).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed).toBe(manifest.dependencies.commander);
    // The version the overrides were read against; change it only after re-reading them.
    expect(installed).toBe('14.0.3');
  });

  test('the overridden hooks exist on commander', () => {
    const prototype = Command.prototype as unknown as Record<string, unknown>;
    for (const hook of [
      'unknownOption',
      'unknownCommand',
      'missingArgument',
      '_dispatchHelpCommand',
      'parseOptions',
    ])
      expect(typeof prototype[hook]).toBe('function');
  });
});
