/**
 * The `error:`, `warning:` and `hint:` that start stderr lines, coloured where stderr shows
 * colour (colorEnabled in io.ts decides, by the rules `info` follows: docs/contract.md §2.6).
 * Only the prefix is coloured, and only on stderr: stdout (a token, a JSON document) never is.
 *
 * Painted with node's `util.styleText`, loaded only when a prefix is coloured: the lines are
 * written synchronously where they are said (a warning in the middle of a run), and chalk, being
 * an ES module, could only be loaded asynchronously, after later lines. `validateStream: false`
 * leaves the decision to colorEnabled (node ≥ 22.13 would otherwise look at process.stderr).
 */
import type { CommandContext } from '../context.js';
import { colorEnabled, type IO } from '../input/io.js';

type Style = 'red' | 'yellow' | 'cyan' | 'bold';

const STYLES: Record<string, Style[]> = {
  error: ['bold', 'red'],
  warning: ['bold', 'yellow'],
  hint: ['cyan'],
};

const PREFIX = /^(error|warning|hint):/gm;

/** Whether this run's stderr gets colour: `--no-color` given, or not. */
export function stderrColor(io: IO, noColorFlag: boolean): boolean {
  return colorEnabled(io, 'stderr', noColorFlag);
}

/** `text` with the prefix of each of its lines coloured when `color` says so. */
export function paintPrefixes(text: string, color: boolean): string {
  if (!color || !/^(error|warning|hint):/m.test(text)) return text;
  const { styleText } = process.getBuiltinModule('node:util');
  return text.replace(PREFIX, (prefix: string, kind: string) =>
    styleText(STYLES[kind] ?? [], prefix, { validateStream: false }),
  );
}

/** Writes `text` (whole lines) on the command's stderr, its prefixes coloured where they can be. */
export function writeStderr(ctx: Pick<CommandContext, 'io' | 'globals'>, text: string): void {
  ctx.io.stderr.write(paintPrefixes(text, stderrColor(ctx.io, ctx.globals.color === false)));
}

/** A line that `--quiet` silences (a warning, a hint after success), prefix coloured. */
export function noteLine(ctx: Pick<CommandContext, 'io' | 'globals'>, line: string): void {
  if (!ctx.globals.quiet) writeStderr(ctx, `${line}\n`);
}

/**
 * The line an interrupted run ends with. A terminal echoed "^C" where the cursor was (ECHOCTL), so
 * there it starts on a line of its own.
 */
export function interruptedLine(io: IO): string {
  return `${io.stderrIsTTY ? '\n' : ''}error: interrupted\n`;
}
