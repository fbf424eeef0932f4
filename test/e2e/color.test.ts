/**
 * Colours (docs/contract.md §2.6): only on a terminal unless FORCE_COLOR asks for them, never on a
 * `TERM=dumb` terminal unless FORCE_COLOR asks, and never with NO_COLOR or --no-color, which win
 * over FORCE_COLOR. The `info` table is the coloured output.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, type ServeHandle, startServe, tempDir } from '../helpers/cli.js';
import { hasScript, onTerminal } from '../helpers/terminal.js';
import { demoEnv } from './env.js';

let serve: ServeHandle;
let configDir: string;
beforeAll(async () => {
  serve = await startServe();
  configDir = tempDir();
  expect((await runCli(['token'], { env: demoEnv(serve.baseUrl, configDir) })).code).toBe(0);
});
afterAll(async () => {
  await serve?.stop();
  rmSync(configDir, { recursive: true, force: true });
});

const ESC = '\u001b[';

async function info(extra: Record<string, string>, args: string[] = []) {
  const r = await runCli([...args, 'info'], { env: { ...demoEnv(serve.baseUrl, configDir), ...extra } });
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/approved/);
  return r.stdout;
}

describe('colours in piped output', () => {
  test('none by default when stdout is not a terminal', async () => {
    expect(await info({})).not.toContain(ESC);
  });

  test.each(['1', '2', '3', '', 'true'])('FORCE_COLOR=%j turns them on', async (value) => {
    expect(await info({ FORCE_COLOR: value })).toContain(ESC);
  });

  test.each(['0', 'false'])('FORCE_COLOR=%j keeps them off', async (value) => {
    expect(await info({ FORCE_COLOR: value })).not.toContain(ESC);
  });

  test('NO_COLOR and --no-color win over FORCE_COLOR', async () => {
    expect(await info({ FORCE_COLOR: '1', NO_COLOR: '1' })).not.toContain(ESC);
    expect(await info({ FORCE_COLOR: '1' }, ['--no-color'])).not.toContain(ESC);
  });
});

/** `info` with stdout on a pseudo-terminal; resolves with all it printed. */
async function infoOnTerminal(extra: Record<string, string | undefined>): Promise<string> {
  const r = await onTerminal(['info'], { ...demoEnv(serve.baseUrl, configDir), ...extra });
  expect(r.code, r.output).toBe(0);
  expect(r.output).toMatch(/approved/);
  return r.output;
}

describe.skipIf(!hasScript)(
  `colours on a terminal${hasScript ? '' : ' (skipped: `script` is not installed)'}`,
  () => {
    test('on by default on a terminal', async () => {
      expect(await infoOnTerminal({ TERM: 'xterm-256color' })).toContain(ESC);
    });

    test('none on a terminal that says TERM=dumb, unless FORCE_COLOR asks', async () => {
      expect(await infoOnTerminal({ TERM: 'dumb' })).not.toContain(ESC);
      expect(await infoOnTerminal({ TERM: 'dumb', FORCE_COLOR: '1' })).toContain(ESC);
    });
  },
);
