import { describe, expect, it } from 'vitest';
import { blocksAsSentences, shortenText } from '../../src/text/shorten.js';

describe('shortenText', () => {
  it('leaves text that fits as it is', () => {
    expect(shortenText('Short. Enough.', 14)).toBe('Short. Enough.');
  });

  it('cuts at the last sentence end that fits, without a mark', () => {
    expect(shortenText('First sentence here. Second one is "quoted." Third goes past.', 50)).toBe(
      'First sentence here. Second one is "quoted."',
    );
  });

  it('cuts at a word end, marked with …, when no sentence end fits in the later half', () => {
    const cut = shortenText('Hi. This sentence goes on and on without an end in sight', 30);
    expect(cut).toBe('Hi. This sentence goes on and…');
    expect(cut.length).toBeLessThanOrEqual(30);
  });

  it('cuts inside a word only when one word is longer than the limit', () => {
    expect(shortenText('a'.repeat(50), 10)).toBe(`${'a'.repeat(9)}…`);
  });
});

describe('blocksAsSentences', () => {
  it('ends every block but the last as a sentence, collapsing white space, dropping empty ones', () => {
    expect(blocksAsSentences(['Cannot sign in', '  ', 'No app.\n', 'Why:', 'footer'])).toBe(
      'Cannot sign in. No app. Why: footer',
    );
  });
});
