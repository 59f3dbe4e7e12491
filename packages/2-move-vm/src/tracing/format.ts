/**
 * The upstream Move trace format (`move-trace-format`, trace versions 2 and 3): typed
 * records with exactly the JSON shape `sui move test --trace-execution` writes, one
 * record per line, plus a JSON writer and reader that keep big integers exact (u64,
 * u128 values are raw JSON numbers in the format; u256 values are their 32 little-endian bytes).
 */

/** An integer of the format: small ones as numbers, wide ones (u64+) as bigints. */
export type TraceInt = number | bigint;

/** A type tag as serde writes upstream's `TypeTag`. */
export type TraceTypeTag = 'bool' | 'u8' | 'u16' | 'u32' | 'u64' | 'u128' | 'u256' | 'address' | 'signer' | { vector: TraceTypeTag } | { struct: TraceStructTag };

/** Upstream `StructTag`: addresses are 64 hex digits without `0x`. */
export interface TraceStructTag {
  address: string;
  module: string;
  name: string;
  type_args: TraceTypeTag[];
}

/** Upstream `SerializableMoveValue` (`{"type": ..., "value": ...}`). */
export type TraceMoveValue =
  | { type: 'Bool'; value: boolean }
  | { type: 'U8' | 'U16' | 'U32' | 'U64' | 'U128'; value: TraceInt }
  /** Its 32 bytes, little-endian (move-core-types' `U256` serializes as `[u8; 32]`). */
  | { type: 'U256'; value: number[] }
  | { type: 'Address'; value: string }
  | { type: 'Vector'; value: TraceMoveValue[] }
  | { type: 'Struct'; value: { type_: TraceStructTag; fields: [string, TraceMoveValue][] } }
  | { type: 'Variant'; value: { type_: TraceStructTag; variant_name: string; tag: number; fields: [string, TraceMoveValue][] } };

/**
 * Where a reference points: a local of a frame (frame id = trace index of its
 * `OpenFrame`), a field / element of another location, or data loaded by a native
 * (identified by the trace index of its `DataLoad`).
 */
export type TraceLocation = { Local: [number, number] } | { Indexed: [TraceLocation, number] } | { Global: number };

/** A value on the stack or in a local: a plain value, or a reference with its root's snapshot. */
export type TraceValue =
  | { RuntimeValue: { value: TraceMoveValue } }
  | { ImmRef: { location: TraceLocation; snapshot: TraceMoveValue } }
  | { MutRef: { location: TraceLocation; snapshot: TraceMoveValue } };

/** Upstream `RefType`. */
export type TraceRefType = 'Imm' | 'Mut';

/** Upstream `TypeTagWithRefs`. */
export interface TraceTypeTagWithRefs {
  type_: TraceTypeTag;
  ref_type: TraceRefType | null;
}

/** Upstream `Frame` (`version_id` from trace version 3 on). */
export interface TraceFrame {
  frame_id: number;
  function_name: string;
  module: { address: string; name: string };
  version_id?: string;
  binary_member_index: number;
  type_instantiation: TraceTypeTag[];
  parameters: TraceValue[];
  return_types: TraceTypeTagWithRefs[];
  locals_types: TraceTypeTagWithRefs[];
  is_native: boolean;
}

/** Upstream `Effect`. */
export type TraceEffect =
  | { Pop: TraceValue }
  | { Push: TraceValue }
  | { Read: { location: TraceLocation; root_value_read: TraceValue; moved: boolean } }
  | { Write: { location: TraceLocation; root_value_after_write: TraceValue } }
  | { DataLoad: { ref_type: TraceRefType; location: TraceLocation; snapshot: TraceMoveValue } }
  | { ExecutionError: string };

/** One line of a trace (upstream `TraceEvent`), after the `{"version":N}` header. */
export type TraceRecord =
  | { OpenFrame: { frame: TraceFrame; gas_left: TraceInt } }
  | { CloseFrame: { frame_id: number; return_: TraceValue[]; gas_left: TraceInt } }
  | { Instruction: { type_parameters: TraceTypeTag[]; pc: number; gas_left: TraceInt; instruction: string } }
  | { Effect: TraceEffect };

/** A JSON value whose numbers may be bigints (what {@link parseTraceJson} returns). */
export type TraceJson = null | boolean | number | bigint | string | TraceJson[] | { [key: string]: TraceJson };

/**
 * JSON text of a value, writing bigints as raw numbers (no quotes, no precision loss).
 * Keys keep their insertion order, as serde writes struct fields in declaration order.
 */
export function stringifyTraceJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'bigint':
      return v.toString();
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'string':
      return JSON.stringify(v);
    case 'object': {
      if (Array.isArray(v)) return `[${v.map(stringifyTraceJson).join(',')}]`;
      const parts: string[] = [];
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (x === undefined) continue;
        parts.push(`${JSON.stringify(k)}:${stringifyTraceJson(x)}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      return 'null';
  }
}

/**
 * Parse JSON text losslessly: integers beyond 2^53 become bigints (others stay numbers),
 * so the u64/u128/u256 values of a trace keep every digit.
 * @throws {SyntaxError} on malformed input.
 */
export function parseTraceJson(text: string): TraceJson {
  let i = 0;
  const fail = (msg: string): never => {
    throw new SyntaxError(`${msg} at offset ${i}`);
  };
  const ws = (): void => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  const value = (): TraceJson => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const out: { [key: string]: TraceJson } = {};
      ws();
      if (text[i] === '}') {
        i++;
        return out;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a key');
        const k = str();
        ws();
        if (text[i++] !== ':') fail('expected ":"');
        out[k] = value();
        ws();
        const d = text[i++];
        if (d === '}') return out;
        if (d !== ',') fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      i++;
      const out: TraceJson[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return out;
      }
      for (;;) {
        out.push(value());
        ws();
        const d = text[i++];
        if (d === ']') return out;
        if (d !== ',') fail('expected "," or "]"');
      }
    }
    if (c === '"') return str();
    if (text.startsWith('true', i)) {
      i += 4;
      return true;
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return false;
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return null;
    }
    const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) return fail('unexpected character');
    i += m[0].length;
    if (m[1] === undefined && m[2] === undefined) {
      const n = Number(m[0]);
      return Number.isSafeInteger(n) ? n : BigInt(m[0]);
    }
    return Number(m[0]);
  };
  const str = (): string => {
    const start = i;
    i++;
    let simple = true;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') {
        simple = false;
        i++;
      }
      i++;
    }
    if (i >= text.length) fail('unterminated string');
    i++;
    const raw = text.slice(start, i);
    return simple ? raw.slice(1, -1) : (JSON.parse(raw) as string);
  };
  const v = value();
  ws();
  if (i !== text.length) fail('trailing characters');
  return v;
}

/** A trace file's content: its version and its records. */
export interface ParsedTrace {
  version: number;
  records: TraceJson[];
}

/** Parse a trace file (JSON lines: `{"version":N}` then one record per line). */
export function parseTraceLines(text: string): ParsedTrace {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) throw new SyntaxError('empty trace');
  const head = parseTraceJson(lines[0]);
  const version = typeof head === 'object' && head !== null && !Array.isArray(head) && typeof head.version === 'number' ? head.version : NaN;
  if (Number.isNaN(version)) throw new SyntaxError('trace does not start with {"version":N}');
  return { version, records: lines.slice(1).map(parseTraceJson) };
}
