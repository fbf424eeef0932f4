import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeMessage, encodeBody, type WireValue } from '../../src/store/dbus-wire.js';
import { openSecretService } from '../../src/store/secret-service-probe.js';
import { readSecretText } from '../../src/store/secret-service-reader.js';
import { removeTempDirs, tempDir } from '../fs/temp-dirs.js';
import { listenOnSocketForTest } from '../helpers/unix-socket-server.js';

afterAll(removeTempDirs);

/** A little-endian METHOD_RETURN (or ERROR, given a name) answering `replySerial`. */
function answer(replySerial: number, signature: string, values: WireValue[], errorName?: string): Buffer {
  const body = encodeBody(signature, values);
  const fields: Buffer[] = [];
  let length = 16; // where the next byte goes, from the message start
  const push = (bytes: Buffer) => {
    fields.push(bytes);
    length += bytes.length;
  };
  const pad = (to: number) => push(Buffer.alloc((to - (length % to)) % to));
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  push(Buffer.from([5, 1, 0x75, 0]));
  push(u32(replySerial));
  if (errorName) {
    pad(8);
    push(Buffer.from([4, 1, 0x73, 0]));
    push(u32(Buffer.byteLength(errorName)));
    push(Buffer.from(`${errorName}\0`));
  }
  if (signature) {
    pad(8);
    push(Buffer.from([8, 1, 0x67, 0, signature.length]));
    push(Buffer.from(`${signature}\0`, 'ascii'));
  }
  const fieldBytes = Buffer.concat(fields);
  pad(8);
  const header = Buffer.concat([Buffer.from([0x6c, errorName ? 3 : 2, 0, 1]), u32(body.length), u32(1)]);
  return Buffer.concat([
    header,
    u32(fieldBytes.length),
    fieldBytes,
    Buffer.alloc(length - 16 - fieldBytes.length),
    body,
  ]);
}

type Answer = [signature: string, values: WireValue[], errorName?: string];
/** An answer, no answer ever, or an answer after a delay in ms. */
type Reply = Answer | 'silence' | { afterMs: number; answer: Answer };

const PROBE: Reply[] = [
  ['s', [':1.1']], // Hello
  ['o', ['/org/freedesktop/secrets/collection/login']], // ReadAlias("default")
  ['v', [{ signature: 'b', value: false }]], // Get(Collection, Locked)
];

describe('readSecretText over a scripted bus', () => {
  /** Serves one connection: SASL, then `replies` in call order; records each call's body. */
  async function bus(
    replies: Reply[],
  ): Promise<{ env: NodeJS.ProcessEnv; calls: WireValue[][]; closed: Promise<void> }> {
    const path = join(tempDir('tokencli-fake-bus-'), 'bus');
    const calls: WireValue[][] = [];
    let onClosed: () => void = () => {};
    const closed = new Promise<void>((r) => {
      onClosed = r;
    });
    await listenOnSocketForTest(path, (socket) => {
      socket.on('close', onClosed);
      let buffer = Buffer.alloc(0);
      let authenticated = false;
      let greeted = false;
      socket.on('data', (chunk) => {
        buffer = Buffer.concat([buffer, chunk]);
        if (!authenticated) {
          const begin = buffer.indexOf('BEGIN\r\n');
          if (!greeted && buffer.includes('\r\n')) {
            greeted = true;
            socket.write('OK 0123456789abcdef0123456789abcdef\r\n');
          }
          if (begin < 0) return;
          buffer = buffer.subarray(begin + 7);
          authenticated = true;
        }
        for (let decoded = decodeMessage(buffer); decoded; decoded = decodeMessage(buffer)) {
          const serial = buffer.readUInt32LE(8);
          buffer = buffer.subarray(decoded.size);
          calls.push(decoded.reply.body);
          const reply = replies[calls.length - 1];
          if (Array.isArray(reply)) socket.write(answer(serial, ...reply));
          else if (reply && reply !== 'silence') {
            const { afterMs, answer: late } = reply;
            setTimeout(() => socket.writable && socket.write(answer(serial, ...late)), afterMs);
          }
        }
      });
    });
    return { env: { DBUS_SESSION_BUS_ADDRESS: `unix:path=${path}` }, calls, closed };
  }

  it('opens a plain session, searches by the attributes, and reads the one unlocked item', async () => {
    const { env, calls } = await bus([
      ...PROBE,
      ['vo', [{ signature: 's', value: '' }, '/org/freedesktop/secrets/session/s7']],
      ['aoao', [['/org/freedesktop/secrets/collection/login/3'], []]],
      [
        '(oayays)',
        [['/org/freedesktop/secrets/session/s7', Buffer.alloc(0), Buffer.from('{"a":"é"}'), 'text/plain']],
      ],
    ]);
    const opened = await openSecretService(2000, env);
    if (!opened.ok) throw new Error(opened.reason);
    const attributes = new Map([
      ['service', 'tokencli'],
      ['username', 'work/tokens'],
    ]);
    expect(await readSecretText(opened.connection, attributes)).toEqual({ text: '{"a":"é"}' });
    opened.connection.close();
    expect(calls.slice(3)).toEqual([
      ['plain', { signature: 's', value: '' }],
      [attributes],
      ['/org/freedesktop/secrets/session/s7'],
    ]);
  });

  it.each([
    ['a locked match', [['aoao', [[], ['/c/1']]]], 'the item is locked'],
    ['no match', [['aoao', [[], []]]], 'no such item'],
    ['two matches', [['aoao', [['/c/1', '/c/2'], []]]], 'several items match'],
    [
      'a failed search',
      [['', [], 'org.freedesktop.DBus.Error.Failed']],
      'the Secret Service could not search (org.freedesktop.DBus.Error.Failed)',
    ],
    [
      'a secret that is not UTF-8',
      [
        ['aoao', [['/c/1'], []]],
        ['(oayays)', [['/s', Buffer.alloc(0), Buffer.from([0xc3, 0x28]), 'text/plain']]],
      ],
      'the secret is not UTF-8 text',
    ],
    [
      'a secret with transfer parameters (not a plain session’s)',
      [
        ['aoao', [['/c/1'], []]],
        ['(oayays)', [['/s', Buffer.from([1, 2]), Buffer.from('abc'), 'text/plain']]],
      ],
      'the secret is not plain',
    ],
  ] as [string, Reply[], string][])('declines %s', async (_, afterSession, reason) => {
    const { env } = await bus([...PROBE, ['vo', [{ signature: 's', value: '' }, '/s']], ...afterSession]);
    const opened = await openSecretService(2000, env);
    if (!opened.ok) throw new Error(opened.reason);
    expect(await readSecretText(opened.connection, new Map([['service', 'tokencli']]))).toEqual({
      unread: reason,
    });
    opened.connection.close();
  });

  it('declines a service without the plain algorithm', async () => {
    const { env } = await bus([...PROBE, ['', [], 'org.freedesktop.DBus.Error.NotSupported']]);
    const opened = await openSecretService(2000, env);
    if (!opened.ok) throw new Error(opened.reason);
    expect(await readSecretText(opened.connection, new Map())).toEqual({
      unread: 'the Secret Service opened no plain session (org.freedesktop.DBus.Error.NotSupported)',
    });
    opened.connection.close();
  });

  it('gives the whole probe one time limit, not one per step', async () => {
    // Hello answered after 300 ms, then ReadAlias never: given up 400 ms from the start (not 700).
    const [hello] = PROBE as [Answer];
    const { env } = await bus([{ afterMs: 300, answer: hello }, 'silence']);
    const started = Date.now();
    expect(await openSecretService(400, env)).toEqual({
      ok: false,
      reason: 'the Secret Service did not answer within 0.4s',
    });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(390);
    expect(elapsed).toBeLessThan(650);
  });

  it('gives up on a service that stops answering after the probe, and hangs up', async () => {
    const { env, closed } = await bus([...PROBE, 'silence']);
    const opened = await openSecretService(300, env);
    if (!opened.ok) throw new Error(opened.reason);
    const started = Date.now();
    expect(await readSecretText(opened.connection, new Map())).toEqual({
      unread: 'the Secret Service did not answer within 0.3s',
    });
    expect(Date.now() - started).toBeLessThan(2000);
    await closed; // the reader closed the connection itself
  });
});
