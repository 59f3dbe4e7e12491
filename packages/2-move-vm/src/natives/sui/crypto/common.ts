/**
 * Shared plumbing of the Sui crypto natives: argument access, gas charging from the cost
 * table, feature flags, aborts, and small byte/number helpers.
 */
import { NativeAbort, VmError } from '../../../errors.js';
import { peekRef } from '../../../values/value.js';
import { MoveVector, VecKind } from '../../../values/vector.js';
import type { NativeContext } from '../../registry.js';
import type { CryptoCostTable, CryptoFeatures } from './config.js';

/** What every crypto native sees besides the VM context: costs, features, permissive mode. */
export interface CryptoEnv {
  /** `true`: every verification native returns `true` (inputs are not checked). */
  readonly permissive: boolean;
  readonly costs: CryptoCostTable;
  readonly features: CryptoFeatures;
}

/** The bytes of a `vector<u8>` argument (value or reference). */
export function bytesArg(arg: unknown): Uint8Array {
  const v = peekRef(arg);
  if (!(v instanceof MoveVector)) throw new VmError('UNKNOWN_INVARIANT_VIOLATION_ERROR', 'crypto native: expected vector<u8>');
  return v.bytes();
}

/** The elements of a `vector<vector<u8>>` argument, as byte arrays. */
export function bytesVecArg(arg: unknown): Uint8Array[] {
  const v = peekRef(arg);
  if (!(v instanceof MoveVector)) throw new VmError('UNKNOWN_INVARIANT_VIOLATION_ERROR', 'crypto native: expected vector<vector<u8>>');
  return v.toArray().map(bytesArg);
}

/** A `u8` argument. */
export function u8Arg(arg: unknown): number {
  return Number(peekRef(arg));
}

/** A `u64`/`u256` argument. */
export function bigArg(arg: unknown): bigint {
  return BigInt(peekRef(arg) as bigint);
}

/** A new `vector<u8>` value. */
export function vecU8(bytes: Uint8Array): MoveVector {
  return MoveVector.fromBytes(bytes);
}

/** A new vector of boxed values (`vector<vector<u8>>`, vectors of structs). */
export function vecBoxed(values: readonly unknown[]): MoveVector {
  return MoveVector.fromValues(VecKind.Boxed, values);
}

/** Abort the native with `code` (Move `abort code` in the native's module). */
export function abort(code: number | bigint): never {
  throw new NativeAbort(code);
}

/** A cost parameter; an unset one fails like upstream's `Option` unwrap in natives. */
export function cost(env: CryptoEnv, name: string): number {
  const v = env.costs[name];
  if (v === undefined) throw new VmError('UNKNOWN_INVARIANT_VIOLATION_ERROR', `crypto native: gas cost ${name} is not set`);
  return v;
}

/** Charge parameter `name`. */
export function chargeParam(ctx: NativeContext, env: CryptoEnv, name: string): void {
  ctx.charge(cost(env, name));
}

/** Charge `perByte × len + perBlock × ⌈len / blockSize⌉` (the usual message-size charge). */
export function chargeBytesAndBlocks(ctx: NativeContext, env: CryptoEnv, perByte: string, perBlock: string, len: number, blockSize: number): void {
  ctx.charge(cost(env, perByte) * len + cost(env, perBlock) * Math.ceil(len / blockSize));
}

/** Integer from big-endian bytes. */
export function beToBigInt(b: Uint8Array): bigint {
  let x = 0n;
  for (const byte of b) x = (x << 8n) | BigInt(byte);
  return x;
}

/** Integer from little-endian bytes. */
export function leToBigInt(b: Uint8Array): bigint {
  let x = 0n;
  for (let i = b.length - 1; i >= 0; i--) x = (x << 8n) | BigInt(b[i]);
  return x;
}

/** `x` as `len` big-endian bytes (`x` must fit). */
export function bigIntToBe(x: bigint, len: number): Uint8Array {
  const out = new Uint8Array(len);
  for (let i = len - 1; i >= 0; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

/** `x` as `len` little-endian bytes (`x` must fit). */
export function bigIntToLe(x: bigint, len: number): Uint8Array {
  const out = new Uint8Array(len);
  for (let i = 0; i < len; i++) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

/** Concatenation of byte arrays. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Byte-wise equality. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Hex of bytes (lowercase, no prefix). */
export function toHex(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

/** Bytes of a hex string (no prefix). */
export function fromHex(h: string): Uint8Array {
  const out = new Uint8Array(h.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** `a mod m` in `[0, m)`. */
export function mod(a: bigint, m: bigint): bigint {
  const r = a % m;
  return r < 0n ? r + m : r;
}

/** Modular inverse (`m` prime, `a` not divisible by `m`). */
export function invert(a: bigint, m: bigint): bigint {
  let [x, y, u, v] = [mod(a, m), m, 1n, 0n];
  while (x !== 0n) {
    const q = y / x;
    [x, y, u, v] = [y - q * x, x, v - q * u, u];
  }
  return mod(v, m);
}
