/**
 * The `error:`, `warning:` and `hint:` prefixes are coloured where stderr shows colour, by the
 * rules `info` follows (docs/contract.md §2.6): a terminal that is not `TERM=dumb`, or FORCE_COLOR;
 * never with NO_COLOR or `--no-color`. Only the prefix is coloured; the token on stdout never is.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { serveForFile } from '../helpers/serve.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { hasScript, onTerminal } from '../helpers/terminal.js';
import { demoEnv } from './env.js';

const serve = serveForFile();
afterAll(removeTempDirs);

const ESC = '\u001b[';
/** `text` in SGR codes, as node's styleText writes it. */
const sgr = (open: number[], text: string, close: number[]) =>
  `${open.map((n) => `${ESC}${n}m`).join('')}${text}${close.map((n) => `${ESC}${n}m`).join('')}`;
const RED_ERROR = `${sgr([1, 31], 'error:', [39, 22])} not logged in`;
const plain = (text: string) =>
  text
    .split(ESC)
    .map((part, i) => (i === 0 ? part : part.replace(/^\d+m/, '')))
    .join('');
const notLoggedIn = (extra: Record<string, string> = {}) => ({
  TOKENCLI_CONFIG_DIR: tempDir('tokencli-color-'),
  TOKENCLI_BASE_URL: 'http://127.0.0.1:9',
  TOKENCLI_CLIENT_ID: 'c',
  TOKENCLI_STORE: 'file',
  ...extra,
});

describe('off a terminal', () => {
  test('plain by default', async () => {
    const r = await runCli(['token'], { env: notLoggedIn() });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: not logged in/m);
    expect(r.stderr).toMatch(/^hint: /m);
    expect(r.stderr).not.toContain(ESC);
  });

  test('FORCE_COLOR colours the prefixes, and only them', async () => {
    const r = await runCli(['token'], { env: notLoggedIn({ FORCE_COLOR: '1' }) });
    expect(r.stderr).toContain(RED_ERROR);
    expect(r.stderr).toContain(`${sgr([36], 'hint:', [39])} run `);
    expect(plain(r.stderr)).toMatch(/^error: not logged in.*\nhint: run /m);
  });

  test('NO_COLOR and --no-color win over FORCE_COLOR', async () => {
    const noColor = await runCli(['token'], { env: notLoggedIn({ FORCE_COLOR: '1', NO_COLOR: '1' }) });
    expect(noColor.stderr).toMatch(/^error: not logged in/m);
    expect(noColor.stderr).not.toContain(ESC);
    const flag = await runCli(['--no-color', 'token'], { env: notLoggedIn({ FORCE_COLOR: '1' }) });
    expect(flag.stderr).toMatch(/^error: not logged in/m);
    expect(flag.stderr).not.toContain(ESC);
  });

  test('a warning is coloured too; the token on stdout never is', async () => {
    const env = { ...demoEnv(serve.baseUrl), FORCE_COLOR: '1' };
    const r = await runCli(['token', '--min-ttl', '7200'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${sgr([1, 33], 'warning:', [39, 22])} --min-ttl`);
    expect(r.stdout).not.toContain(ESC);
    const cached = await runCli(['token'], { env });
    expect(cached.stdout).toBe(r.stdout);
    expect(cached.stdout).not.toContain(ESC);
  });
});

describe.skipIf(!hasScript)(
  `on a terminal${hasScript ? '' : ' (skipped: `script` is not installed)'}`,
  () => {
    test('coloured by default, plain on TERM=dumb', async () => {
      const colour = await onTerminal(['token'], notLoggedIn({ TERM: 'xterm-256color' }));
      expect(colour.code).toBe(4);
      expect(colour.output).toContain(RED_ERROR);
      const dumb = await onTerminal(['token'], notLoggedIn({ TERM: 'dumb' }));
      expect(dumb.output).toMatch(/error: not logged in/);
      expect(dumb.output).not.toContain(ESC);
    });
  },
);
