/**
 * A row of `benchmark-local` output: the original's JSONL schema (`BenchmarkReport`, keys
 * without a value left out), plus the keys the original lacked. Keys are always written
 * in this order, so the same outcome is the same bytes.
 */
import type { Json } from '@smi/move-vm';
import type { Provenance } from './sources.js';
import type { AbortCategory, ErrorCode, ErrorSource, Phase, Stage } from './taxonomy.js';

/**
 * What kind of hit a row is, by the arguments the transaction passed (the transaction
 * context and system objects such as the Clock are supplied by the system and do not
 * count): `structured` when at least one argument is a struct or object built by calls
 * (a coin split from the gas coin included) or taken from the state, `pure_only` when
 * every argument is a plain value, `no_args` when there is none.
 */
export type HitClass = 'structured' | 'pure_only' | 'no_args';

/** Distinct instructions of the target function the transaction executed, of all it has. */
export interface Coverage {
  executed: number;
  total: number;
}

/** The status of a row: the highest tier reached (`static_pass` only with `--static-only`). */
export type RowStatus = 'tier_b_hit' | 'tier_a_hit' | 'miss' | 'static_pass';

/** `tier_a_details`. */
export interface TierADetails {
  resolved_params: string[];
  bcs_roundtrip_verified: boolean;
  has_object_params: boolean;
}

/** A call the target's body makes to a module outside 0x1/0x2/0x3. */
export interface StaticCall {
  target_module: string;
  function_name: string;
  is_generic: boolean;
}

/** `tier_b_details`. */
export interface TierBDetails {
  execution_success: boolean;
  error?: string;
  target_modules_accessed?: string[];
  static_calls?: StaticCall[];
  /** New: `ptb` (`--use-ptb`) or `direct` (one call per transaction). */
  path: 'ptb' | 'direct';
  /** New: attempts made (value profiles, alternative sources) before this outcome. */
  attempts: number;
  /** New: the value profile of the attempt reported. */
  value_profile: string;
  /** New: `relaxed` when the transaction ran with dev-inspect rules (a value it could neither drop nor send). */
  checks: 'strict' | 'relaxed';
  /** New: the length given to every byte vector (a length the target's code checks), when one was. */
  byte_length?: number;
  /**
   * New: plain values the search took from what the code compared the inputs with, by
   * position (the target's parameter `i` is `"i"`, argument `k` of the call feeding it
   * `"i.k"`; a step of a sequence `"step:<site>:<n>..."`).
   */
  learned_values?: Record<string, Json>;
  /** New: values the transaction could neither drop nor send (why it ran relaxed). */
  undisposable?: string[];
  /** New: calls made first to set up the state the target reads (`module::function`, in order). */
  sequence?: string[];
  /** New: calls that consumed values the transaction could not drop or send (`module::function`). */
  consumed_by?: string[];
  /** New: instruction coverage of the target function in the transaction reported. */
  coverage?: Coverage;
}

/** `abort`: what stopped a failed Tier B. */
export interface AbortInfo {
  /** The abort code (decimal), or `null` for an execution error that is not an abort. */
  code: string | null;
  /** `module::function` where it happened, when known. */
  location: string | null;
  category: AbortCategory;
}

/** A type argument and why it was chosen. */
export interface TypeArgJson {
  type: string;
  /** `bound` by an object of the state, a real `coin` type of the state, or the `default` for its constraints. */
  reason: 'bound' | 'default' | 'coin';
}

/** One row. */
/** The status of a package that could not be read (a bytecode status, or the package error's code). */
export type PackageReadStatus = string & { readonly packageReadStatus?: never };

export interface BenchmarkRow {
  target_package: string;
  target_module: string;
  target_function: string;
  /**
   * The package (storage id) whose row counts for this function when an upgrade of the
   * same original package has it too: functions are counted once per original id.
   */
  duplicate_of?: string;
  status: RowStatus;
  failure_stage?: Stage;
  failure_reason?: string;
  tier_a_details?: TierADetails;
  tier_b_details?: TierBDetails;
  /**
   * The taxonomy's code (`E101` …); for a target package that could not be read at all (a row
   * with no function), the reader's own status instead (`BAD_MAGIC`, `MALFORMED`, …).
   */
  error_code?: ErrorCode | PackageReadStatus;
  error_phase?: Phase;
  error_source?: ErrorSource;
  is_expected_limitation?: boolean;
  type_args?: TypeArgJson[];
  abort?: AbortInfo;
  gas_used?: number;
  created_object_types?: string[];
  provenance?: Provenance;
  /** What kind of inputs the transaction reported passed (see {@link HitClass}). */
  hit_class?: HitClass;
  permissive_crypto?: true;
  elapsed_ms?: number;
  transactions?: Json[];
}

const ORDER: readonly (keyof BenchmarkRow)[] = [
  'target_package',
  'target_module',
  'target_function',
  'duplicate_of',
  'status',
  'failure_stage',
  'failure_reason',
  'tier_a_details',
  'tier_b_details',
  'error_code',
  'error_phase',
  'error_source',
  'is_expected_limitation',
  'type_args',
  'abort',
  'gas_used',
  'created_object_types',
  'provenance',
  'hit_class',
  'permissive_crypto',
  'elapsed_ms',
  'transactions',
];

/** The row as one JSON line (keys in schema order, absent ones left out). */
export function rowLine(row: BenchmarkRow): string {
  const out: Record<string, unknown> = {};
  for (const k of ORDER) if (row[k] !== undefined) out[k] = row[k];
  return JSON.stringify(out) + '\n';
}

/** The order rows are written in: package id, module name, then position in the module. */
export function rowSortKey(row: Pick<BenchmarkRow, 'target_package' | 'target_module'>, defIndex: number): string {
  return `${row.target_package}::${row.target_module}::${defIndex.toString().padStart(6, '0')}`;
}
