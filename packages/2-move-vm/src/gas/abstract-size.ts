/**
 * Abstract memory size of Move values, as the gas meter and the natives measure it.
 *
 * Upstream defines it with a visitor (`ValueView::abstract_memory_size(&SizeConfig)` in
 * `move-vm-runtime/src/shared/views.rs`, and `move-vm-types/src/views.rs` in the old VM):
 *
 * | node | size |
 * |---|---|
 * | `u8`, `u16`, `u32`, `u64`, `bool` | 8 with `fineGrainedValueSize` (gas model > 10), else 16 |
 * | `u128` | 16 |
 * | `u256` | 32 with `fineGrainedValueSize`, else 16 |
 * | `address` | 32 |
 * | struct, enum variant | 2 + the fields |
 * | vector of non-primitive elements | 2 + the elements |
 * | vector of primitives (`vector<u8>`...`vector<address>`, stored specialised) | (2 if `includeVectorSize`) + length × element width (u8 1, u16 2, u32 4, u64 8, u128 16, u256 32, bool 1, address 32) |
 * | reference | 8, plus the referenced value when `traverseReferences` |
 *
 * The element widths are Rust's `size_of`, not the scalar sizes above, and the vector
 * header (2) of a primitive vector only counts with `includeVectorSize` (gas model > 7),
 * whereas a vector of structs/vectors always has it. An empty vector is therefore 2 or 0
 * depending on its element type: the interpreter must know which representation it has.
 *
 * Which configuration each charge uses is decided by {@link sizeConfigForGasModel}.
 * {@link legacyValueSize} is the old VM's separate `Value::legacy_size`, which the old VM's
 * natives (dynamic fields) used for their per-byte costs.
 */
import type { GasModelFeatures } from './cost-tables.js';

/** Primitive kinds, including `address`. */
export type PrimKind = 'u8' | 'u16' | 'u32' | 'u64' | 'u128' | 'u256' | 'bool' | 'address';

/**
 * Callbacks a {@link ValueView} makes while walking a value, depth first. The `boolean`
 * results say whether to walk into the children (fields, elements, referenced value).
 */
export interface ValueVisitor {
  /** A primitive value (also an element reached through a reference into a primitive vector). */
  prim(kind: PrimKind): void;
  /** A struct with `fieldCount` fields; the fields follow when `true` is returned. */
  struct(fieldCount: number): boolean;
  /** An enum variant with `fieldCount` fields; the fields follow when `true` is returned. */
  variant(fieldCount: number): boolean;
  /** A vector of non-primitive elements; the elements follow when `true` is returned. */
  vec(length: number): boolean;
  /** A specialised vector of primitives (`vector<u8>`, `vector<address>`...); no callbacks follow. */
  primVec(kind: PrimKind, length: number): void;
  /** A reference; the referenced value follows (as one node) when `true` is returned. */
  ref(): boolean;
}

/**
 * Anything the gas meter can size: the interpreter implements `visit` on its values
 * (including references, and views of the value behind a reference).
 */
export interface ValueView {
  visit(visitor: ValueVisitor): void;
}

/** Upstream `SizeConfig` (the `fine_grained_value_size` flag was folded into the VM later). */
export interface SizeConfig {
  /** Walk into referenced values (after counting the reference itself). */
  readonly traverseReferences: boolean;
  /** Count the 2-byte header of primitive vectors. */
  readonly includeVectorSize: boolean;
  /** Primitive sizes 8/16/32 instead of a flat 16. */
  readonly fineGrainedValueSize: boolean;
}

/** Scalar size without fine-grained sizes (`LEGACY_CONST_SIZE`). */
export const LEGACY_CONST_SIZE = 16;
/** Struct/variant/vector header (`STRUCT_SIZE`). */
export const VALUE_HEADER_SIZE = 2;
/** Reference (`REFERENCE_SIZE`). */
export const VALUE_REFERENCE_SIZE = 8;
/** Address (`AccountAddress::LENGTH`). */
export const ADDRESS_SIZE = 32;
/** Enum tag in {@link legacyValueSize} (`size_of::<u16>()`). */
export const LEGACY_VARIANT_TAG_SIZE = 2;

/** Width of one element of a specialised primitive vector (`size_of::<T>()`). */
export const PRIM_VEC_ELEMENT_WIDTH: Readonly<Record<PrimKind, number>> = Object.freeze({
  u8: 1,
  u16: 2,
  u32: 4,
  u64: 8,
  u128: 16,
  u256: 32,
  bool: 1,
  address: 32,
});

const FINE_GRAINED: Readonly<Record<PrimKind, number>> = Object.freeze({
  u8: 8,
  u16: 8,
  u32: 8,
  u64: 8,
  u128: 16,
  u256: 32,
  bool: 8,
  address: ADDRESS_SIZE,
});

/** Size of one scalar under `config`. */
export function primSize(kind: PrimKind, config: SizeConfig): number {
  if (kind === 'address') return ADDRESS_SIZE;
  return config.fineGrainedValueSize ? FINE_GRAINED[kind] : LEGACY_CONST_SIZE;
}

class SizeAccumulator implements ValueVisitor {
  total = 0;
  constructor(private readonly config: SizeConfig) {}
  prim(kind: PrimKind): void {
    this.total += primSize(kind, this.config);
  }
  struct(): boolean {
    this.total += VALUE_HEADER_SIZE;
    return true;
  }
  variant(): boolean {
    this.total += VALUE_HEADER_SIZE;
    return true;
  }
  vec(): boolean {
    this.total += VALUE_HEADER_SIZE;
    return true;
  }
  primVec(kind: PrimKind, length: number): void {
    if (this.config.includeVectorSize) this.total += VALUE_HEADER_SIZE;
    this.total += length * PRIM_VEC_ELEMENT_WIDTH[kind];
  }
  ref(): boolean {
    this.total += VALUE_REFERENCE_SIZE;
    return this.config.traverseReferences;
  }
}

/** `abstract_memory_size(config)` of a value. */
export function abstractMemorySize(value: ValueView, config: SizeConfig): number {
  const acc = new SizeAccumulator(config);
  value.visit(acc);
  return acc.total;
}

/**
 * The size configuration a `SuiGasMeter` uses (`size_config_for_gas_model_version`):
 * gas model <= 7 → no vector headers, no traversal, flat 16; otherwise vector headers,
 * traversal only where the charge asks for it (`Eq`, `Neq`, and `ReadRef` from gas model 11)
 * and only from gas model 10, fine-grained sizes from gas model 11.
 */
export function sizeConfigForGasModel(features: GasModelFeatures, traverse: boolean): SizeConfig {
  if (features.legacyAbstractSize) {
    return Object.freeze({ traverseReferences: false, includeVectorSize: false, fineGrainedValueSize: false });
  }
  return Object.freeze({
    traverseReferences: traverse && features.traverseRefs,
    includeVectorSize: true,
    fineGrainedValueSize: features.fineGrainedValueSize,
  });
}

/**
 * The size natives use at gas model `features` in the current VM (`abstract_size` in
 * `sui-move-natives/src/lib.rs`): vector headers, no traversal.
 */
export function nativeAbstractSizeConfig(features: GasModelFeatures): SizeConfig {
  return Object.freeze({ traverseReferences: false, includeVectorSize: true, fineGrainedValueSize: features.fineGrainedValueSize });
}

class LegacyAccumulator implements ValueVisitor {
  total = 0;
  prim(kind: PrimKind): void {
    this.total += kind === 'address' ? ADDRESS_SIZE : LEGACY_CONST_SIZE;
  }
  struct(): boolean {
    this.total += VALUE_HEADER_SIZE;
    return true;
  }
  variant(): boolean {
    this.total += VALUE_HEADER_SIZE + LEGACY_VARIANT_TAG_SIZE;
    return true;
  }
  vec(): boolean {
    this.total += VALUE_HEADER_SIZE;
    return true;
  }
  primVec(kind: PrimKind, length: number): void {
    this.total += length * PRIM_VEC_ELEMENT_WIDTH[kind];
  }
  ref(): boolean {
    this.total += VALUE_REFERENCE_SIZE;
    return false;
  }
}

/**
 * The old VM's `Value::legacy_size` (not the gas meter's size): scalars 16, address 32,
 * struct 2 + fields, variant 4 + fields, vector of non-primitives 2 + elements, primitive
 * vector length × width with no header, reference 8 (never traversed). Natives of the old
 * VM (execution versions <= 3: dynamic fields, ...) charge per byte of this size.
 */
export function legacyValueSize(value: ValueView): number {
  const acc = new LegacyAccumulator();
  value.visit(acc);
  return acc.total;
}
