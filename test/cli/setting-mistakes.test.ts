/**
 * Two settings mistakes the CLI names instead of guessing: `--profile ""` (an unset shell
 * variable) is a usage error, not the default profile; `--base-url localhost:8080` (a host where
 * the scheme goes) gets the URL that was meant as its hint. Both before any store or network.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { tempDir } from '../helpers/cli.js';
import { createTestIO } from '../helpers/test-io.js';

async function run(args: string[]) {
  const io = createTestIO({ env: { TOKENCLI_CONFIG_DIR: tempDir('tokencli-setting-mistakes-') } });
  const code = await main(args, io);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

describe('setting mistakes', () => {
  it('--profile "" is a usage error', async () => {
    const result = await run(['--profile', '', 'token', '--client-id', 'c']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      'error: --profile: the profile name is empty\nhint: give a profile name, or leave out --profile for the active (or default) profile\n',
    );
  });

  it('--base-url localhost:8080 is told to say http://localhost:8080', async () => {
    const result = await run(['token', '--base-url', 'localhost:8080', '--client-id', 'c']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      'error: --base-url: unsupported scheme localhost:\nhint: a URL starts with its scheme: use http://localhost:8080\n',
    );
  });

  it('a remote host where the scheme goes is told https://', async () => {
    const result = await run(['token', '--base-url', 'api.example.com:443', '--client-id', 'c']);
    expect(result.stderr).toContain('hint: a URL starts with its scheme: use https://api.example.com:443\n');
  });
});
