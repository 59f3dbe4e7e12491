/**
 * Tokens and money: usage per call, per package and per run (input, output, cached,
 * reasoning), and cost from a price table in dollars per million tokens. A model without
 * a price costs `null`, never 0, and says so once; a budget needs prices to be kept.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { addUsage, type ModelUsage, zeroUsage } from './model/types.js';
import { errorMessage, SmiError, type SmiErrorOptions } from '@smi/bytecode';

/** Dollars per million tokens of one model. */
export interface ModelPrice {
  input: number;
  output: number;
  /** Input tokens served from the provider's prompt cache (default: the input price). */
  cached_input?: number;
}

/** A price table: model id (or alias) → prices. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** Why a price table cannot be read. */
export class PriceTableError extends SmiError<'PRICE_TABLE'> {
  override readonly name = 'PriceTableError';

  constructor(message: string, options?: SmiErrorOptions) {
    super('PRICE_TABLE', message, options);
  }
}

/** Read `prices.yaml` (`models: {<id>: {input, output, cached_input?}}`, $ per million tokens). */
export function readPriceTable(file: string): PriceTable {
  if (!existsSync(file)) throw new PriceTableError(`price table ${file} not found`);
  let v: unknown;
  try {
    v = parseYaml(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new PriceTableError(`${file}: not YAML: ${errorMessage(e)}`);
  }
  const models = (v as { models?: unknown } | null)?.models;
  if (models === null || typeof models !== 'object') throw new PriceTableError(`${file}: expected a "models:" mapping`);
  const out: Record<string, ModelPrice> = {};
  for (const [id, p] of Object.entries(models as Record<string, unknown>)) {
    const price = p as Partial<ModelPrice> | null;
    const ok = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0;
    if (price === null || !ok(price.input) || !ok(price.output) || (price.cached_input !== undefined && !ok(price.cached_input))) {
      throw new PriceTableError(`${file}: models.${id} needs input and output prices (numbers, $ per million tokens)`);
    }
    out[id] = { input: price.input, output: price.output, ...(price.cached_input !== undefined ? { cached_input: price.cached_input } : {}) };
  }
  return out;
}

/** The cost of `usage` at `price`, in dollars. Cached input tokens are part of `input`. */
export function costOf(usage: ModelUsage, price: ModelPrice): number {
  const cached = Math.min(usage.cached, usage.input);
  const dollars = ((usage.input - cached) * price.input + cached * (price.cached_input ?? price.input) + usage.output * price.output) / 1_000_000;
  return Math.round(dollars * 1e9) / 1e9;
}

/**
 * Usage and cost of some calls. `costUsd` is the list price of the tokens (what the
 * answers cost to produce: the same whether they came from the response cache or not,
 * so a result does not depend on the cache); what was actually paid is in the run's
 * usage ledger, where a cache hit costs nothing.
 */
export interface UsageTotals {
  calls: number;
  cacheHits: number;
  usage: ModelUsage;
  /** Dollars at list price; `null` when the model has no price. */
  costUsd: number | null;
}

/** No calls yet. */
export function emptyTotals(priced: boolean): UsageTotals {
  return { calls: 0, cacheHits: 0, usage: zeroUsage(), costUsd: priced ? 0 : null };
}

/** Totals plus one call. */
export function addCall(t: UsageTotals, usage: ModelUsage, cacheHit: boolean, price: ModelPrice | undefined): UsageTotals {
  return {
    calls: t.calls + 1,
    cacheHits: t.cacheHits + (cacheHit ? 1 : 0),
    usage: addUsage(t.usage, usage),
    costUsd: t.costUsd === null || price === undefined || usage.unknown === true ? null : Math.round((t.costUsd + costOf(usage, price)) * 1e9) / 1e9,
  };
}

/** What one call actually cost: nothing for a cache hit, `null` without a price or when the answer gave no usage. */
export function paidFor(usage: ModelUsage, cacheHit: boolean, price: ModelPrice | undefined): number | null {
  if (price === undefined) return null;
  if (cacheHit) return 0;
  return usage.unknown === true ? null : costOf(usage, price);
}

/** `a + b`. */
export function addTotals(a: UsageTotals, b: UsageTotals): UsageTotals {
  return {
    calls: a.calls + b.calls,
    cacheHits: a.cacheHits + b.cacheHits,
    usage: addUsage(a.usage, b.usage),
    costUsd: a.costUsd === null || b.costUsd === null ? null : Math.round((a.costUsd + b.costUsd) * 1e9) / 1e9,
  };
}
