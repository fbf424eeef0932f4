/**
 * Terminal key input with escape sequences taken out, for the hidden prompt: arrow keys, Home,
 * End, function keys and Alt+key arrive as escape sequences (ECMA-48 §5.4: ESC [ parameters,
 * intermediates, final byte; ESC O x; ESC ] … BEL or ESC \ for OSC and other strings) and must
 * not end up in a password. A sequence may be split across reads, so the filter keeps its state
 * between chunks. Bracketed-paste markers (ESC [200~ … ESC [201~) are sequences too; the pasted
 * text between them is kept.
 */
type State = 'text' | 'escape' | 'csi' | 'ss3' | 'string' | 'string-escape';

export class EscapeSequenceFilter {
  #state: State = 'text';

  /** Whether `char` is typed text (true) or part of an escape sequence (false, dropped). */
  accept(char: string): boolean {
    const code = char.codePointAt(0) ?? 0;
    // A control character (Enter, Ctrl-C, Ctrl-D, …) is never swallowed by an unfinished sequence:
    // it ends the sequence and counts as typed, so the prompt can always be left.
    const endsString = this.#state === 'string' && char === '\u0007';
    if (this.#state !== 'text' && code < 0x20 && char !== '\u001b' && !endsString) {
      this.#state = 'text';
      return true;
    }
    switch (this.#state) {
      case 'text':
        if (char === '\u001b') {
          this.#state = 'escape';
          return false;
        }
        if (code === 0x9b) {
          this.#state = 'csi'; // the 8-bit CSI
          return false;
        }
        return true;
      case 'escape':
        if (char === '[') this.#state = 'csi';
        else if (char === 'O') this.#state = 'ss3';
        else if (char === ']' || char === 'P' || char === 'X' || char === '^' || char === '_') {
          this.#state = 'string';
        } else this.#state = 'text'; // ESC x: Alt+x, or a lone two-character sequence
        return false;
      case 'csi':
        if (char === '\u001b') {
          this.#state = 'escape'; // a new sequence cuts this one short
          return false;
        }
        // Parameters 0x30–0x3F and intermediates 0x20–0x2F go on; a final byte 0x40–0x7E ends it.
        if (code >= 0x40 && code <= 0x7e) this.#state = 'text';
        else if (code > 0x7e) this.#state = 'text'; // not a sequence after all
        return false;
      case 'ss3':
        this.#state = 'text';
        return false;
      case 'string':
        if (char === '\u0007') this.#state = 'text';
        else if (char === '\u001b') this.#state = 'string-escape';
        return false;
      case 'string-escape':
        this.#state = char === '\\' ? 'text' : 'string';
        return false;
    }
  }
}

/** Ctrl-U: erase the whole line (the terminal's KILL character). */
const KILL_LINE = '\u0015';
/** Ctrl-W: erase the word before the cursor (WERASE). */
const ERASE_WORD = '\u0017';

/**
 * Applies one typed character to the hidden line as the terminal's own line editing does for
 * sudo and ssh (termios KILL, WERASE, ERASE): Ctrl-U clears it, Ctrl-W erases the blanks before
 * the cursor and then the word before them, Backspace or Delete erases one character (a whole
 * code point, never half of a surrogate pair). Returns undefined for any other character.
 */
export function editHiddenLine(line: string, char: string): string | undefined {
  if (char === KILL_LINE) return '';
  if (char === ERASE_WORD) {
    let end = line.length;
    while (end > 0 && /\s/.test(line.charAt(end - 1))) end--;
    while (end > 0 && !/\s/.test(line.charAt(end - 1))) end--;
    return line.slice(0, end);
  }
  if (char === '\u007f' || char === '\b') return Array.from(line).slice(0, -1).join('');
  return undefined;
}
