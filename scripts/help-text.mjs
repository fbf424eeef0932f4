/**
 * The argv reader's copy of the command model without its help text (scripts/bundle.mjs, for
 * dist/cli-bundle/light-argv.cjs). The reader only matches argv against names, placeholders,
 * choices and defaults; descriptions, notes, examples and shown defaults are for commander's help,
 * the completion scripts and the man page, which the full CLI and the build make from the same
 * definitions. Left in, they were about 110 of the reader's 244 distinct strings, and V8 puts
 * every string a code cache names into its string table when it reads the cache: on a cached
 * `token` in the executable, enough more to make V8 grow that table a second time (0.4 M
 * instructions in all, bench/README.md, Decisions).
 *
 * Each such property of an object literal keeps its key and gets `void 0` for its value, so the
 * objects keep their shape. The bundle must never read one of them (a property access, a computed
 * one by a literal name, or a destructuring): leaveOutHelpText throws if it does, as it does when it
 * finds nothing to leave out, which would mean the model's shape changed under it.
 */
import { parse } from 'acorn';
import { simple } from 'acorn-walk';

/** The command model's properties that only help, completion and the man page read (src/cli/command-model/types.ts). */
export const HELP_TEXT_PROPERTIES = new Set(['description', 'notes', 'examples', 'defaultShown']);

/** The property name a key names, or undefined for a computed key that is not a literal. */
function keyName(node, computed) {
  if (!computed && node.type === 'Identifier') return node.name;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  return undefined;
}

/**
 * `code` (a script, as esbuild wrote it) with the value of every help-text property of an object
 * literal replaced by `void 0`, and how many were.
 *
 * @throws Error when the code reads a help-text property, or has none to leave out.
 */
export function leaveOutHelpText(code, name = 'the bundle') {
  const ast = parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true });
  const values = [];
  const reads = [];
  simple(ast, {
    ObjectExpression(node) {
      for (const property of node.properties) {
        if (property.type !== 'Property' || property.kind !== 'init' || property.method) continue;
        if (HELP_TEXT_PROPERTIES.has(keyName(property.key, property.computed))) values.push(property.value);
      }
    },
    ObjectPattern(node) {
      for (const property of node.properties) {
        if (
          property.type === 'Property' &&
          HELP_TEXT_PROPERTIES.has(keyName(property.key, property.computed))
        )
          reads.push(property);
      }
    },
    MemberExpression(node) {
      if (HELP_TEXT_PROPERTIES.has(keyName(node.property, node.computed))) reads.push(node);
    },
  });
  if (reads.length > 0) {
    const [first] = reads;
    throw new Error(
      `${name}: reads help text the build leaves out: ${code.slice(first.start, first.end).slice(0, 80)}`,
    );
  }
  if (values.length === 0) throw new Error(`${name}: no help text found to leave out`);
  let out = '';
  let at = 0;
  let count = 0;
  for (const value of values.sort((a, b) => a.start - b.start)) {
    // One inside another's value (a described example) went with it.
    if (value.start < at) continue;
    out += `${code.slice(at, value.start)}void 0`;
    at = value.end;
    count++;
  }
  return { code: out + code.slice(at), count };
}
