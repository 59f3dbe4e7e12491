/**
 * Sui's Move gas schedule: tier tables, version predicates and the per-opcode stack shapes
 * the gas meter charges.
 *
 * Upstream: `crates/sui-types/src/gas_model/{tables.rs,units_types.rs,gas_predicates.rs}` and
 * `sui-execution/latest/sui-adapter/src/gas_meter.rs` (`SuiGasMeter`). The same meter, at
 * gas model 10 with the old VM, is what `sui move test` used in 2025 (the
 * `move-vm-test-utils` tiered schedule with `initial_cost_schedule_for_unit_tests()` = v5),
 * which is how the VM traces in the fixtures were produced.
 *
 * Every charge is `charge(numInstructions, pushes, pops, incrSize, decrSize)` and costs
 * (in *internal* gas units, 1/1000 of a gas unit)
 *
 *     instrTierMult × numInstructions + sizeTierMult × incrSize + heightTierMult × pushes
 *
 * where the three multipliers come from the tier tables below, looked up with the number
 * of instructions executed so far, the (never decreasing) abstract stack size and the
 * current stack height. `pops` and `decrSize` only move the stack height down; they cost
 * nothing. Every multiplier is 1 until 20,000 instructions, stack height 1,000 or stack
 * size 100,000, so in short runs an instruction costs `1 + incrSize + pushes`.
 */
import { OPCODE, type BytecodeKind } from '@smi/bytecode';

/** Tier table: sorted `[threshold, multiplier]` pairs, the first threshold being 0. */
export type TierTable = readonly (readonly [number, number])[];

/** The three tier tables of one cost schedule (`CostTable` upstream). */
export interface CostTable {
  readonly instructionTiers: TierTable;
  readonly stackHeightTiers: TierTable;
  readonly stackSizeTiers: TierTable;
}

const table = (pairs: [number, number][]): TierTable => Object.freeze(pairs.map((p) => Object.freeze(p) as readonly [number, number]));

/** `initial_cost_schedule_v1` (gas model 1..3). */
const COST_SCHEDULE_V1: CostTable = Object.freeze({
  instructionTiers: table([
    [0, 1],
    [3000, 2],
    [6000, 3],
    [8000, 5],
    [9000, 9],
    [9500, 16],
    [10000, 29],
    [10500, 50],
  ]),
  stackHeightTiers: table([
    [0, 1],
    [400, 2],
    [800, 3],
    [1200, 5],
    [1500, 9],
    [1800, 16],
    [2000, 29],
    [2200, 50],
  ]),
  stackSizeTiers: table([
    [0, 1],
    [2000, 2],
    [5000, 3],
    [8000, 5],
    [10000, 9],
    [11000, 16],
    [11500, 50],
  ]),
});

/** `initial_cost_schedule_v2` (gas model 4). */
const COST_SCHEDULE_V2: CostTable = Object.freeze({
  instructionTiers: table([
    [0, 1],
    [3000, 2],
    [6000, 3],
    [8000, 5],
    [9000, 9],
    [9500, 16],
    [10000, 29],
    [10500, 50],
    [12000, 150],
    [15000, 250],
  ]),
  stackHeightTiers: table([
    [0, 1],
    [400, 2],
    [800, 3],
    [1200, 5],
    [1500, 9],
    [1800, 16],
    [2000, 29],
    [2200, 50],
    [3000, 150],
    [5000, 250],
  ]),
  stackSizeTiers: table([
    [0, 1],
    [2000, 2],
    [5000, 3],
    [8000, 5],
    [10000, 9],
    [11000, 16],
    [11500, 50],
    [15000, 150],
    [20000, 250],
  ]),
});

/** `initial_cost_schedule_v3` (gas model 5). */
const COST_SCHEDULE_V3: CostTable = Object.freeze({
  instructionTiers: table([
    [0, 1],
    [3000, 2],
    [6000, 3],
    [8000, 5],
    [9000, 9],
    [9500, 16],
    [10000, 29],
    [10500, 50],
    [15000, 100],
  ]),
  stackHeightTiers: table([
    [0, 1],
    [400, 2],
    [800, 3],
    [1200, 5],
    [1500, 9],
    [1800, 16],
    [2000, 29],
    [2200, 50],
    [5000, 100],
  ]),
  stackSizeTiers: table([
    [0, 1],
    [2000, 2],
    [5000, 3],
    [8000, 5],
    [10000, 9],
    [11000, 16],
    [11500, 50],
    [20000, 100],
  ]),
});

/** `initial_cost_schedule_v4` (gas model 6..7). */
const COST_SCHEDULE_V4: CostTable = Object.freeze({
  instructionTiers: table([
    [0, 1],
    [20_000, 2],
    [50_000, 10],
    [100_000, 50],
    [200_000, 100],
  ]),
  stackHeightTiers: table([
    [0, 1],
    [1_000, 2],
    [10_000, 10],
  ]),
  stackSizeTiers: table([
    [0, 1],
    [100_000, 2],
    [500_000, 5],
    [1_000_000, 100],
  ]),
});

/**
 * `initial_cost_schedule_v5` (gas model 8+, so mainnet since protocol 27; also the table of
 * `sui move test`).
 */
export const COST_SCHEDULE_V5: CostTable = Object.freeze({
  instructionTiers: table([
    [0, 1],
    [20_000, 2],
    [50_000, 10],
    [100_000, 50],
    [200_000, 100],
    [10_000_000, 1000],
  ]),
  stackHeightTiers: table([
    [0, 1],
    [1_000, 2],
    [10_000, 10],
  ]),
  stackSizeTiers: table([
    [0, 1],
    [100_000, 2],
    [500_000, 5],
    [1_000_000, 100],
    [100_000_000, 1000],
  ]),
});

/** `cost_table_for_version`: the tier tables of a gas model version. */
export function costTableForGasModelVersion(gasModelVersion: number): CostTable {
  if (gasModelVersion <= 3) return COST_SCHEDULE_V1;
  if (gasModelVersion === 4) return COST_SCHEDULE_V2;
  if (gasModelVersion === 5) return COST_SCHEDULE_V3;
  if (gasModelVersion <= 7) return COST_SCHEDULE_V4;
  return COST_SCHEDULE_V5;
}

/**
 * Tier lookup (`get_current_and_future_tier`): the multiplier of the largest threshold
 * `<= current`, and the next threshold above `current` (`undefined` past the last one).
 * The meter re-looks the tier up only once the counter is strictly above that next
 * threshold, so a counter equal to a threshold still pays the lower multiplier.
 */
export function tierAt(tiers: TierTable, current: number): { mult: number; next: number | undefined } {
  let mult = 1;
  let next: number | undefined;
  for (const [start, m] of tiers) {
    if (start <= current) mult = m;
    else {
      next = start;
      break;
    }
  }
  return { mult, next };
}

// ---------------------------------------------------------------------------------------
// Gas model version predicates (gas_predicates.rs and gas_meter.rs)
// ---------------------------------------------------------------------------------------

/**
 * Behaviour switches of one gas model version. Use {@link gasModelFeatures} to build them;
 * every field names the upstream predicate it mirrors.
 */
export interface GasModelFeatures {
  readonly gasModelVersion: number;
  /** `use_legacy_abstract_size` (v <= 7): sizes without vector headers, never traversing references. */
  readonly legacyAbstractSize: boolean;
  /** `enable_traverse_refs` (v > 9): `Eq`/`Neq` sizes include the referenced values. */
  readonly traverseRefs: boolean;
  /** `enable_traverse_refs` again (v > 9): `Neq` charges the operands' size, not only the bool. */
  readonly neqChargesOperands: boolean;
  /** `reweight_move_loc` (v > 10): `MoveLoc` charges `REFERENCE_SIZE`, not the value's size. */
  readonly reweightMoveLoc: boolean;
  /** `reweight_read_ref` (v > 10): `ReadRef` sizes the value with reference traversal. */
  readonly reweightReadRef: boolean;
  /** `reduce_stack_size` (v > 10): `WriteRef` pushes 0 (not 1), `VecSwap` pops 3 / pushes 0 (not 1/1). */
  readonly reduceStackSize: boolean;
  /** `enable_fine_grained_value_size` (v > 10): u8..u64/bool weigh 8, u128 16, u256 32 (else all 16). */
  readonly fineGrainedValueSize: boolean;
  /** `legacy_charge_native_pops_args` (v <= 13): the native pre-charge pops the arguments a second time. */
  readonly legacyNativePopsArgs: boolean;
  /** `native_function_threshold_exceeded` applies (v > 8): after 700 native calls, native cost counts as instructions. */
  readonly nativeCallThreshold: number | undefined;
  /** `charge_input_as_memory` (v == 4): storage reads grow the stack size and pay its tier. */
  readonly chargeInputAsMemory: boolean;
}

/** Native calls after which native costs become "virtual instructions" (`V2_NATIVE_FUNCTION_CALL_THRESHOLD`). */
export const NATIVE_FUNCTION_CALL_THRESHOLD = 700;

/** The behaviour switches of `gasModelVersion` (mainnet protocol 135 runs version 14). */
export function gasModelFeatures(gasModelVersion: number): GasModelFeatures {
  const v = gasModelVersion;
  return Object.freeze({
    gasModelVersion: v,
    legacyAbstractSize: v <= 7,
    traverseRefs: v > 9,
    neqChargesOperands: v > 9,
    reweightMoveLoc: v > 10,
    reweightReadRef: v > 10,
    reduceStackSize: v > 10,
    fineGrainedValueSize: v > 10,
    legacyNativePopsArgs: v <= 13,
    nativeCallThreshold: v > 8 ? NATIVE_FUNCTION_CALL_THRESHOLD : undefined,
    chargeInputAsMemory: v === 4,
  });
}

// ---------------------------------------------------------------------------------------
// Abstract sizes used by the static shapes
// ---------------------------------------------------------------------------------------

/** Size of a reference on the stack (`REFERENCE_SIZE`). */
export const REFERENCE_SIZE = 8;
/** Size of a struct header (`STRUCT_SIZE`), charged on every `Pack*`/`Unpack*`. */
export const STRUCT_SIZE = 2;
/** Size of a vector header (`VEC_SIZE`), charged on `VecPack`/`VecUnpack`. */
export const VEC_SIZE = 8;
/**
 * `Type::size()` of a primitive type (`LEGACY_BASE_MEMORY_SIZE` = 1). The simple-instruction
 * shapes use these type sizes (`Type::U64.size()` etc.), all equal to 1.
 */
export const PRIMITIVE_TYPE_SIZE = 1;

// ---------------------------------------------------------------------------------------
// Opcodes
// ---------------------------------------------------------------------------------------

/** Upper-snake opcode name as printed by the Move VM tracer (`LD_U64`, `PACK_VARIANT_GENERIC`). */
export function opcodeName(kind: BytecodeKind): string {
  return kind.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** Opcode byte of every upper-snake name (`CALL` → 0x11). */
export const OPCODE_BY_NAME: ReadonlyMap<string, number> = new Map((Object.entries(OPCODE) as [BytecodeKind, number][]).map(([kind, op]) => [opcodeName(kind), op]));

/**
 * How the meter charges an opcode:
 * - `static`: a fixed shape, see {@link STATIC_SHAPES};
 * - the other kinds need run-time data and map to one `GasMeter` method each.
 */
export type ChargeKind =
  | 'static'
  | 'pop'
  | 'ldConst'
  | 'copyLoc'
  | 'moveLoc'
  | 'stLoc'
  | 'call'
  | 'pack'
  | 'unpack'
  | 'vecPack'
  | 'vecUnpack'
  | 'readRef'
  | 'writeRef'
  | 'eq'
  | 'neq'
  | 'vecSwap'
  | 'variantSwitch'
  | 'deprecated';

/** A fixed charge: `charge(1, pushes, pops, incr, decr)`. */
export interface StaticShape {
  readonly pushes: number;
  readonly pops: number;
  readonly incr: number;
  readonly decr: number;
}

const T = PRIMITIVE_TYPE_SIZE;
const shape = (pops: number, pushes: number, decr: number, incr: number): StaticShape => Object.freeze({ pushes, pops, incr, decr });

/**
 * Fixed shapes (`get_simple_instruction_stack_change` plus the fixed vector charges),
 * keyed by kind. Casts and arithmetic assume the smallest operands and the largest result,
 * as upstream does; every type size is 1.
 */
export const STATIC_SHAPES: Readonly<Partial<Record<BytecodeKind, StaticShape>>> = Object.freeze({
  Nop: shape(0, 0, 0, 0),
  Ret: shape(0, 0, 0, 0),
  BrTrue: shape(1, 0, T, 0),
  BrFalse: shape(1, 0, T, 0),
  Branch: shape(0, 0, 0, 0),
  LdU8: shape(0, 1, 0, T),
  LdU16: shape(0, 1, 0, T),
  LdU32: shape(0, 1, 0, T),
  LdU64: shape(0, 1, 0, T),
  LdU128: shape(0, 1, 0, T),
  LdU256: shape(0, 1, 0, T),
  LdTrue: shape(0, 1, 0, T),
  LdFalse: shape(0, 1, 0, T),
  FreezeRef: shape(1, 1, REFERENCE_SIZE, REFERENCE_SIZE),
  ImmBorrowLoc: shape(0, 1, 0, REFERENCE_SIZE),
  MutBorrowLoc: shape(0, 1, 0, REFERENCE_SIZE),
  ImmBorrowField: shape(1, 1, REFERENCE_SIZE, REFERENCE_SIZE),
  MutBorrowField: shape(1, 1, REFERENCE_SIZE, REFERENCE_SIZE),
  ImmBorrowFieldGeneric: shape(1, 1, REFERENCE_SIZE, REFERENCE_SIZE),
  MutBorrowFieldGeneric: shape(1, 1, REFERENCE_SIZE, REFERENCE_SIZE),
  CastU8: shape(1, 1, T, T),
  CastU16: shape(1, 1, T, T),
  CastU32: shape(1, 1, T, T),
  CastU64: shape(1, 1, T, T),
  CastU128: shape(1, 1, T, T),
  CastU256: shape(1, 1, T, T),
  Add: shape(2, 1, 2 * T, T),
  Sub: shape(2, 1, 2 * T, T),
  Mul: shape(2, 1, 2 * T, T),
  Mod: shape(2, 1, 2 * T, T),
  Div: shape(2, 1, 2 * T, T),
  BitOr: shape(2, 1, 2 * T, T),
  BitAnd: shape(2, 1, 2 * T, T),
  Xor: shape(2, 1, 2 * T, T),
  Shl: shape(2, 1, 2 * T, T),
  Shr: shape(2, 1, 2 * T, T),
  Or: shape(2, 1, 2 * T, T),
  And: shape(2, 1, 2 * T, T),
  Lt: shape(2, 1, 2 * T, T),
  Gt: shape(2, 1, 2 * T, T),
  Le: shape(2, 1, 2 * T, T),
  Ge: shape(2, 1, 2 * T, T),
  Not: shape(1, 1, T, T),
  Abort: shape(1, 0, T, 0),
  VecLen: shape(1, 1, REFERENCE_SIZE, T),
  VecImmBorrow: shape(2, 1, REFERENCE_SIZE + T, REFERENCE_SIZE),
  VecMutBorrow: shape(2, 1, REFERENCE_SIZE + T, REFERENCE_SIZE),
  VecPushBack: shape(2, 0, REFERENCE_SIZE, 0),
  VecPopBack: shape(1, 1, REFERENCE_SIZE, 0),
});

/** Charge kind of every opcode byte (`undefined` for unknown bytes). */
export const CHARGE_KIND: readonly (ChargeKind | undefined)[] = (() => {
  const out = new Array<ChargeKind | undefined>(256).fill(undefined);
  const dynamic: Partial<Record<BytecodeKind, ChargeKind>> = {
    Pop: 'pop',
    LdConst: 'ldConst',
    CopyLoc: 'copyLoc',
    MoveLoc: 'moveLoc',
    StLoc: 'stLoc',
    Call: 'call',
    CallGeneric: 'call',
    Pack: 'pack',
    PackGeneric: 'pack',
    PackVariant: 'pack',
    PackVariantGeneric: 'pack',
    Unpack: 'unpack',
    UnpackGeneric: 'unpack',
    UnpackVariant: 'unpack',
    UnpackVariantImmRef: 'unpack',
    UnpackVariantMutRef: 'unpack',
    UnpackVariantGeneric: 'unpack',
    UnpackVariantGenericImmRef: 'unpack',
    UnpackVariantGenericMutRef: 'unpack',
    VecPack: 'vecPack',
    VecUnpack: 'vecUnpack',
    ReadRef: 'readRef',
    WriteRef: 'writeRef',
    Eq: 'eq',
    Neq: 'neq',
    VecSwap: 'vecSwap',
    VariantSwitch: 'variantSwitch',
  };
  for (const [kind, op] of Object.entries(OPCODE) as [BytecodeKind, number][]) {
    out[op] = STATIC_SHAPES[kind] !== undefined ? 'static' : (dynamic[kind] ?? 'deprecated');
  }
  return out;
})();

/**
 * Static shapes as a flat table indexed by opcode byte: `[pushes, pops, incr, decr]` at
 * `4 * op`, all `-1` for opcodes without a static shape. For the interpreter's hot loop.
 */
export const STATIC_SHAPE_TABLE: Int32Array = (() => {
  const out = new Int32Array(256 * 4).fill(-1);
  for (const [kind, s] of Object.entries(STATIC_SHAPES) as [BytecodeKind, StaticShape][]) {
    const op = OPCODE[kind];
    out.set([s.pushes, s.pops, s.incr, s.decr], 4 * op);
  }
  return out;
})();

/**
 * Cost in internal gas of a static-shape opcode while every tier multiplier is 1
 * (`1 + incr + pushes`), or `undefined` when the opcode has no static shape. For tables and
 * quick estimates; the meter applies the live multipliers.
 */
export function baseInstructionCost(opcodeOrName: number | string): number | undefined {
  const op = typeof opcodeOrName === 'number' ? opcodeOrName : OPCODE_BY_NAME.get(opcodeOrName);
  if (op === undefined || STATIC_SHAPE_TABLE[4 * op] < 0) return undefined;
  return 1 + STATIC_SHAPE_TABLE[4 * op + 2] + STATIC_SHAPE_TABLE[4 * op];
}
