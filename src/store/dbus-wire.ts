/**
 * Just enough of the D-Bus wire format (D-Bus specification, "Message Format" and "Marshaling") to
 * send method calls to the Secret Service and read its replies: the basic types, variants, arrays,
 * dictionaries and structs, little-endian out and either byte order in. Not a general D-Bus client:
 * no file descriptors, no signals sent, one conversation at a time (secret-service-probe.ts).
 *
 * How values look in JavaScript: strings, object paths and signatures are strings; integers are
 * numbers (64-bit ones bigints); `b` is a boolean; `ay` is a Buffer; other arrays are arrays; a
 * dictionary `a{..}` is a Map; a struct is an array of its fields; a variant is a {@link Variant}.
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

/** A value with its own signature (`v`). */
export interface Variant {
  signature: string;
  value: WireValue;
}

export type WireValue =
  | string
  | number
  | bigint
  | boolean
  | Buffer
  | Variant
  | WireValue[]
  | Map<WireValue, WireValue>;

export interface MethodCall {
  destination: string;
  path: string;
  interface: string;
  member: string;
  /** String arguments (signature `s…`); ignored when `body` is given. */
  args?: string[];
  /** Typed arguments: their signature (e.g. `a{ss}`) and values. */
  body?: { signature: string; values: WireValue[] };
}

/** Where each complete type starting at `start` in `signature` ends (exclusive). */
function completeTypeEnd(signature: string, start: number): number {
  const code = signature[start];
  if (code === 'a') return completeTypeEnd(signature, start + 1);
  if (code === '(' || code === '{') {
    const close = code === '(' ? ')' : '}';
    let at = start + 1;
    while (signature[at] !== close) {
      if (at >= signature.length) throw new Error(`bad D-Bus signature "${signature}"`);
      at = completeTypeEnd(signature, at);
    }
    return at + 1;
  }
  if (code === undefined || !'ybnqiuxtdsogvh'.includes(code)) {
    throw new Error(`bad D-Bus signature "${signature}"`);
  }
  return start + 1;
}

/** Splits a signature into its complete types: `a{ss}o` → [`a{ss}`, `o`]. */
export function splitSignature(signature: string): string[] {
  const types: string[] = [];
  for (let at = 0; at < signature.length; ) {
    const end = completeTypeEnd(signature, at);
    types.push(signature.slice(at, end));
    at = end;
  }
  return types;
}

/** The alignment of a type's first byte on the wire. */
function alignmentOf(type: string): number {
  switch (type[0]) {
    case 'y':
    case 'g':
    case 'v':
      return 1;
    case 'n':
    case 'q':
      return 2;
    case 'x':
    case 't':
    case 'd':
    case '(':
    case '{':
      return 8;
    default:
      return 4; // b i u h s o a
  }
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
    this.bytes(utf8);
    this.#bytes.push(0);
  }
  signature(value: string): void {
    this.byte(value.length);
    this.bytes(Buffer.from(value, 'ascii'));
    this.#bytes.push(0);
  }
  bytes(value: Uint8Array): void {
    for (const byte of value) this.#bytes.push(byte);
  }
  /** Marshals one value of one complete type. */
  value(type: string, value: WireValue): void {
    const code = type[0];
    const mismatch = () => new TypeError(`a D-Bus "${type}" cannot be written from ${typeof value}`);
    switch (code) {
      case 's':
      case 'o':
        if (typeof value !== 'string') throw mismatch();
        this.string(value);
        return;
      case 'g':
        if (typeof value !== 'string') throw mismatch();
        this.signature(value);
        return;
      case 'y':
        if (typeof value !== 'number') throw mismatch();
        this.byte(value);
        return;
      case 'b':
        if (typeof value !== 'boolean') throw mismatch();
        this.uint32(value ? 1 : 0);
        return;
      case 'u':
        if (typeof value !== 'number') throw mismatch();
        this.uint32(value);
        return;
      case 'v': {
        if (typeof value !== 'object' || !('signature' in value)) throw mismatch();
        this.signature(value.signature);
        this.value(value.signature, value.value);
        return;
      }
      case 'a':
        this.#array(type.slice(1), value);
        return;
      case '(': {
        if (!Array.isArray(value)) throw mismatch();
        const fields = splitSignature(type.slice(1, -1));
        if (fields.length !== value.length) throw mismatch();
        this.align(8);
        for (const [i, field] of fields.entries()) this.value(field, value[i] as WireValue);
        return;
      }
      default:
        throw new TypeError(`writing a D-Bus "${type}" is not supported`);
    }
  }
  #array(element: string, value: WireValue): void {
    this.uint32(0); // the length in bytes, set below
    const lengthAt = this.length - 4;
    this.align(alignmentOf(element)); // padding before the first element is not counted
    const start = this.length;
    if (element === 'y') {
      if (!(value instanceof Uint8Array)) throw new TypeError('a D-Bus "ay" is written from a Buffer');
      this.bytes(value);
    } else if (element.startsWith('{')) {
      if (!(value instanceof Map)) throw new TypeError(`a D-Bus "a${element}" is written from a Map`);
      const [keyType = '', valueType = ''] = splitSignature(element.slice(1, -1));
      for (const [k, v] of value) {
        this.align(8);
        this.value(keyType, k);
        this.value(valueType, v);
      }
    } else {
      if (!Array.isArray(value)) throw new TypeError(`a D-Bus "a${element}" is written from an array`);
      for (const item of value) this.value(element, item);
    }
    this.setUint32(lengthAt, this.length - start);
  }
  toBuffer(): Buffer {
    return Buffer.from(this.#bytes);
  }
}

/**
 * Marshals a message body: `values` by `signature`, little-endian, aligned as when it follows a
 * header (which always ends 8-aligned). Throws a TypeError when a value does not fit its type.
 */
export function encodeBody(signature: string, values: WireValue[]): Buffer {
  const types = splitSignature(signature);
  if (types.length !== values.length) {
    throw new TypeError(`${values.length} values for the D-Bus signature "${signature}"`);
  }
  const body = new Writer();
  for (const [i, type] of types.entries()) body.value(type, values[i] as WireValue);
  return body.toBuffer();
}

/** Encodes one METHOD_CALL message with the given serial. */
export function encodeMethodCall(serial: number, call: MethodCall): Buffer {
  const { signature, values } = call.body ?? {
    signature: 's'.repeat(call.args?.length ?? 0),
    values: call.args ?? [],
  };
  const bodyBytes = encodeBody(signature, values);

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
  if (signature) field(Field.signature, 'g', () => m.signature(signature));
  m.setUint32(12, m.length - fieldsStart);
  m.align(8); // the body starts 8-aligned
  return Buffer.concat([m.toBuffer(), bodyBytes]);
}

export interface Reply {
  /** The serial of the call this answers; undefined for signals and calls. */
  replySerial: number | undefined;
  isError: boolean;
  errorName: string | undefined;
  /** The first argument when it is a string or object path, or a variant holding one or a boolean. */
  value: string | boolean | undefined;
  /** Every argument, by the message's body signature. */
  body: WireValue[];
}

const align = (n: number, to: number) => Math.ceil(n / to) * to;

/** An unmarshaller over one message; offsets are from the start of the message. */
class Reader {
  at = 0;
  constructor(
    private readonly buffer: Buffer,
    private readonly little: boolean,
    /** Where the message ends: nothing is read past it. */
    private readonly end: number,
  ) {}

  #take(size: number, alignment = size): number {
    const start = align(this.at, alignment);
    if (start + size > this.end) throw new Error('a D-Bus message ends inside a value');
    this.at = start + size;
    return start;
  }
  uint32(): number {
    const at = this.#take(4);
    return this.little ? this.buffer.readUInt32LE(at) : this.buffer.readUInt32BE(at);
  }
  string(): string {
    const length = this.uint32();
    const at = this.#take(length + 1, 1);
    return this.buffer.toString('utf8', at, at + length);
  }
  signature(): string {
    const length = this.buffer[this.#take(1)] ?? 0;
    const at = this.#take(length + 1, 1);
    return this.buffer.toString('ascii', at, at + length);
  }
  /** Reads one value of one complete type. */
  value(type: string, depth = 0): WireValue {
    // The specification caps nesting at 64 (32 arrays + 32 structs); variants count too.
    if (depth > 64) throw new Error('a D-Bus value is nested too deeply');
    const b = this.buffer;
    switch (type[0]) {
      case 'y':
        return b[this.#take(1)] ?? 0;
      case 'b':
        return this.uint32() !== 0;
      case 'n': {
        const at = this.#take(2);
        return this.little ? b.readInt16LE(at) : b.readInt16BE(at);
      }
      case 'q': {
        const at = this.#take(2);
        return this.little ? b.readUInt16LE(at) : b.readUInt16BE(at);
      }
      case 'i': {
        const at = this.#take(4);
        return this.little ? b.readInt32LE(at) : b.readInt32BE(at);
      }
      case 'u':
      case 'h':
        return this.uint32();
      case 'x': {
        const at = this.#take(8);
        return this.little ? b.readBigInt64LE(at) : b.readBigInt64BE(at);
      }
      case 't': {
        const at = this.#take(8);
        return this.little ? b.readBigUInt64LE(at) : b.readBigUInt64BE(at);
      }
      case 'd': {
        const at = this.#take(8);
        return this.little ? b.readDoubleLE(at) : b.readDoubleBE(at);
      }
      case 's':
      case 'o':
        return this.string();
      case 'g':
        return this.signature();
      case 'v': {
        const signature = this.signature();
        const inner = splitSignature(signature);
        if (inner.length !== 1) throw new Error(`a D-Bus variant has the signature "${signature}"`);
        return { signature, value: this.value(signature, depth + 1) };
      }
      case 'a':
        return this.#array(type.slice(1), depth);
      case '(': {
        this.#take(0, 8);
        return splitSignature(type.slice(1, -1)).map((field) => this.value(field, depth + 1));
      }
      default:
        throw new Error(`reading a D-Bus "${type}" is not supported`);
    }
  }
  #array(element: string, depth: number): WireValue {
    const length = this.uint32();
    const start = this.#take(0, alignmentOf(element));
    const end = start + length;
    if (end > this.end) throw new Error('a D-Bus array runs past its message');
    if (element === 'y') {
      this.at = end;
      return Buffer.from(this.buffer.subarray(start, end));
    }
    if (element.startsWith('{')) {
      const [keyType = '', valueType = ''] = splitSignature(element.slice(1, -1));
      const map = new Map<WireValue, WireValue>();
      while (this.at < end) {
        this.#take(0, 8);
        const key = this.value(keyType, depth + 1);
        map.set(key, this.value(valueType, depth + 1));
      }
      return map;
    }
    const items: WireValue[] = [];
    while (this.at < end) items.push(this.value(element, depth + 1));
    if (this.at !== end) throw new Error('a D-Bus array does not end where its length says');
    return items;
  }
}

/** The first argument as Reply.value has it. */
function firstValue(body: WireValue[]): Reply['value'] {
  const first = body[0];
  if (typeof first === 'string') return first;
  if (typeof first === 'object' && first !== null && 'signature' in first) {
    const inner = first.value;
    if (typeof inner === 'string' || typeof inner === 'boolean') return inner;
  }
  return undefined;
}

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
    body: [],
  };
  let bodySignature = '';
  const header = new Reader(buffer, little, fieldsEnd);
  header.at = 16;
  while (align(header.at, 8) < fieldsEnd) {
    const [code, variant] = header.value('(yv)') as [number, Variant];
    if (code === Field.replySerial && typeof variant.value === 'number') reply.replySerial = variant.value;
    else if (code === Field.errorName && typeof variant.value === 'string') reply.errorName = variant.value;
    else if (code === Field.signature && typeof variant.value === 'string') bodySignature = variant.value;
  }

  const reader = new Reader(buffer, little, size);
  reader.at = bodyStart;
  // Alignment in the body is relative to the message start, which bodyStart (8-aligned) keeps.
  for (const argType of splitSignature(bodySignature)) reply.body.push(reader.value(argType));
  reply.value = firstValue(reply.body);
  if (type !== MessageType.methodReturn && type !== MessageType.error) reply.replySerial = undefined;
  return { reply, size };
}
