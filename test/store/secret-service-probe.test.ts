import { describe, expect, it } from 'vitest';
import { decodeMessage, encodeMethodCall } from '../../src/store/dbus-wire.js';
import { sessionBusSocket } from '../../src/store/secret-service-probe.js';

describe('sessionBusSocket', () => {
  it('reads unix path and abstract addresses, percent-decoded, skipping other transports', () => {
    expect(sessionBusSocket({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus' })).toEqual({
      path: '/run/user/1000/bus',
    });
    expect(
      sessionBusSocket({ DBUS_SESSION_BUS_ADDRESS: 'tcp:host=x,port=1;unix:abstract=/tmp/dbus-%41b,guid=1' }),
    ).toEqual({ path: '\0/tmp/dbus-Ab' });
    expect(sessionBusSocket({ DBUS_SESSION_BUS_ADDRESS: 'tcp:host=localhost,port=4' })).toEqual({
      reason: 'the D-Bus session bus address has no unix socket tokencli can use',
    });
    expect(sessionBusSocket({ XDG_RUNTIME_DIR: '/nonexistent' })).toEqual({
      reason: 'no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set',
    });
  });
});

describe('D-Bus wire format', () => {
  it('encodes a method call that its own decoder reads back as a call (no reply serial)', () => {
    const message = encodeMethodCall(7, {
      destination: 'org.freedesktop.secrets',
      path: '/org/freedesktop/secrets',
      interface: 'org.freedesktop.Secret.Service',
      member: 'ReadAlias',
      args: ['default'],
    });
    expect(message.length % 8).toBe(4); // header padded to 8, then the body: u32 length + "default\0"
    expect(message.subarray(0, 4)).toEqual(Buffer.from([0x6c, 1, 0, 1]));
    expect(message.readUInt32LE(4)).toBe(12);
    expect(message.readUInt32LE(8)).toBe(7);
    const decoded = decodeMessage(message);
    expect(decoded?.size).toBe(message.length);
    expect(decoded?.reply).toEqual({
      replySerial: undefined,
      isError: false,
      errorName: undefined,
      value: 'default',
      body: ['default'],
    });
    expect(decodeMessage(message.subarray(0, message.length - 1))).toBeUndefined();
  });

  it('decodes a big-endian error reply with its name and serial', () => {
    // Header: 'B', ERROR(3), flags 0, version 1, body length 0, serial 9, fields:
    // (REPLY_SERIAL 'u' 2), (ERROR_NAME 's' "x.Y").
    const fields = Buffer.concat([
      Buffer.from([5, 1, 0x75, 0, 0, 0, 0, 2]),
      Buffer.from([4, 1, 0x73, 0, 0, 0, 0, 3]),
      Buffer.from('x.Y\0', 'ascii'),
    ]);
    const header = Buffer.alloc(16);
    header.write('B', 0, 'ascii');
    header[1] = 3;
    header[3] = 1;
    header.writeUInt32BE(0, 4);
    header.writeUInt32BE(9, 8);
    header.writeUInt32BE(fields.length, 12);
    const message = Buffer.concat([header, fields, Buffer.alloc(4)]); // padded to 8
    expect(decodeMessage(message)).toEqual({
      reply: { replySerial: 2, isError: true, errorName: 'x.Y', value: undefined, body: [] },
      size: 16 + fields.length + 4,
    });
  });

  it('refuses bytes that are not a D-Bus message', () => {
    expect(() => decodeMessage(Buffer.alloc(16, 0x41))).toThrow('not a D-Bus message');
  });
});
