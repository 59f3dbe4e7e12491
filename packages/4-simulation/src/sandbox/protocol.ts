/**
 * The `sandbox-exec` response envelope, as the original sandbox wrote it: `success`, then
 * the optional fields (`error`, `error_category`, `abort_code`, `abort_module`, `data`,
 * `effects`, `events`, `gas_used`, `failed_command_index`, `failed_command_description`,
 * `commands_succeeded`), each left out when it has no value. With fetching enabled two more
 * come last: `fetched` (what the request fetched from the node) and `fetch_error` (what
 * could not be fetched, and why).
 */
import type { Json } from '@smi/move-vm';

/**
 * Error categories (the original's set). `ParseError` covers every malformed request:
 * not JSON, unknown action, missing or ill-typed parameters, bad ids or targets.
 */
export type SandboxErrorCategory =
  | 'ContractAbort'
  | 'MissingPackage'
  | 'MissingObject'
  | 'TypeMismatch'
  | 'DeserializationFailed'
  | 'ExecutionError'
  | 'SharedObjectLockConflict'
  | 'DeploymentError'
  | 'ObjectCreationError'
  | 'CompilationError'
  | 'ParseError';

/** Every category, for documentation and tests. */
export const SANDBOX_ERROR_CATEGORIES: readonly SandboxErrorCategory[] = [
  'ContractAbort',
  'MissingPackage',
  'MissingObject',
  'TypeMismatch',
  'DeserializationFailed',
  'ExecutionError',
  'SharedObjectLockConflict',
  'DeploymentError',
  'ObjectCreationError',
  'CompilationError',
  'ParseError',
];

/** An object written by a transaction, as `effects.created` / `mutated` / `unwrapped` list it. */
export interface SandboxObjectEffect {
  id: string;
  object_type?: string;
  /** `address:0x…`, `object:0x…`, `shared`, `immutable` or `consensus:0x…`. */
  owner: string;
  /** Version after the transaction (the transaction's lamport version). */
  version: number;
  /** Object digest after the transaction (base58). */
  digest: string;
}

/** Values one command returned. */
export interface SandboxReturnValues {
  command_index: number;
  /** BCS of each value, hex. */
  values: string[];
  count: number;
  /** Type tag of each value. */
  types: string[];
  /** Each value decoded with its type's layout. */
  decoded: Json[];
}

/** Effects of a transaction. */
export interface SandboxEffects {
  status: 'success' | 'failure';
  transaction_digest: string;
  effects_digest: string;
  lamport_version: number;
  created: SandboxObjectEffect[];
  mutated: SandboxObjectEffect[];
  deleted: string[];
  wrapped: string[];
  unwrapped: SandboxObjectEffect[];
  gas_summary: {
    computation_cost: number;
    storage_cost: number;
    storage_rebate: number;
    non_refundable_storage_fee: number;
    /** computation + storage − rebate (negative when the rebate is larger). */
    net_gas_used: number;
  };
  /** The gas coin, when a real coin paid (not the environment's transient mock coin). */
  gas_object?: string;
  return_values?: SandboxReturnValues[];
}

/** An event a transaction emitted. */
export interface SandboxEvent {
  event_type: string;
  /** BCS of the event value, hex. */
  data_hex: string;
  /** Position in the transaction's events. */
  sequence: number;
  package_id: string;
  transaction_module: string;
  sender: string;
  /** The event value decoded with its type's layout. */
  data: Json;
}

/** A package or object a request fetched from the node (and the session now keeps). */
export interface SandboxFetched {
  kind: 'package' | 'object';
  id: string;
  version: number;
}

/** Why fetching stopped a request: a package or object the node could not give. */
export interface SandboxFetchError {
  kind: 'package' | 'object';
  id: string;
  /**
   * The data source's code (`NOT_FOUND`, `UNAVAILABLE`, `RATE_LIMITED`, `INVALID_RESPONSE`,
   * `UNSUPPORTED`, `REJECTED`), `FETCH_LIMIT` (the request needed too many fetches) or
   * `UNLOADABLE` (what came back is not a usable package or object).
   */
  code: string;
  message: string;
}

/** The response to one request. Fields without a value are left out. */
export interface SandboxResponse {
  success: boolean;
  error?: string;
  error_category?: SandboxErrorCategory;
  /** A number, or a decimal string when it exceeds 2^53 (clever error codes). */
  abort_code?: number | string;
  /** `module::function` of the abort. */
  abort_module?: string;
  /** `module::function` where a runtime error that is not an abort happened (arithmetic, vector bounds, ...), when known. */
  error_location?: string;
  data?: Json;
  effects?: SandboxEffects;
  events?: SandboxEvent[];
  gas_used?: number;
  failed_command_index?: number;
  failed_command_description?: string;
  commands_succeeded?: number;
  /** With fetching: what the request fetched, in order (left out when nothing was). */
  fetched?: SandboxFetched[];
  /** With fetching: what could not be fetched (the request then failed). */
  fetch_error?: SandboxFetchError;
}

/** Field order of a serialized response. */
const FIELD_ORDER: readonly (keyof SandboxResponse)[] = [
  'success',
  'error',
  'error_category',
  'abort_code',
  'abort_module',
  'error_location',
  'data',
  'effects',
  'events',
  'gas_used',
  'failed_command_index',
  'failed_command_description',
  'commands_succeeded',
  'fetched',
  'fetch_error',
];

/** A success with `data`. */
export function ok(data?: Json): SandboxResponse {
  return data === undefined ? { success: true } : { success: true, data };
}

/** A failure with a message and category. */
export function fail(error: string, category: SandboxErrorCategory, extra: Partial<SandboxResponse> = {}): SandboxResponse {
  return { success: false, error, error_category: category, ...extra };
}

/** A u64 (or larger) as a JSON number when exact, else a decimal string. */
export function numberOrString(n: bigint): number | string {
  return n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString();
}

/**
 * Make any value JSON-safe: bigints become numbers (exact) or decimal strings, byte arrays
 * hex, `undefined` fields disappear. A last line of defence: handlers build JSON already.
 */
function toJsonSafe(v: unknown): Json {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'bigint') return numberOrString(v);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : toJsonSafe(x)));
  if (typeof v === 'object') {
    const out: Record<string, Json> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (x !== undefined) out[k] = toJsonSafe(x);
    return out;
  }
  return String(v);
}

/** The response as a plain JSON object: fields in protocol order, absent ones left out. */
export function responseJson(r: SandboxResponse): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const k of FIELD_ORDER) {
    const v = r[k];
    if (v === undefined || v === null) continue;
    if (k === 'commands_succeeded' && v === 0) continue;
    out[k] = toJsonSafe(v);
  }
  return out;
}

/** Serialize a response: pretty (2-space) for single-shot, compact for interactive mode. */
export function serializeResponse(r: SandboxResponse, pretty: boolean): string {
  return pretty ? JSON.stringify(responseJson(r), null, 2) : JSON.stringify(responseJson(r));
}
