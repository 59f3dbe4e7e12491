/**
 * Helpers of the golden tests: a VM over the real framework, argument builders, result
 * checks, and BCS written by hand (so that expectations never come from the VM's codec).
 */
import { expect } from 'vitest';
import { canonicalAddress, loadBundleFile, type CompiledModule, type MovePackage } from '@smi/bytecode';
import { MoveVM, MoveVector, VecKind, type MoveVmOptions, type CallArg, type CallResult, type TypedValue, type VecKindValue, type VmStatusCode } from '@smi/move-vm';
import { fixturePath } from '../../../../test-support/fixtures.js';

/** `0x…01` and `0x…02`, canonical. */
export const STD = canonicalAddress('0x1');
export const SUI = canonicalAddress('0x2');

let frameworkPackages: MovePackage[] | undefined;

/** move-stdlib and sui-framework of `fixtures/framework` (loaded once per test file). */
export function framework(): MovePackage[] {
  frameworkPackages ??= ['move-stdlib', 'sui-framework'].map((f) => loadBundleFile(fixturePath('fixtures', 'framework', f)));
  return frameworkPackages;
}

/** A fresh VM over the framework (plus `extra` packages). */
export function frameworkVm(extra: readonly MovePackage[] = [], options: Omit<MoveVmOptions, 'packages'> = {}): MoveVM {
  return MoveVM.create({ ...options, packages: [...framework(), ...extra] });
}

// ---------------------------------------------------------------------------
// Arguments

/** A runtime-value argument. */
export const val = (value: unknown): CallArg => ({ $kind: 'Value', value });
/** A BCS argument. */
export const bcsArg = (bytes: Uint8Array): CallArg => ({ $kind: 'Bcs', bytes });

const encoder = new TextEncoder();
/** UTF-8 bytes of a JS string. */
export const utf8 = (s: string): Uint8Array => encoder.encode(s);
/** A `vector<u8>` value. */
export const bytesVec = (b: Uint8Array | string | readonly number[]): MoveVector => MoveVector.fromBytes(typeof b === 'string' ? utf8(b) : Uint8Array.from(b));
/** A vector value of the given storage kind. */
export const vec = (kind: VecKindValue, xs: readonly unknown[]): MoveVector => MoveVector.fromValues(kind, xs);
/** A `0x1::string::String` (or `0x1::ascii::String`) value: a struct with one `vector<u8>` field. */
export const moveString = (s: string | Uint8Array): unknown[] => [bytesVec(s)];
export { VecKind };

// ---------------------------------------------------------------------------
// Results

type Success = Extract<CallResult, { $kind: 'Success' }>;

function describeResult(r: CallResult): string {
  if (r.$kind === 'Aborted') return `Aborted(${r.abortCode}) at ${r.location.module}::${r.location.function}@${r.location.instruction}`;
  if (r.$kind === 'Error') return `Error ${r.code}: ${r.message}${r.location ? ` at ${r.location.module}::${r.location.function}@${r.location.instruction}` : ''}`;
  return 'Success';
}

/** The result, which must be a success. */
export function ok(r: CallResult): Success {
  if (r.$kind !== 'Success') throw new Error(`expected Success, got ${describeResult(r)}`);
  return r;
}

/** Return value `i` of a successful call. */
export function ret(r: CallResult, i = 0): TypedValue {
  const s = ok(r);
  expect(s.returnValues.length).toBeGreaterThan(i);
  return s.returnValues[i];
}

/** Value of `&mut` argument `argIndex` after a successful call. */
export function mutated(r: CallResult, argIndex: number): TypedValue {
  const m = ok(r).mutatedReferences.find((x) => x.argIndex === argIndex);
  if (!m) throw new Error(`argument ${argIndex} is not a mutable reference`);
  return m.value;
}

/** Module id `0x<64 hex>::name` from a short address. */
export const moduleId = (address: string, name: string): string => `${canonicalAddress(address)}::${name}`;

/** The call aborted with `code` inside `address::module::fn`. */
export function expectAbort(r: CallResult, code: bigint, module: string, fn: string): void {
  if (r.$kind !== 'Aborted') throw new Error(`expected Aborted(${code}), got ${describeResult(r)}`);
  expect(r.abortCode).toBe(code);
  expect(`${r.location.module}::${r.location.function}`).toBe(module + '::' + fn);
}

/** The call failed with VM error `code` (inside `module::fn` when given). */
export function expectError(r: CallResult, code: VmStatusCode, module?: string, fn?: string): void {
  if (r.$kind !== 'Error') throw new Error(`expected Error ${code}, got ${describeResult(r)}`);
  expect(r.code).toBe(code);
  if (module !== undefined) {
    expect(r.location).toBeDefined();
    expect(`${r.location?.module}::${r.location?.function}`).toBe(`${module}::${fn ?? ''}`);
  }
}

/** Hex of bytes (for readable comparisons). */
export const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** The BCS of a typed value equals `expected` (compared as hex). */
export function expectBcs(v: TypedValue, expected: Uint8Array): void {
  expect(hex(v.bcs)).toBe(hex(expected));
}

/** Text of a `String` value (a struct holding a `vector<u8>`). */
export function stringOf(v: unknown): string {
  const fields = v as unknown[];
  return new TextDecoder().decode((fields[0] as MoveVector).bytes());
}

// ---------------------------------------------------------------------------
// BCS, by hand

/** Concatenation of byte arrays. */
export function concat(...parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** ULEB128 of a length or tag. */
export function uleb(n: number): Uint8Array {
  const out: number[] = [];
  let x = n;
  do {
    let b = x % 128;
    x = Math.floor(x / 128);
    if (x > 0) b += 128;
    out.push(b);
  } while (x > 0);
  return Uint8Array.from(out);
}

/** Little-endian bytes of an unsigned integer of `bits` bits. */
export function le(v: bigint | number, bits: number): Uint8Array {
  const out = new Uint8Array(bits / 8);
  let x = BigInt(v);
  for (let i = 0; i < out.length; i++) {
    out[i] = Number(x % 256n);
    x /= 256n;
  }
  if (x !== 0n) throw new RangeError(`${v} does not fit in ${bits} bits`);
  return out;
}

export const bcs = {
  bool: (b: boolean): Uint8Array => Uint8Array.of(b ? 1 : 0),
  u8: (v: number | bigint): Uint8Array => le(v, 8),
  u16: (v: number | bigint): Uint8Array => le(v, 16),
  u32: (v: number | bigint): Uint8Array => le(v, 32),
  u64: (v: number | bigint): Uint8Array => le(v, 64),
  u128: (v: number | bigint): Uint8Array => le(v, 128),
  u256: (v: number | bigint): Uint8Array => le(v, 256),
  uint: (v: number | bigint, bits: number): Uint8Array => le(v, bits),
  /** An address from hex (any length up to 64 digits). */
  address: (a: string): Uint8Array => Uint8Array.from(Buffer.from(canonicalAddress(a).slice(2), 'hex')),
  /** `vector<T>` from already-encoded elements. */
  vector: (items: readonly Uint8Array[]): Uint8Array => concat(uleb(items.length), ...items),
  /** `vector<u8>` (and `String`). */
  bytes: (b: Uint8Array | string): Uint8Array => {
    const raw = typeof b === 'string' ? utf8(b) : b;
    return concat(uleb(raw.length), raw);
  },
  /** `Option<T>` (a vector of zero or one element). */
  option: (inner: Uint8Array | null): Uint8Array => (inner === null ? Uint8Array.of(0) : concat(Uint8Array.of(1), inner)),
};

/** Largest value of an unsigned integer of `bits` bits. */
export const maxOf = (bits: number): bigint => (1n << BigInt(bits)) - 1n;

/** A runtime integer of `bits` bits: number up to u32, bigint above. */
export const int = (v: bigint | number, bits: number): number | bigint => (bits <= 32 ? Number(v) : BigInt(v));

// ---------------------------------------------------------------------------
// VM bugs found by these tests, all fixed; the tests that name them guard against
// regressions. A newly found bug gets an entry and an `it.fails` test until fixed.

export const BUG = {
  /**
   * `CALL_STACK_OVERFLOW` is located at the caller's call instruction; upstream
   * (`CallStack::push_call`) locates it at the frame that could not be pushed: the
   * callee, offset 0. Repro: `demo::recursion::forever(0)` reports `forever@<call pc>`.
   */
  STACK_OVERFLOW_LOCATION: 'B2 call-stack overflow location',
  /**
   * The operand-stack limit is checked when a frame is entered, against the callee's
   * largest possible stack use (`sp + maxStack > 1024`), not when a value is pushed as
   * upstream does: a call fails even if the big branch never runs, and the error is
   * located at instruction -1. Repro: `demo::limits::nest(500, false)`.
   */
  STACK_CHECK_AT_ENTRY: 'B3 operand stack checked at frame entry',
  /**
   * The native `0x1::vector::push_back` checks a hard-coded 262144 instead of the VM's
   * `limits.maxVectorLength` (the `VecPushBack` instruction uses the configured limit).
   * Repro: a VM with `limits: { maxVectorLength: 3 }`, `0x1::vector::push_back<u64>([1,2,3], 4)` succeeds.
   */
  NATIVE_VECTOR_LIMIT: 'B4 native push_back ignores maxVectorLength',
  /**
   * `OUT_OF_GAS` is located one instruction early: the interpreter charges an
   * instruction before advancing `pc`, and the error handler reports `pc - 1`. Upstream
   * reports the instruction being charged. Repro: upstream's `error_locations` test,
   * `entry fun loop_() { loop {} }` with a small budget: offset -1 instead of 0.
   */
  GAS_LOCATION: 'B5 out-of-gas location off by one',
} as const;
export type BugId = (typeof BUG)[keyof typeof BUG];

// ---------------------------------------------------------------------------
// Sui "clever errors": abort codes built by the compiler from `#[error]` constants.
// Layout, from the most significant bit: version (4 bits: 0b1000 = v0, 0b1100 = v1),
// reserved (4 bits), error code (8 bits, 0xff = none), line number (16 bits),
// identifier index (16 bits), constant index (16 bits); 0xffff = unavailable.

export interface CleverError {
  version: number;
  reserved: number;
  errorCode: number;
  line: number;
  identifierIndex: number;
  constantIndex: number;
}

/** Fields of a clever abort code. */
export function decodeClever(code: bigint): CleverError {
  return {
    version: Number(code >> 60n),
    reserved: Number((code >> 56n) & 0xfn),
    errorCode: Number((code >> 48n) & 0xffn),
    line: Number((code >> 32n) & 0xffffn),
    identifierIndex: Number((code >> 16n) & 0xffffn),
    constantIndex: Number(code & 0xffffn),
  };
}

/** A clever abort code from its fields (version 1). */
export function encodeClever(line: number, identifierIndex = 0xffff, constantIndex = 0xffff, errorCode = 0xff): bigint {
  return (0b1100n << 60n) | (BigInt(errorCode) << 48n) | (BigInt(line) << 32n) | (BigInt(identifierIndex) << 16n) | BigInt(constantIndex);
}

/** Text of a `vector<u8>` constant of a module (its BCS is a ULEB128 length, then the bytes). */
export function constantText(m: CompiledModule, index: number): string {
  const data = m.constantPool[index].data;
  let len = 0;
  let shift = 1;
  let pos = 0;
  for (;;) {
    const b = data[pos++];
    len += (b & 0x7f) * shift;
    if ((b & 0x80) === 0) break;
    shift *= 128;
  }
  return new TextDecoder().decode(data.subarray(pos, pos + len));
}

/** A framework module by address and name. */
export function frameworkModule(address: string, name: string): CompiledModule {
  const pkg = framework().find((p) => p.originalId === canonicalAddress(address));
  const m = pkg?.modules.find((x) => x.name === name);
  if (!m) throw new Error(`no framework module ${address}::${name}`);
  return m.module;
}

/** The `LdU64` immediates of a function that feed an `Abort` directly (its clever codes). */
export function abortImmediates(m: CompiledModule, fn: string): bigint[] {
  const def = m.functionDefs.find((d) => m.identifiers[m.functionHandles[d.function].name] === fn);
  const code = def?.code?.code ?? [];
  const out: bigint[] = [];
  code.forEach((ins, i) => {
    if (ins.$kind === 'LdU64' && code[i + 1]?.$kind === 'Abort') out.push(ins.value);
  });
  return out;
}
