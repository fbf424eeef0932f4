import { describe, expect, it } from 'vitest';
import { interpretCallback } from '../../src/login/callback-params.js';

describe('interpretCallback: error text from the redirect', () => {
  it('cuts a long error_description at a sentence end, not inside a word', () => {
    const sentence = 'The request was refused because the application is not allowed to ask for this. ';
    const params = new URLSearchParams({
      state: 's',
      error: 'invalid_scope',
      error_description: sentence.repeat(10),
    });
    const outcome = interpretCallback(params, 's');
    if (outcome.kind !== 'error') throw new Error(`expected an error, got ${outcome.kind}`);
    expect(outcome.description).toBe(`invalid_scope: ${sentence.repeat(3).trim()}`);
  });
});
