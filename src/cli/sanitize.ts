/**
 * Text from the service (error descriptions, HTML snippets) is shown with control characters and
 * escape sequences removed (SPEC.md §2.4), so a hostile server cannot repaint the terminal.
 */

// CSI / OSC / other ESC sequences first, then any remaining C0/C1 control characters except tab.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const ESCAPES = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

export function sanitizeText(text: string): string {
  return text.replace(ESCAPES, '').replace(CONTROLS, ' ');
}
