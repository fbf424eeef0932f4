/**
 * Just enough of the D-Bus wire format (D-Bus specification, "Message Format") to send method calls
 * whose arguments are strings and to read the replies the Secret Service probe needs: a string or
 * object path, a boolean variant, or an error name. Not a general D-Bus client.
 */

const MessageType = { methodCall: 1, methodReturn: 2, error: 3 } as const;

/** Header field codes. */
const Field = {
  path: 1,
  interface: 2,
  member: 3,
  errorName: 4,
  replySerial: 5,
  destination: 6,
  signature: 8,
} as const;

export interface MethodCall {
  destination: string;
  path: string;
  interface: string;
  member: string;
  /** String arguments (signature `s…`). */
  args?: string[];
}

/** A little-endian marshaller; offsets are from the start of the message, as alignment requires. */
class Writer {
  readonly #bytes: number[] = [];
  get length(): number {
    return this.#bytes.length;
  }
  align(n: number): void {
    while (this.#bytes.length % n !== 0) this.#bytes.push(0);
  }
  byte(value: number): void {
    this.#bytes.push(value & 0xff);
  }
  uint32(value: number): void {
    this.align(4);
    this.#bytes.push(value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff);
  }
  setUint32(offset: number, value: number): void {
    this.#bytes.splice(
      offset,
      4,
      value & 0xff,
      (value >>> 8) & 0xff,
      (value >>> 16) & 0xff,
      (value >>> 24) & 0xff,
    );
  }
  string(value: string): void {
    const utf8 = Buffer.from(value, 'utf8');
    this.uint32(utf8.length);
    this.#bytes.push(...utf8, 0);
  }
  signature(value: string): void {
    this.byte(value.length);
    this.#bytes.push(...Buffer.from(value, 'ascii'), 0);
  }
  toBuffer(): Buffer {
    return Buffer.from(this.#bytes);
  }
}

/** Encodes one METHOD_CALL message with the given serial. */
export function encodeMethodCall(serial: number, call: MethodCall): Buffer {
  const args = call.args ?? [];
  const body = new Writer();
  for (const arg of args) body.string(arg);
  const bodyBytes = body.toBuffer();

  const m = new Writer();
  m.byte(0x6c); // 'l': little endian
  m.byte(MessageType.methodCall);
  m.byte(0); // flags
  m.byte(1); // protocol version
  m.uint32(bodyBytes.length);
  m.uint32(serial);
  m.uint32(0); // header field array length, set below
  const fieldsStart = m.length;
  const field = (code: number, type: string, write: () => void) => {
    m.align(8); // each (code, variant) struct is 8-aligned
    m.byte(code);
    m.signature(type);
    write();
  };
  field(Field.path, 'o', () => m.string(call.path));
  field(Field.interface, 's', () => m.string(call.interface));
  field(Field.member, 's', () => m.string(call.member));
  field(Field.destination, 's', () => m.string(call.destination));
  if (args.length > 0) field(Field.signature, 'g', () => m.signature('s'.repeat(args.length)));
  m.setUint32(12, m.length - fieldsStart);
  m.align(8); // the body starts 8-aligned
  return Buffer.concat([m.toBuffer(), bodyBytes]);
}

export interface Reply {
  /** The serial of the call this answers; undefined for signals and calls. */
  replySerial: number | undefined;
  isError: boolean;
  errorName: string | undefined;
  /** The first argument when it is a string, object path or boolean variant. */
  value: string | boolean | undefined;
}

const align = (n: number, to: number) => Math.ceil(n / to) * to;

/**
 * Decodes the first complete message in `buffer`; returns it and the bytes it used, or undefined
 * when more bytes are needed. Throws on a message it cannot read.
 */
export function decodeMessage(buffer: Buffer): { reply: Reply; size: number } | undefined {
  if (buffer.length < 16) return undefined;
  const little = buffer[0] === 0x6c;
  if (!little && buffer[0] !== 0x42) throw new Error('not a D-Bus message');
  const u32 = (at: number) => (little ? buffer.readUInt32LE(at) : buffer.readUInt32BE(at));
  const type = buffer[1];
  const bodyLength = u32(4);
  const fieldsEnd = 16 + u32(12);
  const bodyStart = align(fieldsEnd, 8);
  const size = bodyStart + bodyLength;
  if (buffer.length < size) return undefined;

  const reply: Reply = {
    replySerial: undefined,
    isError: type === MessageType.error,
    errorName: undefined,
    value: undefined,
  };
  let bodySignature = '';
  let at = 16;
  const readString = () => {
    at = align(at, 4);
    const length = u32(at);
    const text = buffer.toString('utf8', at + 4, at + 4 + length);
    at += 4 + length + 1;
    return text;
  };
  const readSignature = () => {
    const length = buffer[at] ?? 0;
    const text = buffer.toString('ascii', at + 1, at + 1 + length);
    at += length + 2;
    return text;
  };
  while (at < fieldsEnd) {
    at = align(at, 8);
    const code = buffer[at++];
    const type = readSignature();
    let value: string | number;
    if (type === 's' || type === 'o') value = readString();
    else if (type === 'g') value = readSignature();
    else if (type === 'u') {
      at = align(at, 4);
      value = u32(at);
      at += 4;
    } else throw new Error(`unexpected header field type ${type}`);
    if (code === Field.replySerial) reply.replySerial = value as number;
    else if (code === Field.errorName) reply.errorName = value as string;
    else if (code === Field.signature) bodySignature = value as string;
  }

  at = bodyStart;
  if (bodySignature.startsWith('s') || bodySignature.startsWith('o')) reply.value = readString();
  else if (bodySignature.startsWith('v')) {
    const inner = readSignature();
    if (inner === 'b') reply.value = u32(align(at, 4)) !== 0;
    else if (inner === 's' || inner === 'o') reply.value = readString();
  }
  if (type !== MessageType.methodReturn && type !== MessageType.error) reply.replySerial = undefined;
  return { reply, size };
}
