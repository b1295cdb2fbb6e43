// The long connection's wire format: protobuf message `pbbp2.Frame` (proto2), hand-encoded so the
// testkit needs no protobuf library. Field numbers and types match the SDK's generated code:
//   Frame  { 1 SeqID uint64; 2 LogID uint64; 3 service int32; 4 method int32; 5 headers Header*;
//            6 payloadEncoding string; 7 payloadType string; 8 payload bytes; 9 LogIDNew string }
//   Header { 1 key string; 2 value string }

/** `method` of a frame: control frames carry ping/pong, data frames carry events and their acks. */
export const FRAME_METHOD = { control: 0, data: 1 } as const;

export interface FrameHeader {
  key: string;
  value: string;
}

/** One decoded `pbbp2.Frame`. */
export interface Frame {
  SeqID: number;
  LogID: number;
  service: number;
  method: number;
  headers: FrameHeader[];
  payloadEncoding?: string;
  payloadType?: string;
  payload?: Uint8Array;
  LogIDNew?: string;
}

const WIRE_VARINT = 0;
const WIRE_LEN = 2;

class Writer {
  private readonly parts: Uint8Array[] = [];

  varint(value: number | bigint): this {
    let v = BigInt.asUintN(64, BigInt(value));
    const bytes: number[] = [];
    while (v >= 0x80n) {
      bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    bytes.push(Number(v));
    this.parts.push(Uint8Array.from(bytes));
    return this;
  }

  tag(field: number, wire: number): this {
    return this.varint((field << 3) | wire);
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, WIRE_LEN).varint(value.byteLength);
    this.parts.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  finish(): Uint8Array {
    return Buffer.concat(this.parts);
  }
}

/** Encodes a frame exactly as `pbbp2.Frame.encode(frame).finish()` does. */
export function encodeFrame(frame: Frame): Uint8Array {
  const w = new Writer();
  w.tag(1, WIRE_VARINT).varint(frame.SeqID);
  w.tag(2, WIRE_VARINT).varint(frame.LogID);
  w.tag(3, WIRE_VARINT).varint(frame.service);
  w.tag(4, WIRE_VARINT).varint(frame.method);
  for (const header of frame.headers) {
    w.bytes(5, new Writer().string(1, header.key).string(2, header.value).finish());
  }
  if (frame.payloadEncoding !== undefined) w.string(6, frame.payloadEncoding);
  if (frame.payloadType !== undefined) w.string(7, frame.payloadType);
  if (frame.payload !== undefined) w.bytes(8, frame.payload);
  if (frame.LogIDNew !== undefined) w.string(9, frame.LogIDNew);
  return w.finish();
}

class Reader {
  pos = 0;
  constructor(private readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.buf.byteLength;
  }

  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.byteLength) throw new Error("pbbp2.Frame: truncated varint");
      const byte = this.buf[this.pos++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return result;
      shift += 7n;
    }
  }

  bytes(): Uint8Array {
    const length = Number(this.varint());
    const end = this.pos + length;
    if (end > this.buf.byteLength) throw new Error("pbbp2.Frame: truncated field");
    const out = this.buf.subarray(this.pos, end);
    this.pos = end;
    return out;
  }

  skip(wire: number): void {
    if (wire === WIRE_VARINT) this.varint();
    else if (wire === WIRE_LEN) this.bytes();
    else if (wire === 1) this.pos += 8;
    else if (wire === 5) this.pos += 4;
    else throw new Error(`pbbp2.Frame: unsupported wire type ${wire}`);
  }
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function decodeHeader(buf: Uint8Array): FrameHeader {
  const r = new Reader(buf);
  const header: FrameHeader = { key: "", value: "" };
  while (!r.done) {
    const tag = Number(r.varint());
    if (tag === 10) header.key = text(r.bytes());
    else if (tag === 18) header.value = text(r.bytes());
    else r.skip(tag & 7);
  }
  return header;
}

/** Decodes a `pbbp2.Frame`; throws when a required field (SeqID, LogID, service, method) is missing. */
export function decodeFrame(buf: Uint8Array): Frame {
  const r = new Reader(buf);
  const seen = new Set<number>();
  const frame: Frame = { SeqID: 0, LogID: 0, service: 0, method: 0, headers: [] };
  while (!r.done) {
    const tag = Number(r.varint());
    const field = tag >>> 3;
    seen.add(field);
    switch (field) {
      case 1:
        frame.SeqID = Number(r.varint());
        break;
      case 2:
        frame.LogID = Number(r.varint());
        break;
      case 3:
        frame.service = Number(BigInt.asIntN(32, r.varint()));
        break;
      case 4:
        frame.method = Number(BigInt.asIntN(32, r.varint()));
        break;
      case 5:
        frame.headers.push(decodeHeader(r.bytes()));
        break;
      case 6:
        frame.payloadEncoding = text(r.bytes());
        break;
      case 7:
        frame.payloadType = text(r.bytes());
        break;
      case 8:
        frame.payload = r.bytes().slice();
        break;
      case 9:
        frame.LogIDNew = text(r.bytes());
        break;
      default:
        r.skip(tag & 7);
    }
  }
  for (const [field, name] of [
    [1, "SeqID"],
    [2, "LogID"],
    [3, "service"],
    [4, "method"],
  ] as const) {
    if (!seen.has(field)) throw new Error(`pbbp2.Frame: missing required '${name}'`);
  }
  return frame;
}

/** The value of header `key`, if present. */
export function headerValue(frame: Frame, key: string): string | undefined {
  return frame.headers.find((h) => h.key === key)?.value;
}
