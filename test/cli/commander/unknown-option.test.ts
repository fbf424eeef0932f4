/** Which unknown flags look like a secret, and what is said about them. */
import { describe, expect, test } from 'vitest';
import { flagName, secretFlagMessage } from '../../../src/cli/commander/unknown-option.js';
import { commandsFor } from '../../../src/cli/output/paste-command.js';

const bare = commandsFor({});

describe('unknown options', () => {
  test('the value after = is dropped', () => {
    expect(flagName('--password=hunter2')).toBe('--password');
    expect(flagName('--x')).toBe('--x');
    expect(flagName('-p')).toBe('-p');
  });

  test.each([
    ['--password', /--password-stdin or set TOKENCLI_PASSWORD/],
    ['--PASSWORD=x', /--password-stdin/],
    ['--passwd', /--password-stdin/],
    ['--client-secret=s3cret', /--client-secret-stdin or set TOKENCLI_CLIENT_SECRET/],
    ['--client_secret', /--client-secret-stdin/],
    ['--token', /--token-stdin/],
    ['--access-token=x', /--token-stdin/],
    ['--refresh-token', /tokencli login/],
  ])('%s gets a hint', (flag, hint) => {
    const message = secretFlagMessage(flag, bare) ?? '';
    expect(message).toMatch(/^error: unknown option '--[\w-]+'\nhint: /);
    expect(message).toMatch(hint);
    expect(message).not.toMatch(/=x|s3cret/);
  });

  test.each(['--jsn', '--tokens-file', '--passwordless', '--ſecret'])('%s is not a secret flag', (flag) => {
    expect(secretFlagMessage(flag, bare)).toBeUndefined();
  });
});
