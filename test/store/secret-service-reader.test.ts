import { afterAll, describe, expect, it } from 'vitest';
import type { BusSocketKind } from '../../src/store/bus-socket.js';
import { DbusReadKeychainStore, lookUpTokens } from '../../src/store/dbus-read-keychain-store.js';
import { decodeMessage, encodeBody, type WireValue } from '../../src/store/dbus-wire.js';
import { secretServiceAttributes } from '../../src/store/keychain-store.js';
import { pipeHandleBindings } from '../../src/store/pipe-handle-socket.js';
import { openSecretService } from '../../src/store/secret-service-probe.js';
import { readSecretText, type SecretLookup, startSecretRead } from '../../src/store/secret-service-reader.js';
import { socketPath } from '../helpers/socket-dir.js';
import { removeTempDirs } from '../helpers/temp-dirs.js';
import { listenOnSocketForTest } from '../helpers/unix-socket-server.js';
import { sampleRecord } from './records.js';

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

/** The PATH header field (code 1) of a little-endian message, as the client wrote it. */
function objectPath(message: Buffer): string {
  const end = 16 + message.readUInt32LE(12);
  let at = 16;
  while (at < end) {
    const code = message[at] as number;
    const signatureLength = message[at + 1] as number;
    const signature = message.toString('ascii', at + 2, at + 2 + signatureLength);
    at += 3 + signatureLength;
    if (signature === 'g') {
      at += 2 + (message[at] as number);
    } else {
      at = Math.ceil(at / 4) * 4;
      if (signature === 'u') at += 4;
      else {
        const length = message.readUInt32LE(at);
        if (code === 1) return message.toString('utf8', at + 4, at + 4 + length);
        at += 5 + length;
      }
    }
    at = Math.ceil(at / 8) * 8;
  }
  return '';
}

type Answer = [signature: string, values: WireValue[], errorName?: string];
/** An answer, no answer ever, or an answer after a delay in ms. */
type Reply = Answer | 'silence' | { afterMs: number; answer: Answer };

const PROBE: Reply[] = [
  ['s', [':1.1']], // Hello
  ['o', ['/org/freedesktop/secrets/collection/login']], // ReadAlias("default")
  ['v', [{ signature: 'b', value: false }]], // Get(Collection, Locked)
];

/** Both ways to have the socket (bus-socket.ts): node's pipe handle where this node allows it, and node:net. */
const SOCKET_KINDS: BusSocketKind[] = pipeHandleBindings() ? ['pipe-handle', 'net'] : ['net'];

// Windows' node:net listens on named pipes, not on socket paths, and its keychain is no D-Bus service.
describe.skipIf(process.platform === 'win32').each(SOCKET_KINDS)(
  'readSecretText over a scripted bus, on a %s socket (skipped on Windows: no Unix socket paths, and no D-Bus)',
  (socketKind) => {
    /**
     * Serves one connection: SASL, then `replies` in call order; records each call's body and object
     * path. With `holdUntil`, nothing is answered (the handshake included) until that many calls have
     * arrived: a client that waits for an answer before sending its next call never gets one.
     */
    async function bus(
      replies: Reply[],
      { holdUntil = 0 } = {},
    ): Promise<{ env: NodeJS.ProcessEnv; calls: WireValue[][]; paths: string[]; closed: Promise<void> }> {
      const path = socketPath('bus', 'tokencli-fake-bus-');
      const calls: WireValue[][] = [];
      const paths: string[] = [];
      const held: Buffer[] = [];
      let onClosed: () => void = () => {};
      const closed = new Promise<void>((r) => {
        onClosed = r;
      });
      await listenOnSocketForTest(path, (socket) => {
        socket.on('close', onClosed);
        let buffer = Buffer.alloc(0);
        let authenticated = false;
        let greeted = false;
        const send = (bytes: Buffer | string) => {
          if (calls.length < holdUntil) held.push(Buffer.from(bytes));
          else socket.write(bytes);
        };
        socket.on('data', (chunk) => {
          buffer = Buffer.concat([buffer, chunk]);
          if (!authenticated) {
            const begin = buffer.indexOf('BEGIN\r\n');
            if (!greeted && buffer.includes('\r\n')) {
              greeted = true;
              send('OK 0123456789abcdef0123456789abcdef\r\n');
            }
            if (begin < 0) return;
            buffer = buffer.subarray(begin + 7);
            authenticated = true;
          }
          for (let decoded = decodeMessage(buffer); decoded; decoded = decodeMessage(buffer)) {
            const serial = buffer.readUInt32LE(8);
            paths.push(objectPath(buffer));
            buffer = buffer.subarray(decoded.size);
            calls.push(decoded.reply.body);
            if (calls.length === holdUntil) socket.write(Buffer.concat(held.splice(0)));
            const reply = replies[calls.length - 1];
            if (Array.isArray(reply)) send(answer(serial, ...reply));
            else if (reply && reply !== 'silence') {
              const { afterMs, answer: late } = reply;
              setTimeout(() => socket.writable && socket.write(answer(serial, ...late)), afterMs);
            }
          }
        });
      });
      return { env: { DBUS_SESSION_BUS_ADDRESS: `unix:path=${path}` }, calls, paths, closed };
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
      const opened = await openSecretService(2000, env, { socketKind });
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

    const SESSION: Answer = ['vo', [{ signature: 's', value: '' }, '/org/freedesktop/secrets/session/s7']];
    const secretAnswer = (text: string): Answer => [
      '(oayays)',
      [['/org/freedesktop/secrets/session/s7', Buffer.alloc(0), Buffer.from(text), 'text/plain']],
    ];

    it('sends the probe and a lookup made alongside it before any answer, so a read takes two round trips', async () => {
      // Nothing is answered, the handshake included, until all five calls are in: a client that
      // waited for an answer between them would time out here.
      const { env, paths } = await bus(
        [
          ...PROBE,
          SESSION,
          ['aoao', [['/org/freedesktop/secrets/collection/login/3'], []]],
          secretAnswer('{"a":1}'),
        ],
        { holdUntil: 5 },
      );
      let lookup: SecretLookup | undefined;
      const opened = await openSecretService(2000, env, {
        socketKind,
        alongside: (connection) => {
          lookup = startSecretRead(connection, new Map([['service', 'tokencli']]));
        },
      });
      if (!opened.ok || !lookup) throw new Error(opened.ok ? 'no lookup' : opened.reason);
      expect(await readSecretText(opened.connection, lookup)).toEqual({ text: '{"a":1}' });
      opened.connection.close();
      expect(paths).toEqual([
        '/org/freedesktop/DBus', // Hello
        '/org/freedesktop/secrets', // ReadAlias
        '/org/freedesktop/secrets/aliases/default', // its Locked property, without waiting for ReadAlias
        '/org/freedesktop/secrets', // OpenSession
        '/org/freedesktop/secrets', // SearchItems
        '/org/freedesktop/secrets/collection/login/3', // GetSecret, once the search has answered
      ]);
    });

    it.each([
      [false, { ok: true }],
      [true, { ok: false, reason: 'the default keyring is locked' }],
    ])(
      'asks a service without alias paths at the collection itself (locked: %s)',
      async (locked, outcome) => {
        const { env, paths } = await bus([
          ['s', [':1.1']],
          ['o', ['/org/freedesktop/secrets/collection/login']],
          ['', [], 'org.freedesktop.DBus.Error.UnknownObject'],
          ['v', [{ signature: 'b', value: locked }]],
        ]);
        const opened = await openSecretService(2000, env, { socketKind });
        if (opened.ok) opened.connection.close();
        expect(opened.ok ? { ok: true } : opened).toEqual(outcome);
        expect(paths.slice(2)).toEqual([
          '/org/freedesktop/secrets/aliases/default',
          '/org/freedesktop/secrets/collection/login',
        ]);
      },
    );

    it('the keychain store goes on from the lookup sent with the probe, for that profile only', async () => {
      const record = sampleRecord();
      const item: Answer = ['aoao', [['/org/freedesktop/secrets/collection/login/3'], []]];
      for (const [profile, readFirst, searched] of [
        ['work', 'work', 1],
        ['work', 'home', 2],
      ] as const) {
        // The lookup sent ahead is answered first; reading another profile asks anew.
        const lookups = Array.from({ length: searched }, () => [SESSION, item]).flat();
        const { env, calls } = await bus([...PROBE, ...lookups, secretAnswer(JSON.stringify(record))]);
        let sentLookup: ReturnType<typeof lookUpTokens> | undefined;
        const opened = await openSecretService(2000, env, {
          socketKind,
          alongside: (connection) => {
            sentLookup = lookUpTokens(connection, profile);
          },
        });
        if (!opened.ok) throw new Error(opened.reason);
        const store = new DbusReadKeychainStore({
          connection: opened.connection,
          sentLookup,
          openNative: () => Promise.reject(new Error('the native module is not wanted here')),
        });
        expect(await store.getTokens(readFirst)).toEqual(record);
        const searches = calls.filter((body) => body[0] instanceof Map);
        expect(searches).toHaveLength(searched);
        expect(searches.at(-1)).toEqual([secretServiceAttributes(`${readFirst}/tokens`)]);
      }
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
      const opened = await openSecretService(2000, env, { socketKind });
      if (!opened.ok) throw new Error(opened.reason);
      expect(await readSecretText(opened.connection, new Map([['service', 'tokencli']]))).toEqual({
        unread: reason,
      });
      opened.connection.close();
    });

    it('declines a service without the plain algorithm', async () => {
      const { env } = await bus([...PROBE, ['', [], 'org.freedesktop.DBus.Error.NotSupported']]);
      const opened = await openSecretService(2000, env, { socketKind });
      if (!opened.ok) throw new Error(opened.reason);
      expect(await readSecretText(opened.connection, new Map())).toEqual({
        unread: 'the Secret Service opened no plain session (org.freedesktop.DBus.Error.NotSupported)',
      });
      opened.connection.close();
    });

    it('gives the whole probe one time limit, not one per step', async () => {
      // Hello answered after 500 ms, then ReadAlias never: given up 600 ms from the start, where a
      // limit per step would give up at 1100 ms at the earliest. The bounds leave a loaded machine
      // 450 ms of slack and still tell the two apart; a timer never fires early.
      const [hello] = PROBE as [Answer];
      const { env } = await bus([{ afterMs: 500, answer: hello }, 'silence']);
      const started = performance.now();
      expect(await openSecretService(600, env, { socketKind })).toEqual({
        ok: false,
        reason: 'the Secret Service did not answer within 0.6s',
      });
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(595);
      expect(elapsed).toBeLessThan(1050);
    });

    it('gives up on a service that stops answering after the probe, and hangs up', async () => {
      const { env, closed } = await bus([...PROBE, 'silence']);
      const opened = await openSecretService(300, env, { socketKind });
      if (!opened.ok) throw new Error(opened.reason);
      const started = Date.now();
      expect(await readSecretText(opened.connection, new Map())).toEqual({
        unread: 'the Secret Service did not answer within 0.3s',
      });
      expect(Date.now() - started).toBeLessThan(2000);
      await closed; // the reader closed the connection itself
    });
  },
);
