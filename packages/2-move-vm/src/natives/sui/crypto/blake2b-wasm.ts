/**
 * BLAKE2b-256 in WebAssembly, generated here at first use: one function whose 12 rounds are
 * unrolled over 64-bit locals (WebAssembly has native `i64` add, xor and rotate, which the
 * JS version emulates with pairs of 32-bit halves). About 5x the JS version's speed. The
 * module is about 10 KB; where a synchronous compile of that size is refused (a browser's
 * main thread) or WebAssembly is missing, {@link wasmBlake2b} is `null` and callers use the
 * JS version. Tests compare both with `@noble/hashes` byte for byte.
 *
 * Memory layout: the digest is written at 0..32; the input is copied at {@link INPUT}, and
 * zero-padded to whole 128-byte blocks (the exported function reads whole blocks).
 */
import { pushUleb128 } from '@smi/bytecode';

/** Where the input starts in the module's memory. */
const INPUT = 64;

const IV = [0x6a09e667f3bcc908n, 0xbb67ae8584caa73bn, 0x3c6ef372fe94f82bn, 0xa54ff53a5f1d36f1n, 0x510e527fade682d1n, 0x9b05688c2b3e6c1fn, 0x1f83d9abfb41bd6bn, 0x5be0cd19137e2179n];

/** BLAKE2b's message schedule (rounds 10 and 11 repeat rows 0 and 1). */
export const BLAKE2B_SIGMA: readonly (readonly number[])[] = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
  [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
  [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
  [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
  [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
  [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
  [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
  [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

// Opcodes used.
const I = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  brIf: 0x0d,
  void: 0x40,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i64Load: 0x29,
  i64Store: 0x37,
  i32Const: 0x41,
  i64Const: 0x42,
  i32LtU: 0x49,
  i32GeU: 0x4f,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Select: 0x1b,
  i64Add: 0x7c,
  i64Xor: 0x85,
  i64Rotr: 0x8a,
  i64ExtendI32U: 0xad,
} as const;

const uleb = (n: number): number[] => pushUleb128([], n);

function sleb64(v: bigint): number[] {
  let x = BigInt.asIntN(64, v);
  const out: number[] = [];
  for (;;) {
    const b = Number(x & 0x7fn);
    x >>= 7n;
    if ((x === 0n && (b & 0x40) === 0) || (x === -1n && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

// Locals: 0 ptr, 1 len (params, i32); 2 p, 3 end (i32); then i64: h0..h7, v0..v15, m0..m15.
const P = 2;
const END = 3;
const H = 4;
const V = H + 8;
const M = V + 16;
const I64_LOCALS = 8 + 16 + 16;

/** The body of `hash(ptr, len)`: BLAKE2b-256 of `len` bytes at `ptr` (zero-padded), digest at 0. */
function hashBody(): number[] {
  const c: number[] = [];
  const get = (l: number): void => void c.push(I.localGet, ...uleb(l));
  const set = (l: number): void => void c.push(I.localSet, ...uleb(l));
  const i64 = (v: bigint): void => void c.push(I.i64Const, ...sleb64(v));
  // h = IV, h0 ^= 0x01010020 (digest length 32, no key, fanout 1, depth 1).
  for (let i = 0; i < 8; i++) {
    i64(i === 0 ? IV[0] ^ 0x01010020n : IV[i]);
    set(H + i);
  }
  get(0);
  set(P);
  get(0);
  get(1);
  c.push(I.i32Add);
  set(END);
  c.push(I.loop, I.void);
  for (let i = 0; i < 16; i++) {
    get(P);
    c.push(I.i64Load, 3, ...uleb(8 * i));
    set(M + i);
  }
  for (let i = 0; i < 8; i++) {
    get(H + i);
    set(V + i);
    i64(IV[i]);
    set(V + 8 + i);
  }
  // v12 ^= bytes hashed so far: min(p + 128, end) - ptr.
  get(V + 12);
  get(P);
  c.push(I.i32Const, 0x80, 0x01); // 128
  c.push(I.i32Add);
  get(END);
  get(P);
  c.push(I.i32Const, 0x80, 0x01, I.i32Add);
  get(END);
  c.push(I.i32LtU, I.i32Select);
  get(0);
  c.push(I.i32Sub, I.i64ExtendI32U, I.i64Xor);
  set(V + 12);
  // The last block (p + 128 >= end): v14 = ~v14.
  get(P);
  c.push(I.i32Const, 0x80, 0x01, I.i32Add);
  get(END);
  c.push(I.i32GeU, I.if, I.void);
  get(V + 14);
  i64(-1n);
  c.push(I.i64Xor);
  set(V + 14);
  c.push(I.end);
  const g = (a: number, b: number, cc: number, d: number, x: number, y: number): void => {
    for (const [m, r1, r2] of [
      [x, 32n, 24n],
      [y, 16n, 63n],
    ] as const) {
      get(V + a);
      get(V + b);
      c.push(I.i64Add);
      get(M + m);
      c.push(I.i64Add);
      set(V + a);
      get(V + d);
      get(V + a);
      c.push(I.i64Xor);
      i64(r1);
      c.push(I.i64Rotr);
      set(V + d);
      get(V + cc);
      get(V + d);
      c.push(I.i64Add);
      set(V + cc);
      get(V + b);
      get(V + cc);
      c.push(I.i64Xor);
      i64(r2);
      c.push(I.i64Rotr);
      set(V + b);
    }
  };
  for (let r = 0; r < 12; r++) {
    const s = BLAKE2B_SIGMA[r % 10];
    g(0, 4, 8, 12, s[0], s[1]);
    g(1, 5, 9, 13, s[2], s[3]);
    g(2, 6, 10, 14, s[4], s[5]);
    g(3, 7, 11, 15, s[6], s[7]);
    g(0, 5, 10, 15, s[8], s[9]);
    g(1, 6, 11, 12, s[10], s[11]);
    g(2, 7, 8, 13, s[12], s[13]);
    g(3, 4, 9, 14, s[14], s[15]);
  }
  for (let i = 0; i < 8; i++) {
    get(H + i);
    get(V + i);
    c.push(I.i64Xor);
    get(V + 8 + i);
    c.push(I.i64Xor);
    set(H + i);
  }
  // p += 128; again while p < end.
  get(P);
  c.push(I.i32Const, 0x80, 0x01, I.i32Add, I.localTee, ...uleb(P));
  get(END);
  c.push(I.i32LtU, I.brIf, 0, I.end);
  for (let i = 0; i < 4; i++) {
    c.push(I.i32Const, 0);
    get(H + i);
    c.push(I.i64Store, 3, ...uleb(8 * i));
  }
  c.push(I.end);
  return c;
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

/** The module's bytes: memory `m` (exported, 2 pages to start), function `h(ptr, len)`. */
function moduleBytes(): Uint8Array {
  const body = hashBody();
  const locals = [2, ...uleb(2), 0x7f, ...uleb(I64_LOCALS), 0x7e];
  const fn = [...locals, ...body];
  const name = (s: string): number[] => [...uleb(s.length), ...Array.from(s, (ch) => ch.charCodeAt(0))];
  return Uint8Array.from([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, [1, 0x60, 2, 0x7f, 0x7f, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, 2]),
    ...section(7, [2, ...name('m'), 2, 0, ...name('h'), 0, 0]),
    ...section(10, [1, ...uleb(fn.length), ...fn]),
  ]);
}

/** BLAKE2b-256 of the concatenation of some byte strings. */
export type Blake2b256 = (parts: readonly Uint8Array[]) => Uint8Array;

/** The part of the WebAssembly API used here (the package's TS libs do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

function instantiate(api: WasmApi): Blake2b256 | null {
  let exports: Record<string, unknown>;
  try {
    exports = new api.Instance(new api.Module(moduleBytes())).exports;
  } catch {
    return null;
  }
  const memory = exports.m as WasmMemory;
  const hash = exports.h as (ptr: number, len: number) => void;
  let bytes = new Uint8Array(memory.buffer);
  return (parts) => {
    let len = 0;
    for (const p of parts) len += p.length;
    const padded = INPUT + Math.max(128, Math.ceil(len / 128) * 128);
    if (padded > bytes.length) {
      memory.grow(Math.ceil((padded - bytes.length) / 65536));
      bytes = new Uint8Array(memory.buffer);
    }
    let at = INPUT;
    for (const p of parts) {
      if (p.length < 32) for (let i = 0; i < p.length; i++) bytes[at + i] = p[i];
      else bytes.set(p, at);
      at += p.length;
    }
    bytes.fill(0, at, padded);
    hash(INPUT, len);
    return bytes.slice(0, 32);
  };
}

let cached: Blake2b256 | null | undefined;

/** The WebAssembly BLAKE2b-256, or `null` where it cannot be compiled. */
export function wasmBlake2b(): Blake2b256 | null {
  if (cached === undefined) {
    const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
    cached = api === undefined ? null : instantiate(api);
  }
  return cached;
}
