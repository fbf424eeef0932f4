import { spawn } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { TokencliError } from '../../src/errors.js';
import { withFileLock } from '../../src/fs/lock.js';
import { described } from '../helpers/described.js';
import { distModule } from '../helpers/dist-module.js';
import { expectMode } from '../helpers/file-modes.js';
import { tempDir as makeTempDir, removeTempDirs } from '../helpers/temp-dirs.js';

const CHILD = resolve(import.meta.dirname, 'fixtures/lock-child.mjs');

const tempDir = () => makeTempDir('tokencli-lock-');
afterAll(removeTempDirs);

function runNode(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stderr }));
  });
}

/** A pid that certainly belongs to no running process: one of a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.on('close', r));
  if (child.pid === undefined) throw new Error('no pid');
  return child.pid;
}

function writeLockFile(path: string, pid: number, since = Date.now()): void {
  writeFileSync(path, JSON.stringify({ pid, host: hostname(), token: 'someone-else', since }), {
    mode: 0o600,
  });
}

describe('withFileLock', () => {
  it('excludes other processes: no overlap and no lost increment across 4 processes', async () => {
    const dir = tempDir();
    const counter = join(dir, 'counter');
    const log = join(dir, 'log');
    writeFileSync(counter, '0');
    writeFileSync(log, '');
    const lockPath = join(dir, 'locks', 'p.lock');
    const rounds = 8;
    const results = await Promise.all(
      [1, 2, 3, 4].map(() =>
        runNode([CHILD, distModule('fs/lock.js'), lockPath, counter, log, String(rounds)]),
      ),
    );
    for (const result of results) expect(result).toEqual({ code: 0, stderr: '' });
    expect(readFileSync(counter, 'utf8')).toBe(String(4 * rounds));
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2 * 4 * rounds);
    for (let i = 0; i < lines.length; i += 2) {
      const pid = lines[i]?.split(' ')[1];
      expect([lines[i], lines[i + 1]]).toEqual([`enter ${pid}`, `exit ${pid}`]);
    }
    expect(existsSync(lockPath)).toBe(false);
    expectMode(join(dir, 'locks'), 0o700);
  });

  it('returns what fn returns, releases on success and on a throw', async () => {
    const lockPath = join(tempDir(), 'a.lock');
    await expect(withFileLock(lockPath, async () => 42)).resolves.toBe(42);
    expect(existsSync(lockPath)).toBe(false);
    await expect(
      withFileLock(lockPath, async () => {
        expect(existsSync(lockPath)).toBe(true);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(existsSync(lockPath)).toBe(false);
  });

  it('breaks a lock whose holder process is dead', async () => {
    const lockPath = join(tempDir(), 'dead.lock');
    writeLockFile(lockPath, await deadPid());
    const started = Date.now();
    await expect(withFileLock(lockPath, async () => 'mine', { timeoutMs: 10_000 })).resolves.toBe('mine');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(existsSync(lockPath)).toBe(false);
  });

  it('breaks a lock untouched for longer than staleMs even when its pid is alive', async () => {
    const lockPath = join(tempDir(), 'old.lock');
    writeLockFile(lockPath, process.ppid); // alive: our parent (vitest)
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockPath, old, old);
    await expect(
      withFileLock(lockPath, async () => 'mine', { staleMs: 10_000, timeoutMs: 10_000 }),
    ).resolves.toBe('mine');
  });

  it('breaks an empty (garbled) lock file only once it is older than staleMs', async () => {
    const lockPath = join(tempDir(), 'garbled.lock');
    writeFileSync(lockPath, '');
    await expect(
      withFileLock(lockPath, async () => 'x', { timeoutMs: 300, staleMs: 60_000 }),
    ).rejects.toThrow(/^timed out after 0\.3s waiting for the lock .*garbled\.lock$/);
    const old = new Date(Date.now() - 120_000);
    utimesSync(lockPath, old, old);
    await expect(
      withFileLock(lockPath, async () => 'x', { timeoutMs: 10_000, staleMs: 60_000 }),
    ).resolves.toBe('x');
  });

  it('gives up after timeoutMs naming the lock, its holder and the fix (exit 1)', async () => {
    const lockPath = join(tempDir(), 'held.lock');
    const since = Date.parse('2026-01-02T03:04:05.000Z');
    writeLockFile(lockPath, process.ppid, since);
    const error = await withFileLock(lockPath, async () => 'never', { timeoutMs: 400 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TokencliError);
    expect(error).toMatchObject({
      code: 'lock',
      message: `timed out after 0.4s waiting for the lock ${lockPath} (held by pid ${process.ppid} on ${hostname()} since 2026-01-02T03:04:05.000Z)`,
      hint: `if no tokencli is running, remove ${lockPath}`,
    });
    expect(existsSync(lockPath)).toBe(true); // a live holder's lock is left alone
  });

  it('keeps a long holder fresh (heartbeat), so a waiter with a short staleMs does not break it', async () => {
    const lockPath = join(tempDir(), 'long.lock');
    const events: string[] = [];
    const holder = withFileLock(
      lockPath,
      async () => {
        events.push('holder in');
        await sleep(1_500);
        events.push('holder out');
      },
      { staleMs: 400 },
    );
    await sleep(100);
    const waiter = withFileLock(lockPath, async () => events.push('waiter in'), {
      staleMs: 400,
      timeoutMs: 20_000,
    });
    await Promise.all([holder, waiter]);
    expect(events).toEqual(['holder in', 'holder out', 'waiter in']);
  });

  it('stops waiting when the signal aborts, with the signal reason', async () => {
    const lockPath = join(tempDir(), 'abort.lock');
    writeLockFile(lockPath, process.ppid);
    const controller = new AbortController();
    const reason = new Error('interrupted');
    setTimeout(() => controller.abort(reason), 200);
    await expect(
      withFileLock(lockPath, async () => 'never', { signal: controller.signal, timeoutMs: 20_000 }),
    ).rejects.toBe(reason);
  });

  it('does not delete a lock that was taken over after it was broken as stale', async () => {
    const lockPath = join(tempDir(), 'taken.lock');
    await withFileLock(
      lockPath,
      async () => {
        // Someone judged us stale and took the lock meanwhile: our release must leave theirs.
        writeLockFile(lockPath, process.ppid);
      },
      { staleMs: 60_000 },
    );
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ token: 'someone-else' });
  });

  it('reports a lock that cannot be created as a TokencliError naming the file (exit 1)', async () => {
    const file = join(tempDir(), 'not-a-dir');
    writeFileSync(file, '');
    const lockPath = join(file, 'locks', 'p.lock');
    const error = await withFileLock(lockPath, async () => 'never').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokencliError);
    expect(error).toMatchObject({ code: 'lock', reason: 'lock_unwritable' });
    expect(described(error)).toMatchObject({
      code: 'lock',
      message: `cannot create the lock file ${lockPath}: ENOTDIR`,
      hint: 'check that the config directory (TOKENCLI_CONFIG_DIR) is a directory you can write to',
    });
  });
});
