/**
 * The README's "In scripts" examples run right after its "Try it locally" lines, as a new user
 * pastes them: the try-it lines (the ones `tokencli serve` prints) and the `tokencli profile use`
 * the prose after them names, then each tokencli command of the first "In scripts" example
 * block, all against `tokencli serve` in a fresh config directory.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CLI_SH, cleanEnv, type ServeHandle, startServe, tempDir } from '../helpers/cli.js';

const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
const section = (title: string) => readme.split(`\n## ${title}\n`)[1]?.split('\n## ')[0] ?? '';
const firstBlock = (text: string) => text.split('```sh\n')[1]?.split('\n```')[0]?.split('\n') ?? [];

let serve: ServeHandle;
let dir: string;
beforeAll(async () => {
  serve = await startServe();
  dir = tempDir('tokencli-readme-');
  // `tokencli` on PATH, as the README's lines name it.
  writeFileSync(join(dir, 'tokencli'), `#!/bin/sh\nexec ${CLI_SH} "$@"\n`);
  chmodSync(join(dir, 'tokencli'), 0o755);
});
afterAll(async () => {
  await serve?.stop();
  rmSync(dir, { recursive: true, force: true });
});

// The README's lines are sh, run as pasted, with `tokencli` on PATH as a #! sh script.
test.skipIf(process.platform === 'win32')(
  'the "In scripts" examples work right after the "Try it locally" lines (skipped on Windows: they are sh lines, run in sh)',
  () => {
    const env = cleanEnv({
      PATH: `${dir}:${process.env.PATH}`,
      TOKENCLI_CONFIG_DIR: join(dir, 'config'),
      TOKENCLI_STORE: 'file',
    });
    const sh = (line: string) => spawnSync('sh', ['-c', line], { env, encoding: 'utf8' });
    const tryIt = section('Try it locally');
    const pasted = firstBlock(tryIt.split('\n```\n').slice(1).join('\n```\n'));
    expect(pasted).toHaveLength(3);
    // What the prose after them says to run (`tokencli profile use …`), as it writes it.
    const said = tryIt.match(/`(tokencli profile use [\w-]+)`/g)?.map((word) => word.slice(1, -1)) ?? [];
    for (const line of [...pasted, ...said]) {
      const r = sh(line.replace('http://127.0.0.1:8080', serve.baseUrl));
      expect(r.status, `${line}\n${r.stderr}`).toBe(0);
    }
    const commands = firstBlock(section('In scripts')).flatMap(
      (line) => line.match(/tokencli [^|)"]*/g) ?? [],
    );
    expect(commands.length).toBeGreaterThanOrEqual(3);
    for (const command of commands) {
      const r = sh(command.trim());
      expect(r.status, `${command}\n${r.stderr}`).toBe(0);
      expect(r.stdout).not.toBe('');
    }
  },
);
