/**
 * Text from outside (the service's error descriptions, HTML snippets, echoed request values) is
 * shown with control characters and escape sequences removed (docs/contract.md §2.4), so a hostile peer
 * cannot repaint the terminal that prints it. The one home of these patterns, shared by the CLI,
 * the client and the local service.
 */

// 8-bit CSI (U+009B) with its parameters, then ESC-introduced CSI / OSC / other sequences.
const ESCAPES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /\u009b[0-?]*[ -/]*[@-~]|\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS_BUT_TAB = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/** Whole escape sequences (CSI, OSC, other ESC) removed, then other C0/C1 controls but tab → space. */
export function sanitizeText(text: string): string {
  return text.replace(ESCAPES, '').replace(CONTROLS_BUT_TAB, ' ');
}

/** Every C0 and C1 control character (tab included) replaced by `replacement`. */
export function removeControlCharacters(text: string, replacement = ''): string {
  return text.replace(CONTROLS, replacement);
}
