/**
 * `tokencli info`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/info/info-command.ts → the typed options and operands).
 */
import { describe } from 'vitest';
import { testRecordedRuns } from '../record-run.js';

describe('info: options', () => {
  testRecordedRuns([
    [['info'], { path: 'info', options: {}, operands: [] }],
    [
      ['info', '--json', '--show-tokens', '--token-stdin'],
      { path: 'info', options: { json: true, showTokens: true, tokenStdin: true }, operands: [] },
    ],
    [
      ['info', '--base-url', 'http://127.0.0.1:1'],
      { path: 'info', options: {}, operands: [], globals: { baseUrl: 'http://127.0.0.1:1' } },
    ],
  ]);
});
