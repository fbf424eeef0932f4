/**
 * The socket under the D-Bus client (src/store/bus-socket.ts), both ways to have one: node's libuv
 * pipe handle (src/store/pipe-handle-socket.ts) and node:net. Each test runs on both, against a
 * real Unix socket server, so they are held to the same behaviour; child processes show what node
 * itself decides (the process ending, warnings).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type BusSocket,
  type BusSocketKind,
  connectBusSocket,
  defaultBusSocketKind,
} from '../../src/store/bus-socket.js';
import { pipeHandleBindings, TESTED_NODE_MAJORS } from '../../src/store/pipe-handle-socket.js';
import { distModule } from '../helpers/dist-module.js';
import { socketPath } from '../helpers/socket-dir.js';
import { removeTempDirs } from '../helpers/temp-dirs.js';
import { listenOnSocketForTest } from '../helpers/unix-socket-server.js';

afterAll(removeTempDirs);

const SOCKET_KINDS: BusSocketKind[] = pipeHandleBindings() ? ['pipe-handle', 'net'] : ['net'];
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const ROOT = resolve(import.meta.dirname, '../..');

/**
 * What a socket reported, in order; consecutive `data` chunks are one entry (how the bytes arrive
 * split into chunks is not assumed).
 */
function recorder() {
  const events: string[] = [];
  const chunks: Buffer[] = [];
  let onClose: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    onClose = resolve;
  });
  return {
    events,
    received: () => Buffer.concat(chunks),
    closed,
    sink: {
      data: (chunk: Buffer) => {
        chunks.push(chunk);
        if (events.at(-1) !== 'data') events.push('data');
      },
      error: (code: string) => events.push(`error ${code}`),
      close: () => {
        events.push('close');
        onClose();
      },
    },
  };
}

/** A server on a fresh socket path; `onConnection` gets each accepted socket. */
async function server(onConnection: (socket: Socket) => void, path = socketPath('s', 'tokencli-bus-')) {
  await listenOnSocketForTest(path, onConnection);
  return path;
}

const until = async (condition: () => boolean, what: string) => {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 5000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

// Windows' node:net listens on named pipes, not on socket paths, and its keychain is no D-Bus service.
describe.skipIf(process.platform === 'win32').each(SOCKET_KINDS)(
  'a bus socket on %s (skipped on Windows: no Unix socket paths, and no D-Bus)',
  (kind) => {
    it('sends what was written before the connection completed, in order, and delivers what the peer sends', async () => {
      const big = Buffer.alloc(300_000, 'z'); // several reads' worth
      let got = Buffer.alloc(0);
      const path = await server((socket) => {
        socket.on('data', (chunk) => {
          got = Buffer.concat([got, chunk]);
          if (got.toString().endsWith('three')) socket.end(Buffer.concat([Buffer.from('hello '), big]));
        });
      });
      const { sink, events, received, closed } = recorder();
      const socket = connectBusSocket(path, sink, kind);
      socket.write(Buffer.from('one '));
      socket.write(Buffer.from('two '));
      socket.write(Buffer.from('three'));
      await closed;
      expect(got.toString()).toBe('one two three');
      expect(received().equals(Buffer.concat([Buffer.from('hello '), big]))).toBe(true);
      // The peer's end is a close, not an error.
      expect(events).toEqual(['data', 'close']);
    });

    it('writes at once once connected', async () => {
      const lines: string[] = [];
      const path = await server((socket) => {
        socket.on('data', (chunk) => {
          lines.push(chunk.toString());
          socket.write('ok\n');
        });
      });
      const { sink, received } = recorder();
      const socket = connectBusSocket(path, sink, kind);
      socket.write(Buffer.from('first'));
      await until(() => received().length === 3, 'the first answer');
      socket.write(Buffer.from('second'));
      await until(() => received().length === 6, 'the second answer');
      socket.destroy();
      expect(lines).toEqual(['first', 'second']);
    });

    it.each([
      ['a path where nothing is', 'ENOENT', () => socketPath('absent', 'tokencli-bus-')],
      [
        'a file that is not a socket',
        'ECONNREFUSED',
        () => {
          const path = socketPath('plain-file', 'tokencli-bus-');
          writeFileSync(path, '');
          return path;
        },
      ],
    ])('reports %s as %s on a later turn, then closes', async (_, code, makePath) => {
      const { sink, events, closed } = recorder();
      const socket = connectBusSocket(makePath(), sink, kind);
      socket.write(Buffer.from('dropped'));
      expect(events).toEqual([]);
      await closed;
      expect(events).toEqual([`error ${code}`, 'close']);
    });

    it('reports a path too long for a socket address as node:net does, on a later turn', async () => {
      // Refused by libuv before any connect: on newer lines as the connect call's own result.
      const path = `/${'x'.repeat(200)}`;
      const reference = recorder();
      connectBusSocket(path, reference.sink, 'net');
      await reference.closed;
      expect(reference.events).toEqual([expect.stringMatching(/^error E[A-Z]+$/), 'close']);
      const { sink, events, closed } = recorder();
      connectBusSocket(path, sink, kind);
      expect(events).toEqual([]);
      await closed;
      expect(events).toEqual(reference.events);
    });

    it('destroy() hangs up: the peer sees the end, only close is reported, later writes are dropped', async () => {
      let peerEnded = false;
      let peerGot = '';
      const path = await server((socket) => {
        socket.write('before');
        socket.on('data', (chunk) => {
          peerGot += chunk.toString();
        });
        socket.on('end', () => {
          peerEnded = true;
        });
      });
      const { sink, events, received, closed } = recorder();
      const socket: BusSocket = connectBusSocket(path, sink, kind);
      socket.write(Buffer.from('hi'));
      await until(() => received().length > 0, 'the greeting');
      socket.destroy();
      socket.write(Buffer.from('after'));
      socket.destroy();
      await closed;
      await until(() => peerEnded, "the peer's end");
      expect(peerGot).toBe('hi');
      expect(events).toEqual(['data', 'close']);
    });

    it.skipIf(process.platform !== 'linux')(
      'connects to a Linux abstract socket (a path starting with NUL) (skipped off Linux: only Linux has them)',
      async () => {
        const name = `\0tokencli-test-${process.pid}-${Math.random().toString(36).slice(2)}`;
        await server((socket) => socket.end('abstract'), name);
        const { sink, received, closed } = recorder();
        connectBusSocket(name, sink, kind);
        await closed;
        expect(received().toString()).toBe('abstract');
      },
    );

    it('keeps the process alive while referenced, and lets it end when not', async () => {
      // The peer keeps each connection open for 600 ms, then hangs up.
      const path = await server((socket) => {
        const timer = setTimeout(() => socket.end(), 600);
        socket.on('close', () => clearTimeout(timer));
      });
      const script = `
      const { connectBusSocket } = await import(${JSON.stringify(distModule('store/bus-socket.js'))});
      const socket = connectBusSocket(process.argv[1], { data() {}, error() {}, close() { process.stdout.write('closed'); } }, process.argv[2]);
      if (process.argv[3] === 'unref') socket.unref();
    `;
      const run = (mode: string) =>
        new Promise<{ ms: number; stdout: string }>((resolve, reject) => {
          const started = Date.now();
          const child = spawn(process.execPath, ['--input-type=module', '-e', script, path, kind, mode]);
          let stdout = '';
          child.stdout.on('data', (chunk) => {
            stdout += chunk;
          });
          child.on('error', reject);
          child.on('close', () => resolve({ ms: Date.now() - started, stdout }));
        });
      const [referenced, unreferenced] = await Promise.all([run('ref'), run('unref')]);
      expect(referenced.stdout).toBe('closed');
      expect(referenced.ms).toBeGreaterThanOrEqual(600);
      expect(unreferenced.stdout).toBe('');
      expect(unreferenced.ms).toBeLessThan(referenced.ms);
    });
  },
);

describe('which socket a node gets', () => {
  it("node's pipe handle is trusted on exactly the Node lines the package supports and CI tests", () => {
    const engines = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }
    ).engines.node;
    const supported = [...engines.matchAll(/\^(\d+)\./g)].map((match) => Number(match[1]));
    const ciRun = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    const ciExtra = (ciRun.match(/^NODE_MAJORS=\(([\d ]+)\)$/m)?.[1] ?? '').split(' ').map(Number);
    // CI runs the machine's own node (20) and the others it names.
    expect([...TESTED_NODE_MAJORS].sort((a, b) => a - b)).toEqual(supported.sort((a, b) => a - b));
    expect([20, ...ciExtra].sort((a, b) => a - b)).toEqual(supported.sort((a, b) => a - b));
  });

  it.runIf(TESTED_NODE_MAJORS.has(NODE_MAJOR))("on a Node line the suite runs on, node's pipe handle", () => {
    expect(defaultBusSocketKind()).toBe('pipe-handle');
  });

  /**
   * Runs `body` as an ES module in a child node (with `connectBusSocket` and `defaultBusSocketKind`),
   * after `before`, which runs before the module is loaded.
   */
  function inChild(body: string, args: string[], env: NodeJS.ProcessEnv = {}, before = '') {
    const script = `
      ${before}
      const { connectBusSocket, defaultBusSocketKind } = await import(${JSON.stringify(distModule('store/bus-socket.js'))});
      ${body}
    `;
    const result = spawnSync(process.execPath, [...args, '--input-type=module', '-e', script], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    return { stdout: result.stdout, stderr: result.stderr };
  }

  /** The default kind in a child node, and what it printed on stderr. */
  function childKind(args: string[], env: NodeJS.ProcessEnv = {}) {
    const { stdout, stderr } = inChild('process.stdout.write(defaultBusSocketKind());', args, env);
    return { kind: stdout, stderr };
  }

  it.each([
    ['--pending-deprecation', ['--pending-deprecation'], {}],
    ['NODE_OPTIONS=--pending-deprecation', [], { NODE_OPTIONS: '--pending-deprecation' }],
    ['NODE_PENDING_DEPRECATION=1', [], { NODE_PENDING_DEPRECATION: '1' }],
  ])('node:net when node warns about its internals (%s), and no warning', (_, args, env) => {
    expect(childKind(args, env)).toEqual({ kind: 'net', stderr: '' });
  });

  it('node:net on a Node line the suite does not run on', () => {
    const before = "Object.defineProperty(process.versions, 'node', { value: '99.0.0' });";
    expect(inChild('process.stdout.write(defaultBusSocketKind());', [], {}, before)).toEqual({
      stdout: 'net',
      stderr: '',
    });
  });

  it('node:net carries the connection on this Node line too', () => {
    // The fallback is what every untested line gets, so it is exercised wherever the suite runs.
    expect(SOCKET_KINDS).toContain('net');
  });

  it('node:net under the permission model, which refuses node its internals', () => {
    // Renamed from --experimental-permission during Node 22.
    const flag = process.allowedNodeEnvironmentFlags.has('--permission')
      ? '--permission'
      : '--experimental-permission';
    expect(childKind([flag, '--allow-fs-read=*']).kind).toBe('net');
  });

  it('connectBusSocket refuses the pipe handle by name where it is not usable', () => {
    const body = `try { connectBusSocket('/nonexistent', { data() {}, error() {}, close() {} }, 'pipe-handle'); }
      catch (error) { process.stdout.write(error.message); }`;
    expect(inChild(body, ['--pending-deprecation']).stdout).toBe(
      'the pipe handle is not usable on this node',
    );
  });
});
