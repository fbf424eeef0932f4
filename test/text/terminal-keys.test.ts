import { describe, expect, it } from 'vitest';
import { EscapeSequenceFilter, editHiddenLine } from '../../src/text/terminal-keys.js';

/** What the hidden prompt keeps of `chunks`, read one after another. */
function typed(...chunks: string[]): string {
  const filter = new EscapeSequenceFilter();
  let out = '';
  for (const chunk of chunks) for (const char of chunk) if (filter.accept(char)) out += char;
  return out;
}

describe('EscapeSequenceFilter', () => {
  it('drops arrow keys, Home/End, function keys and Alt+key', () => {
    expect(typed('pa\u001b[Dss\u001b[C\u001b[A\u001b[Bword')).toBe('password');
    expect(typed('a\u001bOHb\u001b[1;5Fc\u001b[15~d\u001bxe')).toBe('abcde');
  });

  it('drops a sequence split across reads', () => {
    expect(typed('se\u001b', '[', '1;2', 'Dcret')).toBe('secret');
  });

  it('drops OSC strings (BEL or ST) and the 8-bit CSI', () => {
    expect(typed('a\u001b]0;title\u0007b\u001b]52;c;eA==\u001b\\c\u009b2Jd')).toBe('abcd');
  });

  it('keeps the pasted text of a bracketed paste', () => {
    expect(typed('\u001b[200~pasted secret\u001b[201~')).toBe('pasted secret');
  });

  it('never swallows Enter or Ctrl-C, even inside an unfinished sequence', () => {
    expect(typed('a\u001b[1;\r')).toBe('a\r');
    expect(typed('a\u001b]title\u0003')).toBe('a\u0003');
    expect(typed('a\u001b\r')).toBe('a\r');
  });

  it('keeps non-ASCII text', () => {
    expect(typed('pässwörd€')).toBe('pässwörd€');
  });
});

describe('editHiddenLine', () => {
  /** The line after typing `keys`, as the hidden prompt builds it. */
  function line(keys: string): string {
    let value = '';
    for (const char of keys) value = editHiddenLine(value, char) ?? value + char;
    return value;
  }

  it('Ctrl-U clears what was typed so far', () => {
    expect(line('abc\u0015demo-password')).toBe('demo-password');
    expect(line('\u0015x')).toBe('x');
  });

  it('Ctrl-W erases the blanks before the cursor, then the word before them', () => {
    expect(line('oops typo\u0017')).toBe('oops ');
    expect(line('oops typo\u0017\u0017')).toBe('');
    expect(line('one two  \u0017three')).toBe('one three');
    expect(line('\u0017a')).toBe('a');
  });

  it('Backspace and Delete erase one character, a whole emoji included', () => {
    expect(line('ab\u007fc\bd')).toBe('ad');
    expect(line('x😀\u007f')).toBe('x');
  });

  it('leaves every other character to be typed', () => {
    expect(editHiddenLine('a', 'b')).toBeUndefined();
  });
});
