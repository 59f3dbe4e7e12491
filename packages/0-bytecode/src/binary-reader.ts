/**
 * A bounded cursor over a byte array, with the ULEB128 rules of the Move binary format.
 * Every read past `end` fails with a {@link BytecodeError}; nothing reads outside the
 * window it was given.
 */
import { BytecodeError, type BytecodeStatusCode } from './errors.js';

const TWO_POW_32 = 2 ** 32;

/** Cursor over `bytes[start, end)`, positions relative to the whole array. */
export class BinaryReader {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  /** Absolute position of the next byte. */
  pos: number;
  /** Absolute end (exclusive) of the readable window. */
  readonly end: number;
  /** Unflavored binary version of the module being read (0 while reading the header). */
  version: number;

  constructor(bytes: Uint8Array, start = 0, end = bytes.length, version = 0) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = start;
    this.end = end;
    this.version = version;
  }

  /** A new reader over `[start, end)` of the same bytes. */
  window(start: number, end: number): BinaryReader {
    return new BinaryReader(this.bytes, start, end, this.version);
  }

  /** Bytes left in the window. */
  remaining(): number {
    return this.end - this.pos;
  }

  /** Throw a {@link BytecodeError} at the current position. */
  fail(code: BytecodeStatusCode, message = ''): never {
    throw new BytecodeError(code, message, { offset: this.pos });
  }

  /** Read one byte; at the end fail with MALFORMED and `eofMessage`. */
  u8(eofMessage = 'Unexpected EOF'): number {
    if (this.pos >= this.end) this.fail('MALFORMED', eofMessage);
    return this.bytes[this.pos++];
  }

  /** Little-endian u16 (BAD_U16 at the end). */
  u16(): number {
    if (this.end - this.pos < 2) this.fail('BAD_U16');
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }

  /** Little-endian u32 (BAD_U32 at the end). */
  u32(code: BytecodeStatusCode = 'BAD_U32', message = ''): number {
    if (this.end - this.pos < 4) this.fail(code, message);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  /** Little-endian u64 as bigint (BAD_U64 at the end). */
  u64(): bigint {
    if (this.end - this.pos < 8) this.fail('BAD_U64');
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** Little-endian u128 as bigint (BAD_U128 at the end). */
  u128(): bigint {
    if (this.end - this.pos < 16) this.fail('BAD_U128');
    const lo = this.view.getBigUint64(this.pos, true);
    const hi = this.view.getBigUint64(this.pos + 8, true);
    this.pos += 16;
    return (hi << 64n) | lo;
  }

  /** Little-endian u256 as bigint (BAD_U256 at the end). */
  u256(): bigint {
    if (this.end - this.pos < 32) this.fail('BAD_U256');
    let v = 0n;
    for (let i = 24; i >= 0; i -= 8) v = (v << 64n) | this.view.getBigUint64(this.pos + i, true);
    this.pos += 32;
    return v;
  }

  /**
   * ULEB128 value bounded by `max`, following the upstream rules: at most 10 bytes,
   * no bits beyond 64, no redundant trailing zero byte. Any failure is MALFORMED.
   */
  uleb(max: number): number {
    const start = this.pos;
    const bytes = this.bytes;
    // Fast path: one byte.
    if (start < this.end) {
      const b = bytes[start];
      if (b < 0x80) {
        this.pos = start + 1;
        if (b > max) this.fail('MALFORMED', 'Uleb greater than max requested');
        return b;
      }
    }
    let value = 0;
    let shift = 0;
    let tooBig = false;
    while (this.pos < this.end) {
      const byte = bytes[this.pos++];
      const cur = byte & 0x7f;
      if (shift === 63 && cur > 1) this.fail('MALFORMED', 'Bad Uleb');
      if (shift >= 32 && cur !== 0) tooBig = true;
      else value += cur * 2 ** shift;
      if ((byte & 0x80) === 0) {
        if (shift > 0 && cur === 0) this.fail('MALFORMED', 'Bad Uleb');
        if (tooBig || value > max) this.fail('MALFORMED', 'Uleb greater than max requested');
        return value;
      }
      shift += 7;
      if (shift > 64) break;
    }
    return this.fail('MALFORMED', 'Bad Uleb');
  }

  /** Copy of the next `n` bytes, or `null` when fewer remain. */
  take(n: number): Uint8Array | null {
    if (this.end - this.pos < n) {
      this.pos = this.end;
      return null;
    }
    const out = this.bytes.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}

/** Largest value a table offset or size may take. */
export const U32_MAX = TWO_POW_32 - 1;
