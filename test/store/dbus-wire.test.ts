/**
 * The D-Bus marshalling the Secret Service reader needs, against byte layouts worked out by hand from
 * the D-Bus specification ("Marshaling (Wire Format)": alignment from the message start, array
 * lengths without the padding before the first element, dict entries and structs 8-aligned).
 */
import { describe, expect, it } from 'vitest';
import { decodeMessage, encodeBody, encodeMethodCall, splitSignature } from '../../src/store/dbus-wire.js';

const u32le = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
const u32be = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const zeros = (n: number) => Buffer.alloc(n);
const text = (s: string) => Buffer.from(`${s}\0`, 'utf8');

describe('encodeBody', () => {
  it('lays out a{ss} as SearchItems takes it: 8-aligned entries, length without the first padding', () => {
    const attributes = new Map([
      ['service', 'tokencli'],
      ['username', 'work/tokens'],
    ]);
    const expected = Buffer.concat([
      u32le(64), // bytes from offset 8 to 72
      zeros(4), // to the 8-aligned first entry
      u32le(7),
      text('service'), // ends at 20
      u32le(8),
      text('tokencli'), // ends at 33
      zeros(7), // next entry at 40
      u32le(8),
      text('username'), // ends at 53
      zeros(3),
      u32le(11),
      text('work/tokens'), // ends at 72
    ]);
    expect(encodeBody('a{ss}', [attributes])).toEqual(expected);
  });

  it('lays out OpenSession("plain", <"">): a string, then a variant with its own signature', () => {
    const expected = Buffer.concat([
      u32le(5),
      text('plain'), // 0..10
      Buffer.from([1, 0x73, 0]), // signature "s", 10..13
      zeros(3),
      u32le(0),
      text(''), // 16..21
    ]);
    expect(encodeBody('sv', ['plain', { signature: 's', value: '' }])).toEqual(expected);
  });

  it('lays out a struct (oayays) and bytes, booleans and arrays of paths', () => {
    const expected = Buffer.concat([
      u32le(2),
      text('/a'), // 0..7
      zeros(1),
      u32le(2),
      Buffer.from([0xff, 0x00]), // ay: 8..14
      zeros(2),
      u32le(1),
      text('t'), // 16..22
      zeros(2),
      u32le(1), // b true: 24..28
      u32le(14), // ao: the bytes from 32 to 46
      u32le(1),
      text('/'), // 32..38
      zeros(2),
      u32le(1),
      text('/'), // 40..46
    ]);
    expect(encodeBody('(oays)bao', [['/a', Buffer.from([0xff, 0]), 't'], true, ['/', '/']])).toEqual(
      expected,
    );
  });

  it('refuses values that do not fit their type, and signatures that are not one', () => {
    expect(() => encodeBody('s', [1])).toThrow('a D-Bus "s" cannot be written from number');
    expect(() => encodeBody('a{ss}', [['x']])).toThrow('is written from a Map');
    expect(() => encodeBody('ay', ['x'])).toThrow('is written from a Buffer');
    expect(() => encodeBody('ss', ['x'])).toThrow('1 values for the D-Bus signature "ss"');
    expect(() => encodeBody('(s', ['x'])).toThrow('bad D-Bus signature "(s"');
    expect(() => encodeBody('z', ['x'])).toThrow('bad D-Bus signature "z"');
  });
});

describe('splitSignature', () => {
  it('splits into complete types', () => {
    expect(splitSignature('a{ss}o(oayays)vaao')).toEqual(['a{ss}', 'o', '(oayays)', 'v', 'aao']);
    expect(splitSignature('')).toEqual([]);
    expect(() => splitSignature('a')).toThrow('bad D-Bus signature');
  });
});

describe('decodeMessage bodies', () => {
  /** A big-endian METHOD_RETURN answering `replySerial`, with the given body. */
  function bigEndianReturn(replySerial: number, signature: string, body: Buffer): Buffer {
    const fields = Buffer.concat([
      Buffer.from([5, 1, 0x75, 0]),
      u32be(replySerial), // (REPLY_SERIAL, u) 16..24
      Buffer.from([8, 1, 0x67, 0, signature.length]),
      Buffer.from(`${signature}\0`, 'ascii'), // (SIGNATURE, g)
    ]);
    // 'B', METHOD_RETURN, no flags, version 1; body length, serial, field array length; fields.
    const head = Buffer.concat([
      Buffer.from([0x42, 2, 0, 1]),
      u32be(body.length),
      u32be(3),
      u32be(fields.length),
      fields,
    ]);
    const padded = Buffer.concat([head, zeros((8 - (head.length % 8)) % 8)]);
    return Buffer.concat([padded, body]);
  }

  it('reads Item.GetSecret’s (oayays) from a big-endian reply', () => {
    const body = Buffer.concat([
      u32be(4),
      text('/s/1'), // 0..9
      zeros(3),
      u32be(0), // parameters: empty ay, 12..16
      u32be(3),
      Buffer.from('abc'), // value: 16..23
      zeros(1),
      u32be(10),
      text('text/plain'), // 24..39
    ]);
    const message = bigEndianReturn(7, '(oayays)', body);
    const decoded = decodeMessage(message);
    expect(decoded?.size).toBe(message.length);
    expect(decoded?.reply).toMatchObject({ replySerial: 7, isError: false });
    expect(decoded?.reply.body).toEqual([['/s/1', Buffer.alloc(0), Buffer.from('abc'), 'text/plain']]);
  });

  it('reads SearchItems’ two arrays of paths, and a variant boolean as value', () => {
    const paths = Buffer.concat([u32be(0), u32be(14), u32be(1), text('/'), zeros(2), u32be(1), text('/')]);
    expect(decodeMessage(bigEndianReturn(1, 'aoao', paths))?.reply.body).toEqual([[], ['/', '/']]);
    const variant = Buffer.concat([Buffer.from([1, 0x62, 0, 0]), u32be(1)]);
    expect(decodeMessage(bigEndianReturn(1, 'v', variant))?.reply).toMatchObject({
      value: true,
      body: [{ signature: 'b', value: true }],
    });
  });

  it('reads back what it encodes: dictionaries of variants, structs, integers', () => {
    const values = [
      new Map([
        ['label', { signature: 's', value: 'x' }],
        ['locked', { signature: 'b', value: false }],
      ]),
      ['/o', Buffer.from([1, 2, 3]), Buffer.from('sécret'), 'text/plain; charset=utf8'],
      42,
      ['/a', '/b'],
    ];
    const call = encodeMethodCall(5, {
      destination: 'd.e',
      path: '/p',
      interface: 'i.f',
      member: 'M',
      body: { signature: 'a{sv}(oayays)uao', values },
    });
    expect(decodeMessage(call)?.reply.body).toEqual(values);
  });

  it('refuses bodies that run past their message, and nesting beyond the limit', () => {
    // An array claiming 1000 bytes in a 4-byte body.
    expect(() => decodeMessage(bigEndianReturn(1, 'ay', u32be(1000)))).toThrow(
      'a D-Bus array runs past its message',
    );
    // A string claiming more than its message holds.
    expect(() => decodeMessage(bigEndianReturn(1, 's', Buffer.concat([u32be(50), zeros(4)])))).toThrow(
      'a D-Bus message ends inside a value',
    );
    // A variant nesting variants 100 deep.
    const deep = Buffer.concat(Array.from({ length: 100 }, () => Buffer.from([1, 0x76, 0])));
    expect(() => decodeMessage(bigEndianReturn(1, 'v', deep))).toThrow('nested too deeply');
    // A variant with two types.
    expect(() => decodeMessage(bigEndianReturn(1, 'v', Buffer.from([2, 0x73, 0x73, 0])))).toThrow(
      'a D-Bus variant has the signature "ss"',
    );
  });
});
