/**
 * Transaction-level gas of production Sui (`crates/sui-types/src/gas_model/gas_v2.rs`,
 * `SuiGasStatus`): how a budget becomes VM gas, and how the VM's gas units become the
 * computation cost in MIST, plus storage cost and rebates.
 *
 * At protocol 135 (gas model 14):
 * - amounts are in MIST (10^9 MIST = 1 SUI); the gas price (MIST per gas unit) is at least
 *   the epoch's reference gas price (RGP, from the system state, not the protocol config);
 * - the budget must lie in [`base_tx_cost_fixed` × gasPrice (`txn_base_cost_as_multiplier`),
 *   `max_tx_gas`] = [1000 × gasPrice, 50,000,000,000,000] MIST;
 * - the VM gets `floor(min(budget, max_gas_computation_bucket × gasPrice) / gasPrice)` gas
 *   units (at most 5,000,000), × 1000 internal units ({@link computationBudgetUnits});
 * - every instruction costs internal units through the tiers of `cost-tables.ts` (1 per
 *   instruction + 1 per byte pushed + 1 per push while under 20,000 instructions, stack
 *   height 1,000 and stack size 100,000); natives add their own cost; before execution the
 *   input objects (system packages excepted) cost `obj_access_cost_read_per_byte` (15)
 *   internal units per byte (gas model < 15, `charge_input_objects_legacy`), and publishing
 *   costs `package_publish_cost_per_byte` (80) per module byte (`GasMeter.chargeBytes`);
 * - gas used = floor(internal units used / 1000); the computation cost is that, rounded
 *   by `gas_rounding_halve_digits` (protocol 108+: keep the upper half of the digits,
 *   minimum 1000; before: round up to a multiple of `gas_rounding_step` = 1000 from
 *   protocol 14; before that: buckets up to `max_gas_computation_bucket`), times the gas price
 *   (aborted transactions pay at most `max_gas_price_rgp_factor_for_aborted_transactions`
 *   (100) × RGP per unit); when it reaches the budget the transaction fails with
 *   `InsufficientGas` and the whole budget is the computation cost;
 * - storage: each written object costs `bytes × obj_data_cost_refundable (100) ×
 *   storage_gas_price (76)` MIST; the sender gets back `round(rebate × storage_rebate_rate
 *   (9900) / 10000)` of the old objects' storage rebate, the rest is the non-refundable fee.
 */
import type { ProtocolConfig } from '../config/protocol-config.js';
import { INTERNAL_UNITS_PER_GAS } from './gas-meter.js';

/** How computation gas is rounded. */
export type GasRoundingMode = { kind: 'halveDigits' } | { kind: 'stepped'; step: bigint } | { kind: 'bucketize'; maxBucket: bigint };

/** The rounding mode a protocol version uses (`SuiGasStatus::new_with_budget`). */
export function gasRoundingMode(cfg: ProtocolConfig): GasRoundingMode {
  if (cfg.flag('gas_rounding_halve_digits')) return { kind: 'halveDigits' };
  const step = cfg.optionalU64('gas_rounding_step');
  if (step !== undefined) return { kind: 'stepped', step: step > 0n ? step : 1n };
  return { kind: 'bucketize', maxBucket: cfg.u64('max_gas_computation_bucket') };
}

/** `half_digits_rounding`: below 1000 → 1000; else round up to 10^floor(digits/2), digits = floor(log10 n). */
export function halfDigitsRounding(n: bigint): bigint {
  if (n < 1000n) return 1000n;
  const digits = n.toString().length - 1;
  const base = 10n ** BigInt(Math.floor(digits / 2));
  return ((n + base - 1n) / base) * base;
}

/** Bucket ceilings of `computation_bucket(max)`: 1k, 5k, 10k, 20k, 50k, 200k, 1M, max. */
export function bucketCost(gasUsed: bigint, maxBucket: bigint): bigint {
  for (const ceiling of [1_000n, 5_000n, 10_000n, 20_000n, 50_000n, 200_000n, 1_000_000n, maxBucket]) {
    if (ceiling >= gasUsed) return ceiling;
  }
  return maxBucket;
}

/** Rounded computation units (before multiplying by the gas price). */
export function roundComputationUnits(gasUsed: bigint, mode: GasRoundingMode): bigint {
  switch (mode.kind) {
    case 'halveDigits':
      return halfDigitsRounding(gasUsed);
    case 'stepped':
      return gasUsed > 0n && gasUsed % mode.step === 0n ? gasUsed : (gasUsed / mode.step + 1n) * mode.step;
    case 'bucketize':
      return bucketCost(gasUsed, mode.maxBucket);
  }
}

/** VM gas units for a budget (`min(budget, max_gas_computation_bucket × price) / price`). */
export function computationBudgetUnits(cfg: ProtocolConfig, budgetMist: bigint, gasPrice: bigint): bigint {
  const max = cfg.u64('max_gas_computation_bucket') * gasPrice;
  return (budgetMist > max ? max : budgetMist) / gasPrice;
}

/** Internal gas the VM starts with for a budget. */
export function computationBudgetInternal(cfg: ProtocolConfig, budgetMist: bigint, gasPrice: bigint): bigint {
  return computationBudgetUnits(cfg, budgetMist, gasPrice) * BigInt(INTERNAL_UNITS_PER_GAS);
}

/** Smallest and largest budget a transaction may declare (MIST). */
export function budgetBounds(cfg: ProtocolConfig, gasPrice: bigint): { min: bigint; max: bigint } {
  const base = cfg.u64('base_tx_cost_fixed');
  return { min: cfg.flag('txn_base_cost_as_multiplier') ? base * gasPrice : base, max: cfg.u64('max_tx_gas') };
}

/** Result of {@link computationCost}. */
export interface ComputationCost {
  /** MIST charged for computation. */
  cost: bigint;
  /** The budget was not enough (`InsufficientGas`); `cost` is then the budget. */
  insufficientGas: boolean;
}

/**
 * `bucketize_computation`: rounded gas units × effective gas price, capped at the budget.
 * For aborted transactions pass `aborted` and the RGP (price capped at factor × RGP).
 */
export function computationCost(cfg: ProtocolConfig, gasUsedUnits: bigint, gasPrice: bigint, budgetMist: bigint, aborted?: { referenceGasPrice: bigint }): ComputationCost {
  let price = gasPrice;
  const factor = cfg.optionalU64('max_gas_price_rgp_factor_for_aborted_transactions');
  if (aborted !== undefined && factor !== undefined) {
    const cap = factor * aborted.referenceGasPrice;
    if (cap < price) price = cap;
  }
  const cost = roundComputationUnits(gasUsedUnits, gasRoundingMode(cfg)) * price;
  return budgetMist <= cost ? { cost: budgetMist, insufficientGas: true } : { cost, insufficientGas: false };
}

/** Storage cost of writing an object of `bytes` (`new_size × obj_data_cost_refundable × storage_gas_price`). */
export function objectStorageCost(cfg: ProtocolConfig, bytes: bigint): bigint {
  return bytes * cfg.u64('obj_data_cost_refundable') * cfg.u64('storage_gas_price');
}

/** Part of a storage rebate returned to the sender (`sender_rebate`, rounding half up). */
export function senderRebate(cfg: ProtocolConfig, storageRebate: bigint): bigint {
  return (storageRebate * cfg.u64('storage_rebate_rate') + 5000n) / 10000n;
}
