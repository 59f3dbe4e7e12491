/**
 * Sandbox requests: `{"action": "<name>", ...params}`. Each action's parameters are a zod
 * schema — the trust boundary of the protocol — with the original sandbox's names; new
 * optional parameters only add to them. Unknown extra fields are ignored (as the original's
 * serde did), so old clients keep working.
 */
import { z } from 'zod';
import { fastParams } from './fast-parse.js';
import { jsonValue, ptbCommand, ptbInput, u64 } from './ptb-request.js';
import { SmiError, type SmiErrorOptions } from '@smi/bytecode';

const address = z.string().regex(/^(0x)?[0-9a-fA-F]{1,64}$/, 'expected an address (hex, 0x optional)');
const name = z.string().min(1);
const checks = z.enum(['strict', 'relaxed']);

/**
 * Who owns a created object: `"shared"`, `"immutable"`, an address (owned by it), or
 * `"object:0x…"` (a child of that object). Default: the sender.
 */
const owner = z.string().regex(/^(shared|immutable|object:(0x)?[0-9a-fA-F]{1,64}|(0x)?[0-9a-fA-F]{1,64})$/, {
  error: 'expected "shared", "immutable", an address or "object:<id>"',
});

/** Options of the actions that run a transaction. */
const txOptions = {
  sender: address.optional(),
  gas_budget: u64.optional(),
  /** A `Coin<SUI>` of the sender to pay with (default: a transient mock coin). */
  gas_coin: address.optional(),
  checks: checks.optional(),
};

const none = z.object({});

/** Parameters of every action, by name (aliases included). */
export const ACTION_SCHEMAS = {
  load_module: z.object({ bytecode_path: name, module_name: z.string().optional() }),
  create_object: z.object({
    object_type: name,
    fields: z.record(z.string(), jsonValue).default({}),
    object_id: address.optional(),
    owner: owner.optional(),
    is_shared: z.boolean().optional(),
  }),
  execute_ptb: z.object({ inputs: z.array(ptbInput).default([]), commands: z.array(ptbCommand), ...txOptions }),
  inspect_struct: z.object({ package: address, module: z.string().optional(), struct_name: z.string().optional() }),
  get_state: none,
  reset: z.object({ keep_packages: z.boolean().optional() }),
  call_function: z.object({
    package: address,
    module: name,
    function: name,
    type_args: z.array(z.string()).default([]),
    args: z.array(jsonValue).default([]),
    ...txOptions,
  }),
  register_coin: z.object({
    coin_type: name,
    decimals: z.number().int().min(0).max(255),
    symbol: z.string(),
    name: z.string(),
    description: z.string().optional(),
    icon_url: z.string().optional(),
  }),
  get_coin_metadata: z.object({ coin_type: name }),
  list_coins: none,
  /** `version` (new): with fetching, the version to fetch when the session does not hold the object. */
  inspect_object: z.object({ object_id: address, version: u64.optional() }),
  list_objects: z.object({ include_packages: z.boolean().optional() }),
  get_clock: none,
  get_time: none,
  set_clock: z.object({ timestamp_ms: u64 }),
  set_time: z.object({ timestamp_ms: u64 }),
  list_modules: z.object({ package: address.optional() }),
  list_functions: z.object({ module_path: name }),
  list_structs: z.object({ module_path: name }),
  get_function_info: z.object({ module_path: name, function_name: name }),
  find_constructors: z.object({ type_path: name }),
  search_types: z.object({
    pattern: z.string(),
    ability_filter: z
      .union([z.string(), z.array(z.string())])
      .nullable()
      .optional(),
  }),
  search_functions: z.object({ pattern: z.string(), entry_only: z.boolean().default(false) }),
  get_system_object_info: z.object({ object_name: name }),
  validate_type: z.object({ type_str: z.string() }),
  encode_bcs: z.object({ type_str: name, value: jsonValue }),
  decode_bcs: z.object({ type_str: name, bytes_hex: z.string() }),
  disassemble_function: z.object({ module_path: name, function_name: name }),
  compile_move: z.object({
    package_name: name,
    module_name: name,
    source: z.string(),
    /** Further `sources/*.move` files of the package, by file name. */
    extra_sources: z.record(z.string(), z.string()).optional(),
  }),
  get_struct_info: z.object({ type_path: name }),
  create_test_object: z.object({ type_tag: name, value: jsonValue.optional(), object_id: address.optional(), owner: owner.optional() }),
  /**
   * Run the `init` functions of a loaded package, as its publish did (new); `modules`: only
   * theirs. `upgrade_cap` (default: `true` without `modules`, `false` with them): the sender
   * also gets the package's `UpgradeCap`, as the publisher did.
   */
  init_package: z.object({ package: address, modules: z.array(name).optional(), upgrade_cap: z.boolean().optional(), ...txOptions }),
  /** Settings of the environment (new): each one given is changed, the others stay. */
  configure: z.object({
    sender: address.optional(),
    epoch: u64.optional(),
    gas_price: u64.optional(),
    gas_budget: u64.optional(),
    checks: checks.optional(),
    /** 32 bytes of hex (`0x` optional): new randomness behind Random 0x8. */
    random_seed: z
      .string()
      .regex(/^(0x)?[0-9a-fA-F]{64}$/, 'expected 32 bytes of hex')
      .optional(),
  }),
  /** Keep the whole state in memory under `name` (the original's `create_checkpoint`). */
  create_checkpoint: z.object({ name: name.default('default') }),
  /** Bring the session back to the state kept under `name`. */
  restore_checkpoint: z.object({ name: name.default('default') }),
} as const;

/** Action names (35, aliases included). */
export type SandboxAction = keyof typeof ACTION_SCHEMAS;

/** Every action name. */
export const SANDBOX_ACTIONS = Object.keys(ACTION_SCHEMAS) as SandboxAction[];

/** The parameters of action `A`, as parsed. */
export type RequestOf<A extends SandboxAction> = z.output<(typeof ACTION_SCHEMAS)[A]>;

/** A parsed request. */
export type SandboxRequest = { [A in SandboxAction]: { action: A; params: RequestOf<A> } }[SandboxAction];

/** Why a request was rejected. */
export class RequestError extends SmiError<'INVALID_REQUEST'> {
  override readonly name = 'RequestError';

  constructor(message: string, options?: SmiErrorOptions) {
    super('INVALID_REQUEST', message, options);
  }
}

function isAction(a: string): a is SandboxAction {
  return Object.hasOwn(ACTION_SCHEMAS, a);
}

function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? String(p) : `.${String(p)}`;
  return out;
}

/** One line describing the first problems of a failed parse. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => (i.path.length > 0 ? `${pathText(i.path)}: ${i.message}` : i.message))
    .join('; ');
}

/**
 * Check a request (a parsed JSON value) and return it typed.
 * @throws {RequestError} not an object, no or unknown `action`, bad parameters.
 */
export function parseRequest(raw: unknown): SandboxRequest {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new RequestError('a request must be a JSON object with an "action" field');
  const action = (raw as Record<string, unknown>).action;
  if (typeof action !== 'string') throw new RequestError('the request has no "action" field (a string)');
  if (!isAction(action)) throw new RequestError(`unknown action "${action}" (known: ${SANDBOX_ACTIONS.join(', ')})`);
  // The frequent actions, plainly well-formed, are read without zod (same checks, same output).
  const fast = fastParams(action, raw);
  if (fast !== undefined) return { action, params: fast } as SandboxRequest;
  const result = ACTION_SCHEMAS[action].safeParse(raw);
  if (!result.success) throw new RequestError(`invalid ${action} request: ${describeIssues(result.error)}`);
  return { action, params: result.data } as SandboxRequest;
}
