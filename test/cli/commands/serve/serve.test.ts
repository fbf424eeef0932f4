/**
 * `tokencli serve`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/serve/serve-command.ts → the typed options and operands).
 */
import { describe, expect, test } from 'vitest';
import { runChecked, testRecordedRuns } from '../record-run.js';

describe('serve: options', () => {
  testRecordedRuns([
    [['serve'], { path: 'serve', options: { host: '127.0.0.1', port: '8080' }, operands: [] }],
    [
      ['serve', '--port', '0', '--allow-host', 'a', 'b', '--control', '--config', 'service.json'],
      {
        path: 'serve',
        options: {
          host: '127.0.0.1',
          port: '0',
          allowHost: ['a', 'b'],
          control: true,
          config: 'service.json',
        },
        operands: [],
      },
    ],
    [
      ['serve', '--host', '0.0.0.0', '--control-token-stdin'],
      { path: 'serve', options: { host: '0.0.0.0', port: '8080', controlTokenStdin: true }, operands: [] },
    ],
  ]);
});

describe('serve: checks', () => {
  test('the client-only global flags are refused', async () => {
    expect(await runChecked(['serve', '--profile', 'x'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: serve does not take --profile\nhint: serve runs the service from its own flags and --config; see tokencli serve --help\n',
    });
  });
});
