/**
 * The launcher's functions that every light run calls are compiled with the script (bin/tokencli.js
 * says why: the executable's code cache of its main script is made before it runs, and holds only
 * what was compiled then). They are parenthesised function expressions, which V8 compiles eagerly;
 * the formatter would drop the parentheses without its `biome-ignore format` comments. V8's own
 * log of function events says which functions were compiled only when first called: none may be.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { demoEnv } from '../../e2e/env.js';
import { BIN, cleanEnv, runCli, tempDir } from '../../helpers/cli.js';
import { serveForFile } from '../../helpers/serve.js';

const serve = serveForFile();

/** Runs `node bin/tokencli.js ARGS` with V8's function events logged; returns them and the run's output. */
function runLogged(args: string[], env: Record<string, string>) {
  const dir = tempDir('tokencli-eager-');
  const log = join(dir, 'v8.log');
  // The cache home under TMPDIR: the launcher keeps no code cache there, so each run compiles.
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  const run = spawnSync(
    process.execPath,
    ['--log-function-events', `--logfile=${log}`, '--no-logfile-per-isolate', BIN, ...args],
    {
      env: cleanEnv({ ...env, TMPDIR: tmp, XDG_CACHE_HOME: join(tmp, 'cache') }),
      encoding: 'utf8',
    },
  );
  return { run, events: readFileSync(log, 'utf8').split('\n') };
}

/**
 * The launcher's functions by when V8 compiled them: with the script (a full parse as it is
 * compiled), or when first called. Both are logged as they happen; V8 logs first executions only
 * at its teardown, which a run that leaves with process.exit (most do) skips on Node 24 and later.
 */
function launcherFunctions(events: string[]) {
  const script = events
    .map((line) => line.split(','))
    .find(([kind, , path]) => kind === 'script-details' && path === BIN)?.[1];
  expect(script, 'the log names the launcher script').toBeDefined();
  const named = (event: string) =>
    events
      .map((line) => line.split(','))
      .filter(([kind, what, id]) => kind === 'function' && what === event && id === script)
      .map((fields) => fields.at(-1));
  return { withScript: named('full-parse'), onFirstCall: named('parse-function') };
}

/** The functions every light run calls (bin/tokencli.js). */
const EVERY_RUN = [
  'userCacheDir',
  'temporaryDir',
  'lazyRequire',
  'require',
  'get',
  'parseCacheFile',
  'loadLight',
  'saveCodeCaches',
  'launch',
];

describe('the launcher’s functions are compiled with the script', () => {
  test('--version', () => {
    const { run, events } = runLogged(['--version'], {});
    expect(run.status).toBe(0);
    const { withScript, onFirstCall } = launcherFunctions(events);
    expect(withScript).toEqual(expect.arrayContaining(EVERY_RUN));
    expect(onFirstCall).toEqual([]);
  });

  test('a cached token, the light answer scripts run most', async () => {
    const env = demoEnv(serve.baseUrl);
    expect((await runCli(['token'], { env })).code).toBe(0);
    const { run, events } = runLogged(['token'], env);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^\S+\n$/);
    const { withScript, onFirstCall } = launcherFunctions(events);
    expect(withScript).toEqual(expect.arrayContaining(EVERY_RUN));
    expect(onFirstCall).toEqual([]);
  });
});
