/** Progress and warning lines written by the commands (`note`) colour their prefix as every warning does. */
import { describe, expect, test } from 'vitest';
import type { CommandContext } from '../../../src/cli/context.js';
import { note } from '../../../src/cli/output/token-output.js';
import { createTestIO } from '../../helpers/test-io.js';

const ESC = '\u001b[';

function noted(env: Record<string, string>, line: string, quiet = false): string {
  const io = createTestIO({ env });
  note({ io, globals: { quiet, color: true } } as unknown as CommandContext, line);
  return io.stderrText();
}

describe('note', () => {
  test('a warning: prefix is coloured where stderr gets colour, the text is not', () => {
    const text = noted({ FORCE_COLOR: '1' }, 'warning: the assertion is not signed');
    expect(text).toContain(ESC);
    expect(text).toMatch(/^\S*warning:\S* the assertion is not signed\n$/);
    expect(text.endsWith(' the assertion is not signed\n')).toBe(true);
  });

  test('plain where it is not, and silenced by --quiet', () => {
    expect(noted({ NO_COLOR: '1' }, 'warning: x')).toBe('warning: x\n');
    expect(noted({ FORCE_COLOR: '1' }, 'Signed in.')).toBe('Signed in.\n');
    expect(noted({ FORCE_COLOR: '1' }, 'warning: x', true)).toBe('');
  });
});
