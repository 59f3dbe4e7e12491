/**
 * `SandboxSession`: one simulation environment answering sandbox requests. `handle` takes
 * a parsed JSON request (or `handleLine` a line of text) and always resolves with a
 * response — malformed requests, Move aborts, missing objects and our own bugs alike
 * become `{success: false, error, error_category}`; nothing throws.
 *
 * ```ts
 * const session = SandboxSession.create({ packages, protocolConfig });
 * await session.handle({ action: 'call_function', package: '0x1', module: 'u64', function: 'max', args: [3, 7] });
 * ```
 */
import type { MovePackage } from '@smi/bytecode';
import type { Json, ProtocolConfig, SuiRegistryOptions } from '@smi/move-vm';
import type { SuiDataSource } from '../data-source.js';
import { SimulationEnvironment, type ExecuteOptions, type SimulationConfig } from '../environment.js';
import { Checkpoints } from './checkpoints.js';
import { getCoinMetadata, listCoins, registerCoin } from './coins.js';
import { transactionResponse } from './effects.js';
import { errorResponse } from './errors.js';
import { answerWithFetching, type Attempt } from './fetching.js';
import { disassemble, findConstructors, functionInfo, inspectStruct, listMembers, listModules, searchFunctions, searchTypes, structInfo } from './introspection.js';
import { createObjectAction, createTestObject, getClock, inspectObject, listObjects, setClock, systemObjectInfo } from './objects.js';
import { compileMove, loadModule } from './packages.js';
import { fail, ok, type SandboxFetched, type SandboxResponse } from './protocol.js';
import { executePtb } from './ptb.js';
import { parseRequest, type RequestOf, type SandboxAction, type SandboxRequest } from './request.js';
import { decodeBcs, encodeBcs, validateType } from './values.js';
import { errorMessage, SUI_ADDRESS } from '@smi/bytecode';

/** Options of {@link SandboxSession.create}. */
export interface SandboxSessionOptions {
  /** Packages every (re)started environment holds: the framework and any corpus packages. */
  packages: readonly MovePackage[];
  protocolConfig: ProtocolConfig;
  /** Directory `load_module` paths are relative to (default: the process's). */
  cwd?: string;
  /** Settings of new environments (sender, clock, gas...). */
  config?: Partial<SimulationConfig>;
  natives?: SuiRegistryOptions;
  /**
   * Where a request that misses a package or an object fetches it from (`sandbox-exec
   * --enable-fetching`); without one nothing is fetched. See `fetching.ts`.
   */
  fetcher?: SuiDataSource;
  /** Node calls one request may make (default 25). */
  maxFetches?: number;
  /** Hears of each package or object fetched (for `--verbose`). */
  onFetch?: (fetched: SandboxFetched) => void;
}

type Handler<A extends SandboxAction> = (s: SandboxSession, p: RequestOf<A>) => SandboxResponse | Promise<SandboxResponse>;

function txOptions(p: { sender?: string; gas_budget?: bigint; gas_coin?: string; checks?: 'strict' | 'relaxed' }): ExecuteOptions {
  return {
    ...(p.sender !== undefined ? { sender: p.sender } : {}),
    ...(p.gas_budget !== undefined ? { gasBudget: p.gas_budget } : {}),
    ...(p.gas_coin !== undefined ? { gasCoin: p.gas_coin } : {}),
    ...(p.checks !== undefined ? { checks: p.checks } : {}),
  };
}

function callFunction(s: SandboxSession, p: RequestOf<'call_function'>): SandboxResponse {
  const target = `${p.package}::${p.module}::${p.function}`;
  const out = s.env.call(target, p.args, { typeArgs: p.type_args, ...txOptions(p) });
  const returns = out.returnValues;
  const data: Json = {
    return_values: returns.map((r) => [...Buffer.from(r.bcs, 'hex')]),
    returns: returns.map((r) => ({ type: r.type, bcs: r.bcs, value: r.value })),
    gas_used: Number(out.transaction.gasUsed.computationCost + out.transaction.gasUsed.storageCost),
  };
  const description = `MoveCall ${target}${p.type_args.length > 0 ? `<${p.type_args.join(', ')}>` : ''} (${p.args.length} args)`;
  return transactionResponse(s.env, out.transaction, { mockGas: p.gas_coin === undefined, describe: (i) => (i === 0 ? description : undefined) }, data);
}

function getState(s: SandboxSession): SandboxResponse {
  const env = s.env;
  const ids = env.vm.packageIds();
  const modules = ids.reduce((n, id) => n + (env.vm.packageById(id)?.modules.length ?? 0), 0);
  return ok({
    loaded_packages: ids,
    loaded_modules: modules,
    object_count: env.listObjects({ movesOnly: true }).length,
    sender: env.sender,
    timestamp_ms: Number(env.config.clockMs),
    epoch: Number(env.config.epoch),
    gas_price: Number(env.config.gasPrice),
    gas_budget: Number(env.config.gasBudget),
    checks: env.config.checks,
    protocol_version: env.protocolConfig.version,
  });
}

/** The handler of every action (aliases share theirs). */
const HANDLERS: { [A in SandboxAction]: Handler<A> } = {
  load_module: (s, p) => ok(loadModule(s.env, s.cwd, p)),
  create_object: (s, p) => ok(createObjectAction(s.env, p)),
  execute_ptb: (s, p) => executePtb(s.env, p),
  inspect_struct: (s, p) => ok(inspectStruct(s.env, p.package, p.module, p.struct_name)),
  get_state: (s) => getState(s),
  reset: (s, p) => {
    s.reset(p.keep_packages ?? false);
    return ok({ reset: true, kept_packages: p.keep_packages ?? false });
  },
  call_function: callFunction,
  register_coin: (s, p) => ok(registerCoin(s.env, p)),
  get_coin_metadata: (s, p) => ok(getCoinMetadata(s.env, p.coin_type)),
  list_coins: (s) => ok(listCoins(s.env)),
  inspect_object: (s, p) => ok(inspectObject(s.env, p.object_id)),
  list_objects: (s, p) => ok(listObjects(s.env, p.include_packages ?? false)),
  get_clock: (s) => ok(getClock(s.env)),
  get_time: (s) => ok(getClock(s.env)),
  set_clock: (s, p) => ok(setClock(s.env, p.timestamp_ms)),
  set_time: (s, p) => ok(setClock(s.env, p.timestamp_ms)),
  list_modules: (s, p) => ok(listModules(s.env, p.package)),
  list_functions: (s, p) => ok(listMembers(s.env, p.module_path, 'functions')),
  list_structs: (s, p) => ok(listMembers(s.env, p.module_path, 'structs')),
  get_function_info: (s, p) => ok(functionInfo(s.env, p.module_path, p.function_name)),
  find_constructors: (s, p) => ok(findConstructors(s.env, p.type_path)),
  search_types: (s, p) => ok(searchTypes(s.env, p.pattern, p.ability_filter)),
  search_functions: (s, p) => ok(searchFunctions(s.env, p.pattern, p.entry_only)),
  get_system_object_info: (s, p) => ok(systemObjectInfo(s.env, p.object_name)),
  validate_type: (s, p) => ok(validateType(s.env, p.type_str)),
  encode_bcs: (s, p) => ok(encodeBcs(s.env, p.type_str, p.value)),
  decode_bcs: (s, p) => ok(decodeBcs(s.env, p.type_str, p.bytes_hex)),
  disassemble_function: (s, p) => ok(disassemble(s.env, p.module_path, p.function_name)),
  compile_move: (s, p) => compileMove(s.env, p),
  get_struct_info: (s, p) => ok(structInfo(s.env, p.type_path)),
  create_test_object: (s, p) => ok(createTestObject(s.env, p)),
  init_package: initPackage,
  configure: (s, p) => ok(configure(s.env, p)),
  create_checkpoint: (s, p) => ok(s.checkpoints.create(s.env, p.name)),
  restore_checkpoint: (s, p) => ok(s.checkpoints.restore(s.env, p.name)),
};

const UPGRADE_CAP = `${SUI_ADDRESS}::package::UpgradeCap`;

/** `init_package`: the inits of a loaded package (and its `UpgradeCap`), one transaction. */
function initPackage(s: SandboxSession, p: RequestOf<'init_package'>): SandboxResponse {
  const out = s.env.runPackageInits(p.package, {
    ...txOptions(p),
    ...(p.modules === undefined ? {} : { modules: p.modules }),
    ...(p.upgrade_cap === undefined ? {} : { upgradeCap: p.upgrade_cap }),
  });
  const cap = out.written.find((w) => w.kind === 'created' && w.object.data.$kind === 'Move' && s.env.getObject(w.id)?.type === UPGRADE_CAP);
  const data: Json = { package: p.package, modules: p.modules ?? null, upgrade_cap_id: cap?.id ?? null };
  return transactionResponse(s.env, out, { mockGas: p.gas_coin === undefined, describe: () => `init of package ${p.package}` }, data);
}

/** Apply the settings a `configure` request gives; answer with all of them. */
function configure(env: SimulationEnvironment, p: RequestOf<'configure'>): Json {
  if (p.sender !== undefined) env.setSender(p.sender);
  if (p.epoch !== undefined) env.setEpoch(p.epoch);
  if (p.gas_price !== undefined) env.setGasPrice(p.gas_price);
  if (p.gas_budget !== undefined) env.setGasBudget(p.gas_budget);
  if (p.checks !== undefined) env.setChecks(p.checks);
  if (p.random_seed !== undefined) env.setRandomSeed(Uint8Array.from(Buffer.from(p.random_seed.replace(/^0x/, ''), 'hex')));
  const c = env.config;
  return {
    sender: c.sender,
    epoch: Number(c.epoch),
    gas_price: Number(c.gasPrice),
    gas_budget: Number(c.gasBudget),
    checks: c.checks,
    random_seed: `0x${Buffer.from(c.randomSeed).toString('hex')}`,
  };
}

/** A sandbox session: an environment plus the protocol's dispatcher. */
export class SandboxSession {
  readonly cwd: string;
  /** Named states of the session (`create_checkpoint`); they survive `reset` and `loadState`. */
  readonly checkpoints = new Checkpoints();
  private readonly options: SandboxSessionOptions;
  private current: SimulationEnvironment;

  protected constructor(options: SandboxSessionOptions) {
    this.options = options;
    this.cwd = options.cwd ?? process.cwd();
    this.current = this.newEnvironment();
  }

  /** A session over a fresh environment. */
  static create(options: SandboxSessionOptions): SandboxSession {
    return new SandboxSession(options);
  }

  /** The environment requests act on (replaced by `reset`). */
  get env(): SimulationEnvironment {
    return this.current;
  }

  private newEnvironment(): SimulationEnvironment {
    return SimulationEnvironment.create({
      ...this.options.config,
      packages: this.options.packages,
      protocolConfig: this.options.protocolConfig,
      ...(this.options.natives !== undefined ? { natives: this.options.natives } : {}),
    });
  }

  /**
   * Start over. `keepPackages`: keep published and loaded packages (objects and counters
   * still go); otherwise a brand-new environment with the initial settings.
   */
  reset(keepPackages = false): void {
    if (keepPackages) this.current.resetState({ keepPackages: true });
    else this.current = this.newEnvironment();
  }

  /**
   * Answer one request (a parsed JSON value). Never throws. With a `fetcher`, what the
   * request misses is fetched and the request tried again (the response lists it in `fetched`).
   */
  async handle(request: unknown): Promise<SandboxResponse> {
    let req: SandboxRequest;
    try {
      req = parseRequest(request);
    } catch (e) {
      return errorResponse(e);
    }
    const { fetcher, maxFetches, onFetch } = this.options;
    if (fetcher === undefined) return (await this.attempt(req)).response;
    return answerWithFetching(this, req, { fetcher, ...(maxFetches !== undefined ? { maxFetches } : {}), ...(onFetch !== undefined ? { onFetch } : {}) });
  }

  /** Run a parsed request once: its response, and what it threw when it failed that way. */
  async attempt(req: SandboxRequest): Promise<Attempt> {
    try {
      const handler = HANDLERS[req.action] as (s: SandboxSession, p: unknown) => SandboxResponse | Promise<SandboxResponse>;
      return { response: await handler(this, req.params), error: null };
    } catch (e) {
      return { response: errorResponse(e), error: e };
    }
  }

  /** Answer one request given as JSON text; text that is not JSON gets a `ParseError`. */
  async handleLine(line: string): Promise<SandboxResponse> {
    let request: unknown;
    try {
      request = JSON.parse(line) as unknown;
    } catch (e) {
      return fail(`JSON parse error: ${errorMessage(e)}`, 'ParseError');
    }
    return this.handle(request);
  }

  /** Save the environment's state to `file` (atomically: temporary file, then rename). */
  saveState(file: string): void {
    this.current.saveState(file);
  }

  /** Replace the environment's state by the one saved in `file`. */
  loadState(file: string): void {
    this.current.loadState(file);
  }
}
