/**
 * Values the code compares its inputs with. A failed transaction is run again with a
 * {@link ComparisonLog} watching the interpreter; every comparison (`==`, `!=`, `<`, ...)
 * it made is logged with both operands. Where one operand is a plain value the
 * transaction passed (an integer, an address, bytes, or the length of a byte vector), the
 * other operand is what the code wanted there, or close to it: the next attempt passes
 * that instead (input-to-state correspondence, as coverage-guided fuzzers do it). A
 * bound `x > min` gives `min + 1`, a magic value `x == 42` gives 42, a length check
 * `len == 32` gives 32 bytes.
 */
import type { Bytecode } from '@smi/bytecode';
import type { FunctionInstance, Json, MachineView, Tracer } from '@smi/move-vm';
import { MoveVector } from '@smi/move-vm';
import type { Ty } from './types.js';

type Op = 'Eq' | 'Neq' | 'Lt' | 'Gt' | 'Le' | 'Ge';
const OPS = new Set<string>(['Eq', 'Neq', 'Lt', 'Gt', 'Le', 'Ge']);
/** Comparisons kept (the last ones before a failure matter most). */
const MAX_LOGGED = 256;

/** One comparison the code made. */
export interface Comparison {
  op: Op;
  left: unknown;
  right: unknown;
  /** The operand before it was a vector's length (`VecLen` just before). */
  lengthCompare: boolean;
}

/** A tracer that logs comparisons (and nothing else). */
export class ComparisonLog implements Tracer {
  readonly entries: Comparison[] = [];
  /** Instructions executed by the last call a command made (how far the failing call got). */
  steps = 0;
  private lastWasLength = false;
  private depth = 0;

  openFrame(): void {
    if (this.depth++ === 0) this.steps = 0;
  }

  closeFrame(): void {
    this.depth--;
  }
  afterInstruction(): void {}
  error(): void {}

  beforeInstruction(inst: FunctionInstance, pc: number, view: MachineView): void {
    this.steps++;
    const bc = (inst.fn.def.code as { code: readonly Bytecode[] } | null)?.code[pc];
    if (bc === undefined) return;
    if (OPS.has(bc.$kind) && view.sp >= 2) {
      if (this.entries.length >= MAX_LOGGED) this.entries.shift();
      this.entries.push({ op: bc.$kind as Op, left: view.stack[view.sp - 2], right: view.stack[view.sp - 1], lengthCompare: this.lastWasLength });
    }
    // A length compared right after `VecLen` (possibly with a constant loaded in between).
    if (bc.$kind === 'VecLen') this.lastWasLength = true;
    else if (!bc.$kind.startsWith('Ld') && !bc.$kind.startsWith('Copy') && !bc.$kind.startsWith('Move') && !bc.$kind.startsWith('St')) this.lastWasLength = false;
  }
}

/** A plain value an attempt passed: where it sits (see `resolve.ts`), its type and value. */
export interface PureInput {
  path: string;
  type: Ty;
  value: Json;
}

/** A value to pass at `path` instead. */
export interface Proposal {
  path: string;
  value: Json;
}

const INT_BITS: Record<string, number> = { u8: 8, u16: 16, u32: 32, u64: 64, u128: 128, u256: 256 };

function asBigInt(v: unknown): bigint | null {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^[0-9]+$/.test(v)) return BigInt(v);
  return null;
}

function bytesOf(v: unknown): Uint8Array | null {
  if (!(v instanceof MoveVector)) return null;
  const data = v.data as unknown;
  if (data instanceof Uint8Array) return data.subarray(0, v.length);
  return null;
}

function hexOf(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes).toString('hex')}`;
}

function jsonInt(n: bigint, bits: number): Json {
  return bits <= 32 ? Number(n) : n.toString();
}

/** Bytes of a `vector<u8>` input given as hex (or a string of hex). */
function inputBytes(value: Json): Uint8Array | null {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) return null;
  return Uint8Array.from(Buffer.from(value.slice(2), 'hex'));
}

/** A byte vector of `length` bytes (1, 2, 3, ...). */
function bytesOfLength(length: number): Json {
  let hex = '0x';
  for (let i = 0; i < length; i++) hex += ((i + 1) & 0xff).toString(16).padStart(2, '0');
  return hex;
}

/**
 * Replacements the comparisons suggest for the inputs, the comparisons nearest the
 * failure first, each (path, value) once, at most `limit`.
 */
export function proposals(log: readonly Comparison[], inputs: readonly PureInput[], limit: number): Proposal[] {
  const out: Proposal[] = [];
  const seen = new Set<string>();
  const add = (path: string, value: Json): void => {
    const key = `${path}=${JSON.stringify(value)}`;
    if (seen.has(key) || out.length >= limit) return;
    seen.add(key);
    out.push({ path, value });
  };
  const bytes = inputs.map((input) => (input.type.$kind === 'Vector' ? inputBytes(input.value) : null));
  for (let i = log.length - 1; i >= 0 && out.length < limit; i--) {
    const c = log[i];
    for (const [ours, theirs] of [
      [c.left, c.right],
      [c.right, c.left],
    ] as const) {
      for (const [k, input] of inputs.entries()) {
        const t = input.type;
        if (t.$kind === 'Prim' && INT_BITS[t.name] !== undefined) {
          const mine = asBigInt(input.value);
          const a = asBigInt(ours);
          const b = asBigInt(theirs);
          if (mine === null || a === null || b === null || mine !== a || a === b) continue;
          const bits = INT_BITS[t.name];
          const max = (1n << BigInt(bits)) - 1n;
          const near = c.op === 'Eq' ? [b] : c.op === 'Neq' ? [b + 1n] : [b + 1n, b - 1n, b];
          for (const n of near) if (n >= 0n && n <= max && n !== mine) add(input.path, jsonInt(n, bits));
        } else if (t.$kind === 'Prim' && t.name === 'address') {
          if (typeof ours === 'string' && typeof theirs === 'string' && ours !== theirs && typeof input.value === 'string' && input.value.toLowerCase() === ours) add(input.path, theirs);
        } else if (t.$kind === 'Vector' && t.elem.$kind === 'Prim' && t.elem.name === 'u8') {
          const mine = bytes[k];
          if (mine === null) continue;
          const a = bytesOf(ours);
          const b = bytesOf(theirs);
          if (a !== null && b !== null && Buffer.compare(Buffer.from(a), Buffer.from(mine)) === 0 && Buffer.compare(Buffer.from(a), Buffer.from(b)) !== 0) add(input.path, hexOf(b));
          // The input's length compared with a constant; or, a vector built from the inputs
          // (a payload) whose length is off: this input grown or shrunk by the difference.
          const n = asBigInt(ours);
          const want = asBigInt(theirs);
          if (c.lengthCompare && n !== null && want !== null && want !== n && want > 0n && want <= 4096n) {
            const delta = Number(want - n);
            if (n === BigInt(mine.length)) {
              for (const m of c.op === 'Eq' || c.op === 'Neq' ? [want] : [want, want + 1n, want - 1n]) if (m > 0n) add(input.path, bytesOfLength(Number(m)));
            } else if (mine.length + delta > 0) add(input.path, bytesOfLength(mine.length + delta));
          }
        } else if (t.$kind === 'Vector' && t.elem.$kind === 'Vector' && t.elem.elem.$kind === 'Prim' && t.elem.elem.name === 'u8' && Array.isArray(input.value)) {
          // A list of byte strings (keys, addresses) whose elements' length is checked: every element that length.
          const elems = input.value.map((e) => inputBytes(e));
          const n = asBigInt(ours);
          const want = asBigInt(theirs);
          if (!c.lengthCompare || n === null || want === null || want === n || want <= 0n || want > 4096n) continue;
          if (elems.some((e) => e !== null && BigInt(e.length) === n))
            add(
              input.path,
              input.value.map(() => bytesOfLength(Number(want))),
            );
        }
      }
    }
  }
  return out;
}

/** A tracer that marks the instructions of one function it sees run. */
export class CoverageLog implements Tracer {
  private readonly seen: Uint8Array;

  constructor(
    private readonly module: string,
    private readonly name: string,
    readonly total: number,
  ) {
    this.seen = new Uint8Array(total);
  }

  openFrame(): void {}
  closeFrame(): void {}
  afterInstruction(): void {}
  error(): void {}

  beforeInstruction(inst: FunctionInstance, pc: number): void {
    if (inst.fn.name === this.name && inst.fn.module.id === this.module && pc < this.total) this.seen[pc] = 1;
  }

  /** Distinct instructions seen. */
  get executed(): number {
    let n = 0;
    for (const b of this.seen) n += b;
    return n;
  }
}
