/**
 * The keychain's entries over the Secret Service (src/store/secret-service-entries.ts) against a
 * scripted session bus: which calls go out, in how many round trips, and what each answer the
 * service may give makes of a read, a write, a removal and a listing — prompts, which are
 * dismissed, and time limits included (test/store/keychain.test.ts has the real service).
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { BusSocketKind } from '../../src/store/bus-socket.js';
import { decodeMessage, encodeBody, type WireValue } from '../../src/store/dbus-wire.js';
import { KeychainStore, tokensAccount } from '../../src/store/keychain-store.js';
import { pipeHandleBindings } from '../../src/store/pipe-handle-socket.js';
import {
  entryAttributes,
  lookUpEntry,
  SecretServiceEntries,
} from '../../src/store/secret-service-entries.js';
import { openSecretService } from '../../src/store/secret-service-probe.js';
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

/** A little-endian message's object path (header field 1) and member (field 3), as the client wrote them. */
function addressOf(message: Buffer): { path: string; member: string } {
  const end = 16 + message.readUInt32LE(12);
  const found: Record<number, string> = {};
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
        found[code] = message.toString('utf8', at + 4, at + 4 + length);
        at += 5 + length;
      }
    }
    at = Math.ceil(at / 8) * 8;
  }
  return { path: found[1] ?? '', member: found[3] ?? '' };
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
  'the Secret Service entries over a scripted bus, on a %s socket (skipped on Windows: no Unix socket paths, and no D-Bus)',
  (socketKind) => {
    /**
     * Serves one connection: SASL, then `replies` in call order; records each call's body and object
     * path. With `holdUntil`, nothing is answered (the handshake included) until that many calls have
     * arrived: a client that waits for an answer before sending its next call never gets one.
     */
    async function bus(
      replies: Reply[],
      { holdUntil = 0 } = {},
    ): Promise<{
      env: NodeJS.ProcessEnv;
      calls: WireValue[][];
      paths: string[];
      members: string[];
      closed: Promise<void>;
    }> {
      const path = socketPath('bus', 'tokencli-fake-bus-');
      const calls: WireValue[][] = [];
      const paths: string[] = [];
      const members: string[] = [];
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
            const address = addressOf(buffer.subarray(0, decoded.size));
            paths.push(address.path);
            members.push(address.member);
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
      return { env: { DBUS_SESSION_BUS_ADDRESS: `unix:path=${path}` }, calls, paths, members, closed };
    }

    const SESSION: Answer = ['vo', [{ signature: 's', value: '' }, '/org/freedesktop/secrets/session/s7']];
    const SESSION_PATH = '/org/freedesktop/secrets/session/s7';
    const ITEM = '/org/freedesktop/secrets/collection/login/3';
    const COLLECTION = '/org/freedesktop/secrets/collection/login';
    const secretAnswer = (text: string | Buffer, parameters = Buffer.alloc(0)): Answer => [
      '(oayays)',
      [[SESSION_PATH, parameters, Buffer.from(text), 'text/plain']],
    ];
    const found = (unlocked: string[], locked: string[] = []): Answer => ['aoao', [unlocked, locked]];
    const NO_PROMPT = '/';
    const PROMPT = '/org/freedesktop/secrets/prompt/p1';

    /** The probe passed over a scripted bus, and the entries on its connection (reopened on the same bus). */
    async function entriesOver(replies: Reply[], { timeoutMs = 2000, reopen = false } = {}) {
      const scripted = await bus([...PROBE, ...replies]);
      const open = async () => {
        const opened = await openSecretService(timeoutMs, scripted.env, { socketKind });
        if (!opened.ok) throw new Error(opened.reason);
        return opened.connection;
      };
      const connection = await open();
      const entries = new SecretServiceEntries(connection, { reopen: reopen ? open : undefined });
      return { ...scripted, entries, connection, sent: () => scripted.members.slice(3) };
    }

    it('reads: a plain session and the search in one round trip, then the one item’s secret', async () => {
      const { entries, connection, calls, sent } = await entriesOver([
        SESSION,
        found([ITEM]),
        secretAnswer('{"a":"é"}'),
      ]);
      expect(await entries.read('work/tokens')).toBe('{"a":"é"}');
      connection.close();
      expect(sent()).toEqual(['OpenSession', 'SearchItems', 'GetSecret']);
      expect(calls.slice(3)).toEqual([
        ['plain', { signature: 's', value: '' }],
        [entryAttributes('work/tokens')],
        [SESSION_PATH],
      ]);
    });

    it('opens the session once: a second read only searches and reads', async () => {
      const { entries, connection, sent } = await entriesOver([
        SESSION,
        found([ITEM]),
        secretAnswer('one'),
        found([]),
      ]);
      expect(await entries.read('work/tokens')).toBe('one');
      expect(await entries.read('work/client_secret')).toBeUndefined();
      connection.close();
      expect(sent()).toEqual(['OpenSession', 'SearchItems', 'GetSecret', 'SearchItems']);
    });

    it('sends the probe and a lookup made alongside it before any answer, so a read takes two round trips', async () => {
      // Nothing is answered, the handshake included, until all five calls are in: a client that
      // waited for an answer between them would time out here.
      const { env, paths } = await bus([...PROBE, SESSION, found([ITEM]), secretAnswer('{"a":1}')], {
        holdUntil: 5,
      });
      let lookup: ReturnType<typeof lookUpEntry> | undefined;
      const opened = await openSecretService(2000, env, {
        socketKind,
        alongside: (connection) => {
          lookup = lookUpEntry(connection, 'work/tokens');
        },
      });
      if (!opened.ok || !lookup) throw new Error(opened.ok ? 'no lookup' : opened.reason);
      expect(await new SecretServiceEntries(opened.connection, { lookup }).read('work/tokens')).toBe(
        '{"a":1}',
      );
      opened.connection.close();
      expect(paths).toEqual([
        '/org/freedesktop/DBus', // Hello
        '/org/freedesktop/secrets', // ReadAlias
        '/org/freedesktop/secrets/aliases/default', // its Locked property, without waiting for ReadAlias
        '/org/freedesktop/secrets', // OpenSession
        '/org/freedesktop/secrets', // SearchItems
        ITEM, // GetSecret, once the search has answered
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
          ['o', [COLLECTION]],
          ['', [], 'org.freedesktop.DBus.Error.UnknownObject'],
          ['v', [{ signature: 'b', value: locked }]],
        ]);
        const opened = await openSecretService(2000, env, { socketKind });
        if (opened.ok) opened.connection.close();
        expect(opened.ok ? { ok: true } : opened).toEqual(outcome);
        expect(paths.slice(2)).toEqual(['/org/freedesktop/secrets/aliases/default', COLLECTION]);
      },
    );

    it('the keychain store goes on from the lookup sent with the probe, for that profile only; its session serves either way', async () => {
      const record = sampleRecord();
      for (const [profile, readFirst, expected] of [
        ['work', 'work', ['OpenSession', 'SearchItems', 'GetSecret']],
        ['work', 'home', ['OpenSession', 'SearchItems', 'SearchItems', 'GetSecret']],
      ] as const) {
        // The lookup sent ahead is answered first; reading another profile searches anew.
        const searches = expected.filter((member) => member === 'SearchItems').map(() => found([ITEM]));
        const { env, calls, members } = await bus([
          ...PROBE,
          SESSION,
          ...searches,
          secretAnswer(JSON.stringify(record)),
        ]);
        let lookup: ReturnType<typeof lookUpEntry> | undefined;
        const opened = await openSecretService(2000, env, {
          socketKind,
          alongside: (connection) => {
            lookup = lookUpEntry(connection, tokensAccount(profile));
          },
        });
        if (!opened.ok) throw new Error(opened.reason);
        const entries = new SecretServiceEntries(opened.connection, { lookup });
        const store = new KeychainStore({ entries, timeoutMs: 2000, warn: () => {} });
        expect(await store.getTokens(readFirst)).toEqual(record);
        opened.connection.close();
        expect(members.slice(3)).toEqual(expected);
        expect(calls.filter((body) => body[0] instanceof Map).at(-1)).toEqual([
          entryAttributes(`${readFirst}/tokens`),
        ]);
      }
    });

    it.each([
      ['two matches', [found(['/c/1', '/c/2'])], '2 entries match "work/tokens"'],
      [
        'a failed search',
        [['', [], 'org.freedesktop.DBus.Error.Failed']],
        'the search failed (org.freedesktop.DBus.Error.Failed)',
      ],
      [
        'a secret that is not UTF-8',
        [found(['/c/1']), secretAnswer(Buffer.from([0xc3, 0x28]))],
        'the entry "work/tokens" is not UTF-8 text',
      ],
      [
        'a secret with transfer parameters (not a plain session’s)',
        [found(['/c/1']), secretAnswer('abc', Buffer.from([1, 2]))],
        'the secret did not come as plain text',
      ],
      [
        'a refused GetSecret',
        [found(['/c/1']), ['', [], 'org.freedesktop.Secret.Error.IsLocked']],
        'no secret came (org.freedesktop.Secret.Error.IsLocked)',
      ],
    ] as [string, Reply[], string][])('refuses to read %s, in one line', async (_, afterSession, reason) => {
      const { entries, closed } = await entriesOver([SESSION, ...afterSession]);
      await expect(entries.read('work/tokens')).rejects.toThrow(new Error(reason));
      await closed; // a failed step hangs up
    });

    it('says so when the service has no plain session (and a store wraps it in one line)', async () => {
      const { entries } = await entriesOver([
        ['', [], 'org.freedesktop.DBus.Error.NotSupported'],
        found([ITEM]),
      ]);
      const store = new KeychainStore({ entries, timeoutMs: 2000, warn: () => {} });
      await expect(store.getTokens('work')).rejects.toMatchObject({
        message:
          'the OS keychain (Secret Service) failed (read): no plain session was opened (org.freedesktop.DBus.Error.NotSupported)',
        code: 'store',
        reason: 'keychain_failed',
      });
    });

    it('unlocks a locked item where the service needs no one to; where it asks for a prompt, dismisses it and fails', async () => {
      const direct = await entriesOver([
        SESSION,
        found([], ['/c/1']),
        ['aoo', [['/c/1'], NO_PROMPT]],
        secretAnswer('unlocked'),
      ]);
      expect(await direct.entries.read('work/tokens')).toBe('unlocked');
      direct.connection.close();
      expect(direct.sent()).toEqual(['OpenSession', 'SearchItems', 'Unlock', 'GetSecret']);
      expect(direct.calls[5]).toEqual([['/c/1']]);

      const prompted = await entriesOver([SESSION, found([], ['/c/1']), ['aoo', [[], PROMPT]], ['', []]]);
      await expect(prompted.entries.read('work/tokens')).rejects.toThrow(
        new Error('the keyring that holds the entry is locked'),
      );
      expect(prompted.sent()).toEqual(['OpenSession', 'SearchItems', 'Unlock', 'Dismiss']);
      expect(prompted.paths[6]).toBe(PROMPT);

      // A prompt that is no object path is not sent back: the bus would hang up on the message.
      const odd = await entriesOver([SESSION, found([], ['/c/1']), ['aoo', [[], "/p',x"]]]);
      await expect(odd.entries.read('work/tokens')).rejects.toThrow(
        'the keyring that holds the entry is locked',
      );
      expect(odd.sent()).toEqual(['OpenSession', 'SearchItems', 'Unlock']);
    });

    it('writes a new entry into the default keyring, filed as @napi-rs/keyring files it', async () => {
      const { entries, connection, calls, sent } = await entriesOver([
        SESSION,
        ['o', [COLLECTION]],
        found([]),
        ['oo', [ITEM, NO_PROMPT]],
      ]);
      await entries.write('work/client_secret', 'sécret');
      connection.close();
      // The session, the default keyring and the search in one round trip, then the item.
      expect(sent()).toEqual(['OpenSession', 'ReadAlias', 'SearchItems', 'CreateItem']);
      expect(calls[4]).toEqual(['default']);
      expect(calls[6]).toEqual([
        new Map<WireValue, WireValue>([
          [
            'org.freedesktop.Secret.Item.Label',
            { signature: 's', value: 'keyring:work/client_secret@tokencli' },
          ],
          [
            'org.freedesktop.Secret.Item.Attributes',
            {
              signature: 'a{ss}',
              value: new Map<WireValue, WireValue>(entryAttributes('work/client_secret')),
            },
          ],
        ]),
        [SESSION_PATH, Buffer.alloc(0), Buffer.from('sécret'), 'application/octet-stream'],
        true,
      ]);
    });

    it('gives an existing entry its new secret where it is, whichever keyring holds it', async () => {
      const elsewhere = '/org/freedesktop/secrets/collection/session/7';
      const { entries, connection, calls, paths, sent } = await entriesOver([
        SESSION,
        ['o', [COLLECTION]],
        found([elsewhere]),
        ['', []],
      ]);
      await entries.write('work/tokens', '{}');
      connection.close();
      expect(sent()).toEqual(['OpenSession', 'ReadAlias', 'SearchItems', 'SetSecret']);
      expect(paths[6]).toBe(elsewhere);
      expect(calls[6]).toEqual([
        [SESSION_PATH, Buffer.alloc(0), Buffer.from('{}'), 'application/octet-stream'],
      ]);
    });

    it('writes into a default keyring locked since the probe when the service unlocks it unasked', async () => {
      const { entries, connection, sent } = await entriesOver([
        SESSION,
        ['o', [COLLECTION]],
        found([]),
        ['', [], 'org.freedesktop.Secret.Error.IsLocked'],
        ['aoo', [[COLLECTION], NO_PROMPT]],
        ['oo', [ITEM, NO_PROMPT]],
      ]);
      await entries.write('work/tokens', '{}');
      connection.close();
      expect(sent()).toEqual([
        'OpenSession',
        'ReadAlias',
        'SearchItems',
        'CreateItem',
        'Unlock',
        'CreateItem',
      ]);
    });

    it.each([
      [
        'no default keyring',
        [['o', ['/']], found([])],
        'the Secret Service has no default keyring (no alias)',
      ],
      [
        'a refused CreateItem',
        [['o', [COLLECTION]], found([]), ['', [], 'org.freedesktop.DBus.Error.AccessDenied']],
        'the entry was not stored (org.freedesktop.DBus.Error.AccessDenied)',
      ],
      [
        'a refused SetSecret',
        [['o', [COLLECTION]], found(['/c/1']), ['', [], 'org.freedesktop.Secret.Error.NoSession']],
        'the entry was not stored (org.freedesktop.Secret.Error.NoSession)',
      ],
      [
        'two entries already',
        [['o', [COLLECTION]], found(['/c/1', '/c/2'])],
        '2 entries match "work/tokens"',
      ],
      [
        'a default keyring that only a prompt would unlock',
        [
          ['o', [COLLECTION]],
          found([]),
          ['', [], 'org.freedesktop.Secret.Error.IsLocked'],
          ['aoo', [[], PROMPT]],
          ['', []],
        ],
        'the default keyring is locked',
      ],
      [
        'a creation the service asks someone to confirm',
        [['o', [COLLECTION]], found([]), ['oo', ['/', PROMPT]], ['', []]],
        'the Secret Service asks someone to confirm storing the entry in a prompt, which tokencli does not show',
      ],
    ] as [string, Reply[], string][])('refuses to write with %s', async (_, replies, reason) => {
      const { entries } = await entriesOver([SESSION, ...replies]);
      await expect(entries.write('work/tokens', '{}')).rejects.toThrow(new Error(reason));
    });

    it('uses the lookup sent ahead for the first call only: a write first, and the read after searches anew', async () => {
      const { env, members } = await bus([
        ...PROBE,
        SESSION,
        found([ITEM]), // the lookup's search, from before the write
        ['o', [COLLECTION]],
        found([ITEM]),
        ['', []], // SetSecret
        found([ITEM]),
        secretAnswer('written'),
      ]);
      let lookup: ReturnType<typeof lookUpEntry> | undefined;
      const opened = await openSecretService(2000, env, {
        socketKind,
        alongside: (connection) => {
          lookup = lookUpEntry(connection, 'work/tokens');
        },
      });
      if (!opened.ok) throw new Error(opened.reason);
      const entries = new SecretServiceEntries(opened.connection, { lookup });
      await entries.write('work/tokens', 'written');
      expect(await entries.read('work/tokens')).toBe('written');
      opened.connection.close();
      expect(members.slice(3)).toEqual([
        'OpenSession',
        'SearchItems',
        'ReadAlias',
        'SearchItems',
        'SetSecret',
        'SearchItems',
        'GetSecret',
      ]);
    });

    it('after a failed call, the next probes again on a new connection, with a session of its own', async () => {
      const { entries, members } = await entriesOver(
        [SESSION, found(['/c/1', '/c/2']), ...PROBE, SESSION, found([ITEM]), secretAnswer('again')],
        { reopen: true },
      );
      await expect(entries.read('work/tokens')).rejects.toThrow('2 entries match "work/tokens"');
      expect(await entries.read('work/tokens')).toBe('again');
      entries.giveUp();
      expect(members.slice(3)).toEqual([
        'OpenSession',
        'SearchItems',
        'Hello',
        'ReadAlias',
        'Get',
        'OpenSession', // the first connection's session is no session on the second
        'SearchItems',
        'GetSecret',
      ]);
    });

    it('a call given up while the connection is reopened does nothing after it', async () => {
      const first = await bus([...PROBE, SESSION, found(['/c/1', '/c/2'])]);
      const second = await bus([
        ...PROBE,
        SESSION,
        found([]),
        ['o', [COLLECTION]],
        ['oo', [ITEM, NO_PROMPT]],
      ]);
      const opened = await openSecretService(2000, first.env, { socketKind });
      if (!opened.ok) throw new Error(opened.reason);
      const entries = new SecretServiceEntries(opened.connection, {
        // The probe's new connection comes after the store has given the call up.
        reopen: async () => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          const again = await openSecretService(2000, second.env, { socketKind });
          if (!again.ok) throw new Error(again.reason);
          return again.connection;
        },
      });
      const store = new KeychainStore({ entries, timeoutMs: 100, warn: () => {} });
      await expect(entries.read('work/tokens')).rejects.toThrow('2 entries match');
      await expect(store.setTokens('work', sampleRecord())).rejects.toMatchObject({
        reason: 'keychain_timeout',
      });
      await second.closed; // the new connection, closed unused
      expect(second.members).toEqual(['Hello', 'ReadAlias', 'Get']);
    });

    it('with the same time limit as the store’s, the store is the one that gives a call up and says so', async () => {
      const { entries, closed } = await entriesOver(['silence'], { timeoutMs: 300 });
      const store = new KeychainStore({ entries, timeoutMs: 300, warn: () => {} });
      // The clock read a little later each time, as when a millisecond ticks between the
      // connection's budget and its timer.
      const realNow = Date.now;
      let skew = 0;
      const clock = vi.spyOn(Date, 'now').mockImplementation(() => {
        skew += 5;
        return realNow() + skew;
      });
      try {
        await expect(store.getTokens('work')).rejects.toMatchObject({
          message: 'the OS keychain (Secret Service) did not answer within 0.3s (read)',
          reason: 'keychain_timeout',
        });
      } finally {
        clock.mockRestore();
      }
      await closed;
    });

    it('removes every item of the entry, locked ones unlocked first; none is no error', async () => {
      const { entries, connection, paths, sent } = await entriesOver([
        found(['/c/1'], ['/c/2']),
        ['aoo', [['/c/2'], NO_PROMPT]],
        ['o', [NO_PROMPT]],
        ['o', [NO_PROMPT]],
        found([]),
      ]);
      await entries.remove('work/tokens');
      await entries.remove('never/tokens');
      connection.close();
      expect(sent()).toEqual(['SearchItems', 'Unlock', 'Delete', 'Delete', 'SearchItems']);
      expect(paths.slice(5, 7)).toEqual(['/c/1', '/c/2']);
    });

    it('fails a removal the service refuses, or one it asks someone to confirm (the prompt dismissed)', async () => {
      const refused = await entriesOver([
        found(['/c/1']),
        ['', [], 'org.freedesktop.Secret.Error.NoSuchObject'],
      ]);
      await expect(refused.entries.remove('work/tokens')).rejects.toThrow(
        'the entry was not removed (org.freedesktop.Secret.Error.NoSuchObject)',
      );
      const confirm = await entriesOver([found(['/c/1']), ['o', [PROMPT]], ['', []]]);
      await expect(confirm.entries.remove('work/tokens')).rejects.toThrow(
        'the Secret Service asks someone to confirm removing the entry in a prompt, which tokencli does not show',
      );
      expect(confirm.sent()).toEqual(['SearchItems', 'Delete', 'Dismiss']);
      expect(confirm.paths[5]).toBe(PROMPT);
    });

    it('lists the accounts of every tokencli item, locked ones too, without unlocking them', async () => {
      const attributes = (account: string): Answer => [
        'v',
        [{ signature: 'a{ss}', value: new Map<WireValue, WireValue>(entryAttributes(account)) }],
      ];
      const { entries, connection, calls, sent } = await entriesOver([
        found(['/c/1'], ['/c/2']),
        attributes('work/tokens'),
        attributes('work/client_secret'),
      ]);
      expect(await entries.accounts()).toEqual(['work/tokens', 'work/client_secret']);
      connection.close();
      expect(sent()).toEqual(['SearchItems', 'Get', 'Get']);
      expect(calls[3]).toEqual([new Map([['service', 'tokencli']])]);
      expect(calls[4]).toEqual(['org.freedesktop.Secret.Item', 'Attributes']);

      const broken = await entriesOver([
        found(['/c/1']),
        ['', [], 'org.freedesktop.DBus.Error.UnknownObject'],
      ]);
      await expect(broken.entries.accounts()).rejects.toThrow(
        "an entry's attributes could not be read (org.freedesktop.DBus.Error.UnknownObject)",
      );
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
      const { entries, closed } = await entriesOver(['silence'], { timeoutMs: 300 });
      const started = Date.now();
      await expect(entries.read('work/tokens')).rejects.toThrow(
        'the Secret Service did not answer within 0.3s',
      );
      expect(Date.now() - started).toBeLessThan(2000);
      await closed; // the entries closed the connection themselves
    });
  },
);
