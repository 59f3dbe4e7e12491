/**
 * Move vectors with compact typed storage: `vector<u8>` and `vector<bool>` in a
 * `Uint8Array`, `vector<u16>`/`vector<u32>` in `Uint16Array`/`Uint32Array`, `vector<u64>`
 * in a `BigUint64Array`; every other element type in a plain array. Storage grows by
 * doubling; `length` is the Move length.
 */

/** Element storage kinds of a {@link MoveVector}. */
export const VecKind = {
  U8: 0,
  Bool: 1,
  U16: 2,
  U32: 3,
  U64: 4,
  /** u128, u256, address, signer, structs, enums, vectors: a JS array. */
  Boxed: 5,
} as const;
export type VecKindValue = (typeof VecKind)[keyof typeof VecKind];

type Storage = Uint8Array | Uint16Array | Uint32Array | BigUint64Array | unknown[];

function allocate(kind: VecKindValue, capacity: number): Storage {
  switch (kind) {
    case VecKind.U8:
    case VecKind.Bool:
      return new Uint8Array(capacity);
    case VecKind.U16:
      return new Uint16Array(capacity);
    case VecKind.U32:
      return new Uint32Array(capacity);
    case VecKind.U64:
      return new BigUint64Array(capacity);
    default:
      return new Array<unknown>(capacity);
  }
}

/** A Move vector value (a mutable container). */
export class MoveVector {
  kind: VecKindValue;
  data: Storage;
  length: number;

  constructor(kind: VecKindValue, data: Storage, length: number) {
    this.kind = kind;
    this.data = data;
    this.length = length;
  }

  /** An empty vector of the given storage kind. */
  static empty(kind: VecKindValue, capacity = 0): MoveVector {
    return new MoveVector(kind, allocate(kind, capacity), 0);
  }

  /** A `vector<u8>` over a copy of `bytes`. */
  static fromBytes(bytes: Uint8Array): MoveVector {
    return new MoveVector(VecKind.U8, Uint8Array.from(bytes), bytes.length);
  }

  /** A vector holding `values` (numbers, bigints, booleans or boxed values per `kind`). */
  static fromValues(kind: VecKindValue, values: readonly unknown[]): MoveVector {
    const v = MoveVector.empty(kind, values.length);
    for (const x of values) v.push(x);
    return v;
  }

  /** Element `i` (no bounds check: callers check against `length`). */
  get(i: number): unknown {
    if (this.kind === VecKind.Bool) return this.data[i] === 1;
    return (this.data as unknown[])[i];
  }

  /** Set element `i` (no bounds check). */
  set(i: number, v: unknown): void {
    if (this.kind === VecKind.Bool) (this.data as Uint8Array)[i] = v ? 1 : 0;
    else (this.data as unknown[])[i] = v;
  }

  /** Append one element. */
  push(v: unknown): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.set(this.length++, v);
  }

  /** Remove and return the last element (callers check that the vector is not empty). */
  pop(): unknown {
    const v = this.get(--this.length);
    if (this.kind === VecKind.Boxed) (this.data as unknown[])[this.length] = undefined;
    return v;
  }

  /** Swap two elements (no bounds check). */
  swap(i: number, j: number): void {
    const d = this.data as unknown[];
    const t = d[i];
    d[i] = d[j];
    d[j] = t;
  }

  private grow(min: number): void {
    const cap = Math.max(4, min, this.data.length * 2);
    const next = allocate(this.kind, cap);
    if (this.kind === VecKind.Boxed) {
      const src = this.data as unknown[];
      const dst = next as unknown[];
      for (let i = 0; i < this.length; i++) dst[i] = src[i];
    } else {
      (next as Uint8Array).set((this.data as Uint8Array).subarray(0, this.length));
    }
    this.data = next;
  }

  /** The bytes of a `vector<u8>` (a view, not a copy). */
  bytes(): Uint8Array {
    return (this.data as Uint8Array).subarray(0, this.length);
  }

  /** Replace the contents with those of `other` (same kind), for writes through a reference. */
  assign(other: MoveVector): void {
    this.kind = other.kind;
    this.data = other.data;
    this.length = other.length;
  }

  /** Elements as an array (boxed values are not copied). */
  toArray(): unknown[] {
    const out: unknown[] = new Array<unknown>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.get(i);
    return out;
  }
}
