/**
 * The launcher's answer to `tokencli info` (any of its flags, as light-argv.ts read them): info's
 * own run function without commander (run-light.ts), so the tokeninfo request goes through the
 * same session and HTTP code (node's HTTP client unless a proxy is set, docs/design.md), prints
 * the same table or JSON, and every refusal or failure is dropped, worded and exited with exactly
 * as by the full CLI — once: nothing is handed over after the request, so nothing is asked twice.
 */

import { run } from '../commands/info/info.js';
import { infoCommand } from '../commands/info/info-command.js';
import type { IO } from '../input/io.js';
import type { ParsedCommand } from './parse-argv.js';
import { runLight } from './run-light.js';

export function answer(parsed: ParsedCommand, io?: IO): Promise<number> {
  return runLight(parsed, run, infoCommand, io);
}
