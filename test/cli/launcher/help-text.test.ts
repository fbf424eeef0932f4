/**
 * The argv reader's bundle leaves out the command model's help text (scripts/help-text.mjs, run by
 * scripts/bundle.mjs): the built light-argv.cjs holds every name it matches argv against and none of
 * the descriptions, notes or examples; and the step refuses a bundle that would read what it takes
 * out, or that has nothing to take out.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { HELP_TEXT_PROPERTIES, leaveOutHelpText } from '../../../scripts/help-text.mjs';
import { PROGRAM } from '../../../src/cli/command-model/program.js';
import type { CommandDef } from '../../../src/cli/command-model/types.js';

const LIGHT_ARGV = resolve(import.meta.dirname, '../../../dist/cli-bundle/light-argv.cjs');

/** A string as esbuild writes it in the bundle (JSON's escapes, ASCII only: scripts/bundle.mjs). */
const literal = (text: string) =>
  JSON.stringify(text).replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Every command of the model, groups (`profile`) and their subcommands included. */
function allCommands(commands: readonly CommandDef[] = PROGRAM.commands): CommandDef[] {
  return commands.flatMap((command) => [command, ...allCommands(command.subcommands ?? [])]);
}

describe('the built light-argv.cjs', () => {
  const bundle = readFileSync(LIGHT_ARGV, 'utf8');
  const commands = allCommands();

  test('keeps what argv is matched against: names, flags, placeholders, choices', () => {
    for (const command of commands) {
      expect(bundle).toContain(literal(command.name));
      for (const flag of command.flags) {
        expect(bundle).toContain(literal(flag.long));
        if (flag.value) expect(bundle).toContain(literal(flag.value));
        for (const choice of flag.choices ?? []) expect(bundle).toContain(literal(choice));
      }
    }
    for (const flag of PROGRAM.globals) expect(bundle).toContain(literal(flag.long));
  });

  test('holds no description, note or example of any command, flag or argument', () => {
    const texts = [PROGRAM.description, ...PROGRAM.examples];
    for (const flag of PROGRAM.globals) if (flag.description) texts.push(flag.description);
    for (const command of commands) {
      texts.push(command.description, ...(command.examples ?? []));
      if (command.notes) texts.push(command.notes);
      for (const flag of command.flags) if (flag.description) texts.push(flag.description);
      for (const argument of command.arguments ?? []) texts.push(argument.description);
    }
    expect(texts.length).toBeGreaterThan(50);
    const kept = texts.filter((text) => bundle.includes(literal(text)));
    expect(kept).toEqual([]);
  });
});

describe('leaveOutHelpText', () => {
  test('replaces each help-text value, keeping the key, and counts them', () => {
    const code = [
      'var flag = { long: "--min-ttl", value: "<seconds>", description: "at least " + "this long", defaultShown: `0` };',
      'var command = { name: "token", flags: [flag], notes: "n", examples: ["tokencli token", { description: "x" }] };',
      'var other = { "description": 1 };',
    ].join('\n');
    const result = leaveOutHelpText(code);
    expect(result.code).toBe(
      [
        'var flag = { long: "--min-ttl", value: "<seconds>", description: void 0, defaultShown: void 0 };',
        'var command = { name: "token", flags: [flag], notes: void 0, examples: void 0 };',
        'var other = { "description": void 0 };',
      ].join('\n'),
    );
    expect(result.count).toBe(5);
  });

  test('names the properties the command model keeps its help text in', () => {
    expect([...HELP_TEXT_PROPERTIES].sort()).toEqual(['defaultShown', 'description', 'examples', 'notes']);
  });

  test.each([
    ['a property read', 'var f = { description: "d" }; console.log(f.description);'],
    ['a computed read by name', 'var f = { notes: "d" }; console.log(f["notes"]);'],
    ['a destructuring', 'var f = { examples: [] }; var { examples } = f;'],
  ])('refuses a bundle with %s of what it leaves out', (_, code) => {
    expect(() => leaveOutHelpText(code, 'light-argv.cjs')).toThrow(
      /^light-argv\.cjs: reads help text the build leaves out: /,
    );
  });

  test('refuses a bundle with no help text to leave out (the model changed under it)', () => {
    expect(() => leaveOutHelpText('var f = { long: "--x" };', 'light-argv.cjs')).toThrow(
      'light-argv.cjs: no help text found to leave out',
    );
  });
});
