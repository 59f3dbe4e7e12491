/**
 * What a tool answers: a JSON object, both as the text content (for clients that read text)
 * and as `structuredContent`; a failure as `isError: true` with the JSON text
 * `{"error_code","message"}` (plus `diagnostics` for compile errors). Transactions that ran
 * are results whatever their status — a Move abort is `"status": "aborted"`, not an error.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type SandboxResponse, sandboxResponseJson } from '@smi/simulation';
import { sandboxError, type SmiToolError } from './errors.js';
import type { Json } from '@smi/bytecode';

/** A JSON value. */
export type { Json };

/** A JSON object: what every tool answers. */
export type JsonObject = { [key: string]: Json };

/**
 * Any value as JSON: bigints as numbers when exact (decimal strings otherwise), byte arrays
 * as hex, `undefined` fields left out.
 */
export function toJson(v: unknown): Json {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'bigint') return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  if (v instanceof Uint8Array) return `0x${Buffer.from(v).toString('hex')}`;
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : toJson(x)));
  if (typeof v === 'object') {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (x !== undefined) out[k] = toJson(x);
    return out;
  }
  return String(v);
}

/** `true` for a JSON object (not an array, not null). */
export function isJsonObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An object value as a JSON object (anything else: an empty one). */
export function toJsonObject(v: object): JsonObject {
  const j = toJson(v);
  return isJsonObject(j) ? j : {};
}

/** A successful tool result. */
export function okResult(value: JsonObject): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/** A failed tool result: `{"error_code","message"}` (and `diagnostics` when there are some). */
export function errorResult(e: SmiToolError): CallToolResult {
  const body: JsonObject = { error_code: e.code, message: e.message };
  if (e.diagnostics !== undefined && e.diagnostics !== '') body.diagnostics = e.diagnostics;
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}

/** The `data` of a successful sandbox response (an object); a failed one throws its error. */
export function sandboxData(r: SandboxResponse): JsonObject {
  if (!r.success) throw sandboxError(r);
  const data = sandboxResponseJson(r).data;
  return isJsonObject(data) ? data : {};
}

/**
 * The result of a transaction (`call_function`, `execute_ptb`): `status` `success`,
 * `aborted` (a Move abort: `abort_code`, `abort_location`) or `failed` (any other failure of
 * the transaction: out of gas, a bad argument at run time…), with `error`, the failing
 * command, `effects`, `events` and `gas_used`. A request that never ran (bad input, an
 * unknown function) throws its error instead.
 */
export function transactionResult(r: SandboxResponse, extra: JsonObject = {}): JsonObject {
  const json = sandboxResponseJson(r);
  if (json.effects === undefined) throw sandboxError(r);
  const status = r.success ? 'success' : r.error_category === 'ContractAbort' ? 'aborted' : 'failed';
  const out: JsonObject = { status, ...extra };
  if (status !== 'success') {
    out.error = json.error ?? null;
    if (json.error_category !== undefined) out.error_category = json.error_category;
  }
  if (json.abort_code !== undefined) out.abort_code = json.abort_code;
  if (json.abort_module !== undefined) out.abort_location = json.abort_module;
  for (const k of ['failed_command_index', 'failed_command_description', 'commands_succeeded', 'gas_used', 'effects', 'events', 'fetched'] as const) {
    const v = json[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}
