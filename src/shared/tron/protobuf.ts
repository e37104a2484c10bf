/**
 * A minimal protobuf wire reader for the signed bytes of a transaction.
 * Integers come back as bigint so no amount is ever rounded through a JS
 * number; every malformed input throws ProtobufError (callers turn it into
 * a refusal).
 */

export class ProtobufError extends Error {
  override name = "ProtobufError";
}

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_FIXED32 = 5;

export interface WireField {
  field: number;
  wire: number;
  /** WIRE_VARINT: the value. */
  int: bigint;
  /** WIRE_BYTES / fixed: the payload. */
  bytes: Uint8Array;
}

const MAX_VARINT_BYTES = 10;

function readVarint(buf: Uint8Array, start: number): [bigint, number] {
  let value = 0n;
  let shift = 0n;
  for (let i = start; i < buf.length && i - start < MAX_VARINT_BYTES; i++) {
    const byte = buf[i]!;
    value |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [BigInt.asUintN(64, value), i + 1];
    shift += 7n;
  }
  throw new ProtobufError("truncated or overlong varint");
}

/** Every field of one message, in order; repeated fields appear once per occurrence. */
export function readFields(buf: Uint8Array): WireField[] {
  const fields: WireField[] = [];
  let i = 0;
  while (i < buf.length) {
    const [key, afterKey] = readVarint(buf, i);
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (field === 0 || key >> 3n > 0x1fffffffn) throw new ProtobufError("invalid field number");
    i = afterKey;
    if (wire === WIRE_VARINT) {
      const [int, next] = readVarint(buf, i);
      fields.push({ field, wire, int, bytes: new Uint8Array(0) });
      i = next;
    } else if (wire === WIRE_BYTES) {
      const [len, next] = readVarint(buf, i);
      if (len > BigInt(buf.length - next)) throw new ProtobufError("length runs past the end");
      const end = next + Number(len);
      fields.push({ field, wire, int: 0n, bytes: buf.subarray(next, end) });
      i = end;
    } else if (wire === WIRE_FIXED64 || wire === WIRE_FIXED32) {
      const size = wire === WIRE_FIXED64 ? 8 : 4;
      if (i + size > buf.length) throw new ProtobufError("fixed field runs past the end");
      fields.push({ field, wire, int: 0n, bytes: buf.subarray(i, i + size) });
      i += size;
    } else {
      throw new ProtobufError(`unsupported wire type ${wire}`);
    }
  }
  return fields;
}

/** int64 as protobuf stores it (two's complement in a uint64 varint). */
export function asInt64(v: bigint): bigint {
  return BigInt.asIntN(64, v);
}

/** Bytes a varint length prefix takes: used to size a serialized transaction. */
export function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 0x80);
    size++;
  }
  return size;
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}
