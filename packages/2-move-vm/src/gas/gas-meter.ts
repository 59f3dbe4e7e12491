/**
 * The Sui Move gas meter: upstream `GasStatus` (`sui-types/src/gas_model/tables.rs`) driven
 * the way `SuiGasMeter` (`sui-execution/latest/sui-adapter/src/gas_meter.rs`) drives it.
 *
 * Units: everything here is *internal* gas (1 gas unit = 1000 internal units); the VM
 * tracer's `gas_left` is internal gas too. A transaction starts with
 * `floor(min(budget, max_gas_computation_bucket × gasPrice) / gasPrice) × 1000`
 * internal units (see {@link GasMeter.forTransaction}); `sui move test` starts with
 * 1,000,000 gas units = 10^9 internal.
 *
 * The interpreter calls one `charge*` method per instruction, *before* doing the
 * instruction's work where upstream does (calls are charged after the callee frame is
 * announced; `CopyLoc`/`MoveLoc` after reading the local). Out of gas throws a
 * {@link GasError} with code `OUT_OF_GAS` and leaves 0 gas.
 */
import { OPCODE, type BytecodeKind, SmiError } from '@smi/bytecode';
import type { ProtocolConfig } from '../config/protocol-config.js';
import { abstractMemorySize, sizeConfigForGasModel, type SizeConfig, type ValueView } from './abstract-size.js';
import {
  costTableForGasModelVersion,
  gasModelFeatures,
  PRIMITIVE_TYPE_SIZE,
  REFERENCE_SIZE,
  STATIC_SHAPE_TABLE,
  STRUCT_SIZE,
  tierAt,
  VEC_SIZE,
  type CostTable,
  type GasModelFeatures,
} from './cost-tables.js';

/** Internal gas units per gas unit (`INTERNAL_UNIT_MULTIPLIER`). */
export const INTERNAL_UNITS_PER_GAS = 1000;

/** `sui move test`'s default bound: 1,000,000 gas units (`MAX_UNIT_TEST_INSTRUCTIONS`). */
export const UNIT_TEST_GAS_BOUND = 1_000_000;

/** Codes of {@link GasError}. */
export type GasErrorCode = 'OUT_OF_GAS' | 'GAS_INVALID_ARGUMENT';

/** Out of gas (`StatusCode::OUT_OF_GAS` = 4002), or a meter misuse. */
export class GasError extends SmiError<GasErrorCode> {
  override readonly name = 'GasError';
  /** Upstream status code number (4002 for `OUT_OF_GAS`). */
  readonly statusCode: number | undefined;
  constructor(code: GasErrorCode, message: string) {
    super(code, message);
    this.statusCode = code === 'OUT_OF_GAS' ? 4002 : undefined;
  }
}

/** Options of {@link GasMeter}. */
export interface GasMeterOptions {
  /** Gas model version (protocol config `gas_model_version`; 14 at protocol 135). */
  gasModelVersion: number;
  /** Internal gas available at the start. */
  initialInternalGas: number;
  /** Tier tables; default {@link costTableForGasModelVersion}. */
  costTable?: CostTable;
  /** `false`: track state but never deduct (system transactions). Default `true`. */
  metered?: boolean;
  /**
   * The new VM (execution version 4, protocol 119+) charges an extra `Nop` after every
   * `PackGeneric` (`eval.rs`); the old VM does not. Default `gasModelVersion >= 13` (only
   * execution version 4 runs those); gas model 11 ran on both VMs, so pass
   * `execution_version >= 4` when you have the config ({@link GasMeter.forTransaction} does).
   */
  packGenericExtraNop?: boolean;
}

/**
 * Tiered gas meter. Cheap to call: every charge is a few additions unless a tier
 * threshold is crossed; value sizes are computed only by the charges that use them.
 */
export class GasMeter {
  /** Behaviour switches of the gas model version. */
  readonly features: GasModelFeatures;
  /** Size configuration of charges that do not traverse references. */
  readonly sizeConfig: SizeConfig;
  /** Size configuration of `Eq`/`Neq` (and `ReadRef` from gas model 11). */
  readonly sizeConfigTraversal: SizeConfig;
  readonly costTable: CostTable;
  readonly metered: boolean;
  readonly packGenericExtraNop: boolean;
  /** Internal gas at the start. */
  readonly initialInternalGas: number;

  private gasLeft: number;
  private heightCurrent = 0;
  private heightHighWater = 0;
  private heightMult: number;
  private heightNext: number | undefined;
  private sizeCurrent = 0;
  private sizeHighWater = 0;
  private sizeMult: number;
  private sizeNext: number | undefined;
  private instructions = 0;
  private instrMult: number;
  private instrNext: number | undefined;
  private nativeCalls = 0;

  constructor(options: GasMeterOptions) {
    if (!Number.isSafeInteger(options.initialInternalGas) || options.initialInternalGas < 0) {
      throw new GasError('GAS_INVALID_ARGUMENT', `initial gas must be a non-negative safe integer, got ${options.initialInternalGas}`);
    }
    this.features = gasModelFeatures(options.gasModelVersion);
    this.sizeConfig = sizeConfigForGasModel(this.features, false);
    this.sizeConfigTraversal = sizeConfigForGasModel(this.features, true);
    this.costTable = options.costTable ?? costTableForGasModelVersion(options.gasModelVersion);
    this.metered = options.metered ?? true;
    this.packGenericExtraNop = options.packGenericExtraNop ?? options.gasModelVersion >= 13;
    this.initialInternalGas = options.initialInternalGas;
    this.gasLeft = options.initialInternalGas;
    ({ mult: this.heightMult, next: this.heightNext } = tierAt(this.costTable.stackHeightTiers, 0));
    ({ mult: this.sizeMult, next: this.sizeNext } = tierAt(this.costTable.stackSizeTiers, 0));
    ({ mult: this.instrMult, next: this.instrNext } = tierAt(this.costTable.instructionTiers, 0));
  }

  /**
   * Meter of a transaction (`SuiGasStatus::new_with_budget`): budget and gas price in MIST,
   * computation capped at `max_gas_computation_bucket` gas units.
   */
  static forTransaction(cfg: ProtocolConfig, budgetMist: bigint, gasPrice: bigint): GasMeter {
    if (gasPrice <= 0n) throw new GasError('GAS_INVALID_ARGUMENT', 'gas price cannot be 0');
    const maxComputation = cfg.u64('max_gas_computation_bucket') * gasPrice;
    const computationBudget = budgetMist > maxComputation ? maxComputation : budgetMist;
    const units = computationBudget / gasPrice;
    return new GasMeter({
      gasModelVersion: cfg.int('gas_model_version'),
      initialInternalGas: Number(units * BigInt(INTERNAL_UNITS_PER_GAS)),
      packGenericExtraNop: (cfg.optionalInt('execution_version') ?? 0) >= 4,
    });
  }

  /**
   * Meter of `sui move test` (1,000,000 gas units by default). The 2024-2025 test runner
   * used gas model 10 semantics on the old VM, which reproduces the fixture traces.
   */
  static forUnitTest(gasModelVersion = 10, boundGasUnits = UNIT_TEST_GAS_BOUND, packGenericExtraNop = false): GasMeter {
    return new GasMeter({ gasModelVersion, initialInternalGas: boundGasUnits * INTERNAL_UNITS_PER_GAS, packGenericExtraNop });
  }

  /** Internal gas left (`u64::MAX` when unmetered, as upstream). */
  remainingGas(): number {
    return this.metered ? this.gasLeft : Number.MAX_SAFE_INTEGER;
  }

  /** Gas units used so far (`gas_used_pre_gas_price`: internal used / 1000, rounded down). */
  gasUsedUnits(): number {
    return Math.floor((this.initialInternalGas - this.gasLeft) / INTERNAL_UNITS_PER_GAS);
  }

  /** Counters, for diagnostics and tests. */
  stats(): { instructions: number; stackHeight: number; stackHeightHighWater: number; stackSize: number; stackSizeHighWater: number; nativeCalls: number } {
    return {
      instructions: this.instructions,
      stackHeight: this.heightCurrent,
      stackHeightHighWater: this.heightHighWater,
      stackSize: this.sizeCurrent,
      stackSizeHighWater: this.sizeHighWater,
      nativeCalls: this.nativeCalls,
    };
  }

  /** Subtract `amount` internal gas; on shortfall leave 0 and throw `OUT_OF_GAS`. */
  deductGas(amount: number): void {
    if (!this.metered) return;
    if (amount > this.gasLeft) {
      this.gasLeft = 0;
      throw new GasError('OUT_OF_GAS', 'out of gas');
    }
    this.gasLeft -= amount;
  }

  /**
   * The core charge (`GasStatus::charge`): pushes raise the stack height, then the
   * instruction count and stack size grow, then
   * `instrMult × numInstructions + sizeMult × incrSize + heightMult × pushes` is deducted,
   * then the height drops by `pops` (saturating). `decrSize` is accepted for symmetry; the
   * stack size never decreases upstream.
   */
  charge(numInstructions: number, pushes: number, pops: number, incrSize: number, _decrSize = 0): void {
    this.heightCurrent += pushes;
    if (this.heightCurrent > this.heightHighWater) this.heightHighWater = this.heightCurrent;
    if (this.heightNext !== undefined && this.heightCurrent > this.heightNext) {
      ({ mult: this.heightMult, next: this.heightNext } = tierAt(this.costTable.stackHeightTiers, this.heightCurrent));
    }
    this.instructions += numInstructions;
    if (this.instrNext !== undefined && this.instructions > this.instrNext) {
      ({ mult: this.instrMult, next: this.instrNext } = tierAt(this.costTable.instructionTiers, this.instructions));
    }
    this.sizeCurrent += incrSize;
    if (this.sizeCurrent > this.sizeHighWater) this.sizeHighWater = this.sizeCurrent;
    if (this.sizeNext !== undefined && this.sizeCurrent > this.sizeNext) {
      ({ mult: this.sizeMult, next: this.sizeNext } = tierAt(this.costTable.stackSizeTiers, this.sizeCurrent));
    }
    this.deductGas(this.instrMult * numInstructions + this.sizeMult * incrSize + this.heightMult * pushes);
    this.heightCurrent = pops >= this.heightCurrent ? 0 : this.heightCurrent - pops;
  }

  // -------------------------------------------------------------------------------------
  // One method per instruction family (SuiGasMeter's GasMeter impl)
  // -------------------------------------------------------------------------------------

  /** An opcode with a static shape (see `STATIC_SHAPES`), by opcode byte. */
  chargeStatic(opcode: number): void {
    const i = 4 * opcode;
    const pushes = STATIC_SHAPE_TABLE[i];
    if (pushes < 0) throw new GasError('GAS_INVALID_ARGUMENT', `opcode 0x${opcode.toString(16)} has no static gas shape`);
    this.charge(1, pushes, STATIC_SHAPE_TABLE[i + 1], STATIC_SHAPE_TABLE[i + 2], STATIC_SHAPE_TABLE[i + 3]);
  }

  /** {@link chargeStatic} by instruction kind (`'LdU64'`, `'Add'`...). */
  chargeStaticKind(kind: BytecodeKind): void {
    this.chargeStatic(OPCODE[kind]);
  }

  /** `Pop`: one pop; the value's size is not charged. */
  chargePop(): void {
    this.charge(1, 0, 1, 0, 0);
  }

  /** `LdConst`: one push of the constant's serialized length (`const.data.len()`). */
  chargeLdConst(serializedBytes: number): void {
    this.charge(1, 1, 0, serializedBytes, 0);
  }

  /** `CopyLoc`: one push of the copied value's size. */
  chargeCopyLoc(value: ValueView): void {
    this.charge(1, 1, 0, abstractMemorySize(value, this.sizeConfig), 0);
  }

  /** `MoveLoc`: one push of `REFERENCE_SIZE` (gas model > 10) or of the value's size. */
  chargeMoveLoc(value: ValueView): void {
    const size = this.features.reweightMoveLoc ? REFERENCE_SIZE : abstractMemorySize(value, this.sizeConfig);
    this.charge(1, 1, 0, size, 0);
  }

  /** `StLoc`: one pop; the value's size is not charged. */
  chargeStLoc(): void {
    this.charge(1, 0, 1, 0, 0);
  }

  /**
   * `Call` / `CallGeneric` (also a native callee): one instruction, `argCount` pops, nothing
   * else. Upstream charges it after announcing the callee frame.
   */
  chargeCall(argCount: number): void {
    this.charge(1, 0, argCount, 0, 0);
  }

  /**
   * `Pack`, `PackGeneric`, `PackVariant`, `PackVariantGeneric`: `fieldCount` pops, one
   * push of `STRUCT_SIZE`. With {@link packGenericExtraNop}, `PackGeneric` (pass
   * `isPackGeneric`) is followed by a `Nop` charge (one more instruction).
   */
  chargePack(fieldCount: number, isPackGeneric = false): void {
    this.charge(1, 1, fieldCount, STRUCT_SIZE, 0);
    if (isPackGeneric && this.packGenericExtraNop) this.charge(1, 0, 0, 0, 0);
  }

  /** Every `Unpack*` (by value or by reference): one pop, `fieldCount` pushes, no size. */
  chargeUnpack(fieldCount: number): void {
    this.charge(1, fieldCount, 1, 0, STRUCT_SIZE);
  }

  /** `VariantSwitch`: one pop. */
  chargeVariantSwitch(): void {
    this.charge(1, 0, 1, 0, 0);
  }

  /** `VecPack(n)`: `n` pops, one push of `VEC_SIZE`. */
  chargeVecPack(count: number): void {
    this.charge(1, 1, count, VEC_SIZE, 0);
  }

  /** `VecUnpack(n)`: one pop, `n` pushes, no size. */
  chargeVecUnpack(count: number): void {
    this.charge(1, count, 1, 0, VEC_SIZE);
  }

  /** `VecSwap`: 3 pops (gas model > 10) or 1 pop + 1 push, no size. */
  chargeVecSwap(): void {
    const decr = REFERENCE_SIZE + 2 * PRIMITIVE_TYPE_SIZE;
    if (this.features.reduceStackSize) this.charge(1, 0, 3, 0, decr);
    else this.charge(1, 1, 1, 0, decr);
  }

  /**
   * `ReadRef`: one pop, one push of the size of the value *behind* the reference (pass a
   * view of that value, not of the reference).
   */
  chargeReadRef(referent: ValueView): void {
    const config = this.features.reweightReadRef ? this.sizeConfigTraversal : this.sizeConfig;
    this.charge(1, 1, 1, abstractMemorySize(referent, config), REFERENCE_SIZE);
  }

  /** `WriteRef`: two pops, the new value's size, one push up to gas model 10. */
  chargeWriteRef(newValue: ValueView): void {
    this.charge(1, this.features.reduceStackSize ? 0 : 1, 2, abstractMemorySize(newValue, this.sizeConfig), 0);
  }

  /** `Eq`: two pops, one push of `1 + size(lhs) + size(rhs)` (references traversed from gas model 10). */
  chargeEq(lhs: ValueView, rhs: ValueView): void {
    const operands = abstractMemorySize(lhs, this.sizeConfigTraversal) + abstractMemorySize(rhs, this.sizeConfigTraversal);
    this.charge(1, 1, 2, PRIMITIVE_TYPE_SIZE + operands, operands);
  }

  /** `Neq`: like `Eq` from gas model 10; before, the push is only the bool's size. */
  chargeNeq(lhs: ValueView, rhs: ValueView): void {
    if (!this.features.neqChargesOperands) {
      this.charge(1, 1, 2, PRIMITIVE_TYPE_SIZE, 0);
      return;
    }
    const operands = abstractMemorySize(lhs, this.sizeConfigTraversal) + abstractMemorySize(rhs, this.sizeConfigTraversal);
    this.charge(1, 1, 2, PRIMITIVE_TYPE_SIZE + operands, operands);
  }

  /**
   * Before a native runs (`charge_native_function_before_execution`): one instruction; up
   * to gas model 13 the arguments are popped a second time (the height saturates at 0).
   */
  chargeNativeBefore(argCount: number): void {
    this.charge(1, 0, this.features.legacyNativePopsArgs ? argCount : 0, 0, 0);
  }

  /**
   * After a native returned (`charge_native_function`): one push per return value and
   * their total size, then the native's own cost. Beyond 700 native calls (gas model > 8)
   * the native cost is charged as that many instructions, so it pays the instruction tier.
   */
  chargeNativeAfter(nativeCost: number, returnValues: readonly ValueView[]): void {
    let size = 0;
    for (const v of returnValues) size += abstractMemorySize(v, this.sizeConfig);
    this.nativeCalls++;
    const threshold = this.features.nativeCallThreshold;
    if (threshold !== undefined && this.nativeCalls > threshold) {
      this.charge(nativeCost, returnValues.length, 0, size, 0);
    } else {
      this.charge(0, returnValues.length, 0, size, 0);
      this.deductGas(nativeCost);
    }
  }

  /**
   * `charge_bytes`: object reads (`obj_access_cost_read_per_byte`) and package publishing
   * (`package_publish_cost_per_byte`) cost `bytes × costPerByte` internal gas; at gas model 4
   * the bytes also grow the stack size and pay its tier.
   */
  chargeBytes(bytes: number, costPerByte: number): void {
    if (this.features.chargeInputAsMemory) {
      this.sizeCurrent += bytes;
      if (this.sizeCurrent > this.sizeHighWater) this.sizeHighWater = this.sizeCurrent;
      if (this.sizeNext !== undefined && this.sizeCurrent > this.sizeNext) {
        ({ mult: this.sizeMult, next: this.sizeNext } = tierAt(this.costTable.stackSizeTiers, this.sizeCurrent));
      }
      this.deductGas(this.sizeMult * bytes * costPerByte);
    } else {
      this.deductGas(bytes * costPerByte);
    }
  }
}
