import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { isSafeToOpen, openBrowser } from '../../src/login/open-browser.js';
import { tempDir } from '../helpers/temp-dirs.js';

const dir = tempDir('tokencli-browser-');

/**
 * Windows runs no script by its `#!` line, and a BROWSER program is run without a shell: there
 * the tests that run fakeBrowser's program skip.
 */
const scriptsRun = process.platform !== 'win32';

/** A BROWSER program that records its arguments as JSON, then exits with `status`. */
function fakeBrowser(name: string, status = 0): { program: string; record: string } {
  const record = join(dir, `${name}.json`);
  const program = join(dir, name);
  writeFileSync(
    program,
    // Written under another name, then renamed: the test polls for the record, which must never
    // be seen created but not yet written.
    `#!${process.execPath}\nconst fs = require('node:fs');\nfs.writeFileSync(${JSON.stringify(`${record}.part`)}, JSON.stringify(process.argv.slice(2)));\nfs.renameSync(${JSON.stringify(`${record}.part`)}, ${JSON.stringify(record)});\nprocess.exit(${status});\n`,
  );
  chmodSync(program, 0o755);
  return { program, record };
}

async function waitForFile(path: string): Promise<string> {
  for (let i = 0; i < 200 && !existsSync(path); i++) await new Promise((r) => setTimeout(r, 50));
  return readFileSync(path, 'utf8');
}

function collect() {
  const lines: string[] = [];
  let notify: () => void = () => {};
  const next = new Promise<void>((r) => {
    notify = r;
  });
  return {
    lines,
    next,
    warn: (line: string) => {
      lines.push(line);
      notify();
    },
  };
}

describe('isSafeToOpen', () => {
  test.each([
    ['https://api.example.com/v2/oauth/authorize?x=1', true],
    ['http://127.0.0.1:8080/v2/oauth/authorize', true],
    ['http://[::1]:8080/', true],
    ['http://localhost:8080/', true],
    ['http://api.example.com/', false],
    ['http://127.0.0.1.evil.example/', false],
    ['https://user:pw@api.example.com/', false],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['--help', false],
    ['not a url', false],
  ])('%s → %s', (url, safe) => {
    expect(isSafeToOpen(url)).toBe(safe);
  });
});

describe('openBrowser', () => {
  test.runIf(scriptsRun)(
    'BROWSER is run without a shell, with the URL as its one argument (skipped on Windows: the fake browser is a #! script)',
    async () => {
      const { program, record } = fakeBrowser('records');
      const url = 'https://api.example.com/v2/oauth/authorize?a=$(touch /tmp/x)&b=`id`;c|d';
      const { lines, warn } = collect();
      expect(await openBrowser(url, { env: { BROWSER: program }, warn })).toBe(true);
      expect(JSON.parse(await waitForFile(record))).toEqual([url]);
      expect(lines).toEqual([]);
    },
  );

  test.runIf(scriptsRun)(
    'a BROWSER that exits non-zero is reported, not fatal (skipped on Windows: the fake browser is a #! script)',
    async () => {
      const { program } = fakeBrowser('fails', 3);
      const { lines, next, warn } = collect();
      expect(await openBrowser('https://a.example/', { env: { BROWSER: program }, warn })).toBe(true);
      await next;
      expect(lines).toEqual([
        `could not open BROWSER (${program}) (it exited with status 3); open the URL yourself`,
      ]);
    },
  );

  test('a BROWSER that does not exist is reported', async () => {
    const program = join(dir, 'missing-browser');
    const { lines, warn } = collect();
    expect(await openBrowser('https://a.example/', { env: { BROWSER: program }, warn })).toBe(false);
    expect(lines).toEqual([
      `could not open BROWSER (${program}): the program was not found; open the URL yourself`,
    ]);
  });

  test('an unsafe URL is never handed to a program', async () => {
    const { program, record } = fakeBrowser('never');
    const { lines, warn } = collect();
    expect(await openBrowser('http://evil.example/', { env: { BROWSER: program }, warn })).toBe(false);
    expect(lines).toEqual(['not opening a browser for a URL that is neither https:// nor loopback http://']);
    await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(record)).toBe(false);
  });

  test('Linux without a display: says so and starts nothing', async () => {
    const launched: string[] = [];
    const { lines, warn } = collect();
    const opened = await openBrowser('https://a.example/', {
      env: {},
      platform: 'linux',
      warn,
      launch: async (url) => {
        launched.push(url);
        throw new Error('must not be called');
      },
    });
    expect(opened).toBe(false);
    expect(launched).toEqual([]);
    expect(lines).toEqual([
      'no display to open a browser on (DISPLAY and WAYLAND_DISPLAY are unset); open the URL yourself',
    ]);
  });

  test('the system opener failing to start, or exiting non-zero, is reported', async () => {
    const rejected = collect();
    expect(
      await openBrowser('https://a.example/', {
        env: { DISPLAY: ':0' },
        platform: 'linux',
        warn: rejected.warn,
        launch: async () => {
          throw Object.assign(new Error('spawn xdg-open ENOENT'), { code: 'ENOENT', path: 'xdg-open' });
        },
      }),
    ).toBe(false);
    expect(rejected.lines).toEqual([
      'could not open the system browser: xdg-open was not found; open the URL yourself',
    ]);

    const exited = collect();
    expect(
      await openBrowser('https://a.example/', {
        env: {},
        platform: 'darwin',
        warn: exited.warn,
        // A real process standing in for `open`/`xdg-open` that finds no browser.
        launch: async () => spawn(process.execPath, ['-e', 'process.exit(3)'], { stdio: 'ignore' }),
      }),
    ).toBe(true);
    await exited.next;
    expect(exited.lines).toEqual([
      'could not open the system browser (it exited with status 3); open the URL yourself',
    ]);
  });
});
