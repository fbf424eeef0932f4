/**
 * Help that helps: `help` and `help CMD` succeed, each command's help lists the global flags it
 * honours, defaults show as values, and every example printed in help parses with the real
 * program. Unknown options keep commander's "did you mean"; secret-looking ones get a hint and
 * their value is never echoed.
 */
import { describe, expect, test } from 'vitest';
import { buildProgram } from '../../src/cli/commander/build-program.js';
import { runCli } from '../helpers/cli.js';

const COMMANDS = [
  'configure',
  'login',
  'token',
  'exec',
  'refresh',
  'sso',
  'info',
  'status',
  'logout',
  'serve',
  'completion',
];

/** Shell words of the `tokencli …` invocations in one example line (quotes honoured). */
function invocations(line: string): string[][] {
  const found: string[][] = [];
  for (let at = line.indexOf('tokencli '); at !== -1; at = line.indexOf('tokencli ', at + 1)) {
    if (at > 0 && /[\w/-]/.test(line[at - 1] ?? '')) continue;
    const words: string[] = [];
    let word: string | undefined;
    let quote: string | undefined;
    for (const char of line.slice(at)) {
      if (quote) {
        if (char === quote) quote = undefined;
        else word = (word ?? '') + char;
      } else if (char === "'" || char === '"') {
        quote = char;
        word ??= '';
      } else if (/[|><);&#]/.test(char)) {
        break;
      } else if (char === ' ') {
        if (word !== undefined) words.push(word);
        word = undefined;
      } else word = (word ?? '') + char;
    }
    if (word !== undefined) words.push(word);
    found.push(words.slice(1));
  }
  return found;
}

class Parsed extends Error {}

/** Parses argv with the real program; actions are stopped before they run (no I/O happens). */
async function parses(argv: string[]): Promise<string | undefined> {
  let errors = '';
  const program = buildProgram(
    () => {
      throw new Parsed();
    },
    {
      writeOut: () => {},
      writeErr: (s) => {
        errors += s;
      },
    },
  );
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 'the action did not run';
  } catch (error) {
    if (error instanceof Parsed) return undefined;
    return errors || String(error);
  }
}

describe('help', () => {
  test('`help` and `help CMD` print help on stdout and exit 0', async () => {
    const root = await runCli(['help']);
    expect(root).toMatchObject({ code: 0, stderr: '' });
    expect(root.stdout).toMatch(/^Usage: tokencli/);
    for (const command of ['token', 'exec', 'configure']) {
      const r = await runCli(['help', command]);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toMatch(new RegExp(`^Usage: tokencli ${command}`));
    }
    // No command at all is still a usage error.
    expect((await runCli([])).code).toBe(2);
  });

  test('`help` of an unknown command says so, with "did you mean"', async () => {
    const r = await runCli(['help', 'tokn']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: unknown command 'tokn'\n\(Did you mean token\?\)/);
  });

  test('an unknown command is echoed without its escape sequences', async () => {
    const r = await runCli(['\u001b]0;owned\u0007tokn']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: unknown command/m);
    expect(r.stderr).not.toContain('\u001b');
  });

  test.each(COMMANDS)(
    '`%s --help` lists the global flags it honours, defaults as values',
    async (command) => {
      const r = await runCli([command, '--help']);
      expect(r.code).toBe(0);
      const globals = r.stdout.split('Global Options:')[1]?.split('Examples:')[0] ?? '';
      const honoured = ['serve', 'completion'].includes(command)
        ? ['--verbose']
        : ['--profile', '--base-url', '--client-id', '--store', '--timeout', '--ca-file', '--verbose'];
      for (const flag of honoured) expect(globals).toContain(flag);
      if (command === 'serve') expect(globals).not.toMatch(/--profile|--store|--base-url/);
      expect(r.stdout).not.toMatch(/default: "/);
      expect(r.stdout).not.toMatch(/choices: "/);
    },
  );

  test.each([
    [['serve', '--profile', 'x'], 'serve does not take --profile'],
    [['--base-url', 'https://x.example', 'serve', '--port', '0'], 'serve does not take --base-url'],
    [['--store=file', 'serve', '--no-color', '--quiet'], 'serve does not take --store, --quiet, --no-color'],
    [['completion', 'bash', '--profile', 'ci'], 'completion does not take --profile'],
  ])('%j: client-only global flags are refused as a usage error', async (args, message) => {
    const r = await runCli(args);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(new RegExp(`^error: ${message}\nhint: .*--help\n$`));
  });

  test('defaults read as the values one would type', async () => {
    const help = async (command: string) => (await runCli([command, '--help'])).stdout.replace(/\s+/g, ' ');
    expect(await help('login')).toMatch(/--timeout-login <seconds> [^(]*\(default: 300\)/);
    expect(await help('token')).toMatch(/\(choices: token, header, json, env; default: token\)/);
    expect(await help('token')).toMatch(/--min-ttl <seconds> [^(]*\(default: 60\)/);
    expect(await help('completion')).toMatch(/\(choices: bash, zsh, fish\)/);
  });

  test('the example parser finds tokencli invocations inside pipes and substitutions', () => {
    expect(invocations('curl -H "Authorization: Bearer $(tokencli token)" https://x/…')).toEqual([['token']]);
    expect(invocations('printf %s "$S" | tokencli configure --client-id "my app" --x')).toEqual([
      ['configure', '--client-id', 'my app', '--x'],
    ]);
    expect(invocations('source <(tokencli completion bash)')).toEqual([['completion', 'bash']]);
  });

  test('every example in every help parses with the real program', async () => {
    const helps = await Promise.all(
      [[], ...COMMANDS.map((c) => [c])].map((args) => runCli([...args, '--help'])),
    );
    let checked = 0;
    for (const help of helps) {
      const section = help.stdout.split('\nExamples:\n')[1];
      expect(section, help.stdout).toBeDefined();
      for (const line of (section ?? '').split('\n').filter((l) => l.trim() !== '')) {
        for (const argv of invocations(line)) {
          expect(await parses(argv), `${line}\n→ ${JSON.stringify(argv)}`).toBeUndefined();
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  test('the parse check catches a broken example', async () => {
    expect(await parses(['token', '--no-such-flag'])).toMatch(/unknown option/);
    expect(await parses(['--store', 'vault', 'token'])).toMatch(/vault/);
    expect(await parses(['token'])).toBeUndefined();
  });
});

describe('unknown options', () => {
  test.each([
    [['token', '--password', 'hunter2'], /--password-stdin.*TOKENCLI_PASSWORD/],
    [['token', '--password=hunter2'], /--password-stdin.*TOKENCLI_PASSWORD/],
    [['--Password=hunter2', 'token'], /--password-stdin.*TOKENCLI_PASSWORD/],
    [['configure', '--client-secret=hunter2'], /--client-secret-stdin.*TOKENCLI_CLIENT_SECRET/],
    [['configure', '--client-secret', 'hunter2'], /--client-secret-stdin.*TOKENCLI_CLIENT_SECRET/],
    [['info', '--token=hunter2'], /--token-stdin/],
    [['refresh', '--refresh-token', 'hunter2'], /tokencli login/],
  ])('%j: a hint naming the safe way, the value never echoed', async (args, hint) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: unknown option '--[\w-]+'$/m);
    expect(r.stderr).toMatch(/^hint: .*never taken as flag values/m);
    expect(r.stderr).toMatch(hint);
    expect(r.stderr).not.toContain('hunter2');
  });

  test('other unknown options keep "did you mean", without echoing an =value', async () => {
    const r = await runCli(['token', '--jsn=hunter2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--jsn'/);
    expect(r.stderr).toMatch(/Did you mean --json\?/);
    expect(r.stderr).not.toContain('hunter2');
  });

  test.each([
    [['token', '--password-stdin=hunter2'], /^hint: .*pipe the value in on stdin/m],
    [['serve', '--control', '--control-token-stdin=hunter2hunter2hunter2'], /^hint: .*stdin/m],
    [['token', '--force=hunter2'], /^hint: give --force alone/m],
    [['--verbose=hunter2', 'token'], /^hint: give --verbose alone/m],
  ])('%j: a known flag given a value says it takes none, the value never echoed', async (args, hint) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: option '--[\w-]+' takes no value$/m);
    expect(r.stderr).toMatch(hint);
    expect(r.stderr).not.toMatch(/unknown option|Did you mean/);
    expect(r.stderr).not.toContain('hunter2');
  });

  test('escape sequences in an unknown option are not echoed', async () => {
    const r = await runCli(['token', '--x\u001b]0;owned\u0007']);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('\u001b');
  });
});
