/**
 * Running an adapter test file task by task on an {@link AdapterChain}, printing what
 * upstream's Sui test adapter prints: the accounts at `init`, the effects summary of every
 * transaction (events, created/mutated/... lists, gas), `Error: ...` for failures and
 * rejected transactions, and objects for `view-object`. Tasks the runner cannot run are
 * skipped with a reason; later failing tasks of the file are then skipped too (they depend
 * on what the skipped task would have done).
 */
import { deserializeModule, serializeModule, type MovePackage, errorMessage, SmiError, type SmiErrorOptions, addressOfNumber } from '@smi/bytecode';
import { type ConfigValue, ProtocolConfig, protocolConfigForChain, type SuiChain } from '@smi/move-vm';
import { type CallArg, type Command, decodeObject, formatTypeTag, packageDigest, parseTypeTag, type SuiObject } from '@smi/ptb';
import type { TransactionalTask } from '@smi/move-ir';
import { AdapterChain, type TxMode, type TxOutcome } from './chain.js';
import { compileTaskSource, firstModuleAddress, type CompiledPackage } from './compile.js';
import { eventDebug, gasSummaryDisplay, ownerDisplay, processError, stabilize, typeDisplay, valueDisplay } from './display.js';
import { AdapterError, isSkipError } from './errors.js';
import { parsePtbCommands } from './ptb-syntax.js';
import { statusDebug, statusDisplay } from './status-text.js';
import { parseAdapterFile, type AdapterCommand, type InitCommand, type ProgrammableCommand, type PublishCommand, type RunCommand, type UpgradeCommand } from './tasks.js';
import { callArgOf, commandOf, objectArgOf, resolveFake, SharedInputBuilder, typeTagOf } from './tx-builder.js';
import { formatFakeId, parseType, resolveAddress, typeTagString } from './values.js';

/** What the runner needs from its host. */
export interface AdapterRunnerOptions {
  /** Framework packages (0x1, 0x2, 0x3, ...) genesis loads at a protocol version (`undefined`: the newest). */
  packages: (version: number | undefined) => readonly MovePackage[];
  /** The protocol config of a version (`undefined`: the newest). */
  protocolConfig: (version: number | undefined) => ProtocolConfig;
  /** On-disk compile cache (`null`: memory only). */
  cacheDir: string | null;
}

/** The outcome of one task. */
export interface AdapterTaskRun {
  task: TransactionalTask;
  command: AdapterCommand;
  /** What the task printed (`undefined`: nothing). */
  output: string | undefined;
  /** Why the task was skipped, when it was. */
  skip: string | null;
}

const ZERO = addressOfNumber(0n);
const SUI = addressOfNumber(2n);
const SUI_BALANCE = formatTypeTag(parseTypeTag('0x2::balance::Balance<0x2::sui::SUI>'));
const STD = addressOfNumber(1n);
/** Upstream's runner reads an executed transaction's events with the JSON-RPC query limit (50). */
const QUERY_MAX_RESULT_LIMIT = 50;

class FileRunner {
  private chain!: AdapterChain;
  private readonly staged = new Map<string, { modules: Uint8Array[]; digest: Uint8Array }>();
  /** Upgraded package names → the original package's name. */
  private readonly upgradeNames = new Map<string, string>();
  /** `init --file-format N`: compiled modules are written at bytecode version N (upstream `serialize_version`). */
  private fileFormat: number | null = null;
  /** `init --flavor core`: sources compile without Sui's source checks; the verifier still runs at publish. */
  private flavor: 'core' | 'sui' = 'sui';

  constructor(private readonly options: AdapterRunnerOptions) {}

  init(cmd: InitCommand | null): string | undefined {
    const named: [string, string][] = (cmd?.addresses ?? []).map(([n, v]) => [n, addressOfNumber(BigInt(v))]);
    const cfg = withTestOverrides(this.options.protocolConfig(cmd?.protocolVersion ?? undefined), cmd?.other ?? {});
    const version = cmd?.protocolVersion ?? undefined;
    const fileFormat = cmd?.other['file-format']?.[0];
    if (fileFormat !== undefined) this.fileFormat = Number(fileFormat);
    if (cmd?.other.flavor?.[0] === 'core') this.flavor = 'core';
    this.chain = new AdapterChain(this.options.packages(version), cfg, cmd?.accounts ?? [], named);
    const accounts = [...this.chain.accounts.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
    if (accounts.length === 0) return undefined;
    return accounts.map((a) => `${a.name}: object(${formatFakeId(this.chain.enumerate(a.gas))})`).join(', ');
  }

  private sender(name: string | null): string {
    if (name === null) return this.chain.defaultAccount.address;
    const a = this.chain.accounts.get(name);
    if (a === undefined) throw new AdapterError('INVALID_TEST', `Unbound account ${name}`);
    return a.address;
  }

  errorText(message: string): string {
    return `Error: ${processError(message, this.chain)}`;
  }

  async handle(task: TransactionalTask, cmd: AdapterCommand): Promise<string | undefined> {
    this.chain.nextTask();
    switch (cmd.kind) {
      case 'init':
        throw new AdapterError('INVALID_TEST', 'init must be the first task');
      case 'publish':
        return this.publish(task, cmd);
      case 'run':
        return this.runCall(cmd);
      case 'programmable':
        return this.programmable(task, cmd);
      case 'view-object':
        // An id no task numbered is an error of the runner itself, with the task's context.
        if (this.chain.realId(cmd.id) === undefined) {
          throw new TaskFailure(`Error: task ${task.number}, lines ${task.startLine}-${task.commandLinesStop}\n${task.taskText}\n. Unbound fake id ${formatFakeId(cmd.id)}`);
        }
        return cmd.hideContents ? this.viewObjectType(cmd.id) : this.viewObject(cmd.id);
      case 'transfer-object': {
        const b = new SharedInputBuilder();
        const obj = b.input({ $kind: 'Object', Object: objectArgOf(this.chain, { kind: 'object', id: cmd.id, version: null }) } as CallArg);
        const recipient = this.chain.accounts.get(cmd.recipient);
        if (recipient === undefined) throw new AdapterError('INVALID_TEST', `Unbound account ${cmd.recipient}`);
        const rec = b.pureAddress(recipient.address);
        b.command({ $kind: 'TransferObjects', TransferObjects: { objects: [obj], address: rec } } as Command);
        const addressBalance = cmd.addressBalanceGas ? ({ amount: 'budget', first: true } as const) : undefined;
        return this.txOutput(this.chain.run({ ptb: b.build(), sender: this.sender(cmd.sender), budget: cmd.gasBudget, price: cmd.gasPrice, mode: 'execute', addressBalance }), false, 'execute');
      }
      case 'upgrade':
        return this.upgrade(task, cmd);
      case 'stage-package': {
        const compiled = await this.compile(task.body ?? '', []);
        const name = compiled.namedAddress;
        if (name === null) throw new AdapterError('INVALID_TEST', 'Staged modules must have a named address');
        const deps = this.dependencyIds(cmd.dependencies);
        const modules = compiled.modules.map((m) => m.bytes);
        this.staged.set(name, { modules, digest: packageDigest(modules, deps) });
        return undefined;
      }
      case 'set-address': {
        const v = cmd.input;
        let value: string;
        if (v.kind === 'object') value = resolveFake(this.chain, v.id);
        else if (v.kind === 'address') value = resolveAddress(v.address, (n) => this.chain.named.get(n));
        else throw new AdapterError('UNSUPPORTED', `set-address with a ${v.kind} value`);
        this.chain.named.set(cmd.address, value);
        return undefined;
      }
      case 'create-checkpoint':
        for (let i = 0; i < cmd.count; i++) this.chain.createCheckpoint();
        return `Checkpoint created: ${this.chain.checkpoint}`;
      case 'advance-epoch': {
        if (cmd.flags.length > 0) throw new AdapterError('UNSUPPORTED', `advance-epoch --${cmd.flags[0]}`);
        for (let i = 0; i < cmd.count; i++) {
          this.chain.env.setEpoch(this.chain.env.config.epoch + 1n);
          this.chain.checkpoint += 1;
        }
        return `Epoch advanced: ${this.chain.env.config.epoch}`;
      }
      case 'advance-clock':
        this.chain.env.advanceClock(cmd.durationNs / 1_000_000n);
        return undefined;
      case 'gasless-allow-token': {
        const t = typeTagString(parseType(cmd.type), (n) => this.chain.named.get(n));
        this.chain.gaslessTokens.set(formatTypeTag(parseTypeTag(t)), cmd.minTransfer);
        return undefined;
      }
      case 'view-funds': {
        const account = this.chain.accounts.get(cmd.account);
        if (account === undefined) throw new AdapterError('INVALID_TEST', `Unbound account ${cmd.account}`);
        const type = typeTagString(parseType(cmd.type), (n) => this.chain.named.get(n));
        const balance = this.chain.env.settledBalance(account.address, type);
        return balance === undefined ? 'No funds accumulator object found' : String(balance);
      }
      case 'view-checkpoint':
        throw new AdapterError('UNSUPPORTED', 'view-checkpoint (checkpoint contents) is not modelled');
      case 'invalid':
        throw new AdapterError('PARSE_ERROR', cmd.message);
      case 'unsupported':
        throw new AdapterError('UNSUPPORTED', cmd.reason);
    }
  }

  private dependencyIds(names: readonly string[]): string[] {
    const ids = names.map((d) => {
      const a = this.chain.named.get(d);
      if (a === undefined) throw new AdapterError('INVALID_TEST', `There is no published module address corresponding to name address ${d}`);
      return a;
    });
    return [...ids, STD, SUI];
  }

  /** Compile a source; `zeroed` names are bound to 0x0 while compiling. */
  private async compile(source: string, zeroed: readonly string[], renamed: ReadonlyMap<string, string> = new Map()): Promise<CompiledPackage> {
    const named = new Map(this.chain.named);
    const own = firstModuleAddress(source);
    for (const z of zeroed) named.set(z, ZERO);
    for (const [n, a] of renamed) named.set(n, a);
    if (own !== null && !named.has(own)) throw new AdapterError('INVALID_TEST', `unbound named address ${own}`);
    // A package named at a non-zero address (std's, or a package published before) compiles at
    // 0x0 and is then placed there, as upstream compiles it: its publish then fails
    // (`PublishErrorNonZeroAddress`).
    const ownAddress = own === null ? ZERO : (named.get(own) ?? ZERO);
    if (own !== null && ownAddress !== ZERO) named.set(own, ZERO);
    // The newest version of every package, named by the address its modules carry.
    const newest = new Map<string, MovePackage>();
    for (const id of this.chain.env.vm.packageIds()) {
      const p = this.chain.env.vm.packageById(id);
      if (p === undefined) continue;
      const cur = newest.get(p.originalId);
      if (cur === undefined || (p.version ?? 0) > (cur.version ?? 0)) newest.set(p.originalId, p);
    }
    const nameOf = new Map<string, string>();
    for (const [n, a] of [...named.entries()].sort((x, y) => (x[0] < y[0] ? -1 : 1))) if (!nameOf.has(a) && !zeroed.includes(n)) nameOf.set(a, n);
    const packages = [...newest.values()].map((pkg) => ({ pkg, addressName: nameOf.get(pkg.originalId) ?? null }));
    const compiled = await compileTaskSource({ source, namedAddresses: named, packages, cacheDir: this.options.cacheDir, flavor: this.flavor });
    const ff = this.fileFormat;
    if (ff === null && ownAddress === ZERO) return compiled;
    const rewrite = (bytes: Uint8Array): Uint8Array => {
      const m = deserializeModule(bytes);
      const placed = ownAddress === ZERO ? m : { ...m, addressIdentifiers: m.addressIdentifiers.map((a) => (a === ZERO ? ownAddress : a)) };
      return ff === null ? serializeModule(placed) : serializeModule(placed, ff);
    };
    return { ...compiled, modules: compiled.modules.map((m) => ({ name: m.name, bytes: rewrite(m.bytes) })) };
  }

  private async publish(task: TransactionalTask, cmd: PublishCommand): Promise<string | undefined> {
    const compiled = await this.compile(task.body ?? '', []);
    if (compiled.modules.length === 0) throw new AdapterError('INVALID_TEST', 'nothing to publish');
    const sender = this.sender(cmd.sender);
    const b = new SharedInputBuilder();
    const deps = this.dependencyIds(cmd.dependencies);
    const cap = b.command({ $kind: 'Publish', Publish: { modules: compiled.modules.map((m) => m.bytes), dependencies: deps } } as Command);
    if (cmd.upgradeable) {
      const rec = b.pureAddress(sender);
      b.command({ $kind: 'TransferObjects', TransferObjects: { objects: [cap], address: rec } } as Command);
    } else {
      b.command({ $kind: 'MoveCall', MoveCall: { package: SUI, module: 'package', function: 'make_immutable', typeArguments: [], arguments: [cap] } } as Command);
    }
    const mode: TxMode = cmd.dryRun ? 'dry-run' : 'execute';
    const outcome = this.chain.run({ ptb: b.build(), sender, budget: cmd.gasBudget, price: cmd.gasPrice, mode });
    if (mode === 'execute' && outcome.kind === 'executed' && outcome.result.status.$kind === 'Success' && compiled.namedAddress !== null) {
      const first = compiled.modules[0].name;
      const pkg = outcome.result.written.find((w) => w.kind === 'created' && w.object.data.$kind === 'Package' && w.object.data.Package.moduleMap.has(first));
      if (pkg !== undefined) this.chain.named.set(compiled.namedAddress, pkg.id);
    }
    return this.txOutput(outcome, false, mode);
  }

  private async upgrade(task: TransactionalTask, cmd: UpgradeCommand): Promise<string | undefined> {
    const before = this.chain.named.get(cmd.package);
    if (before === undefined) throw new AdapterError('INVALID_TEST', `Unbound package '${cmd.package}' for upgrade`);
    // The package compiles at 0x0; a dependency that was upgraded compiles under its new
    // name at its original address (upstream's override), its original name unbound.
    const zeroed = [cmd.package, ...(this.upgradeNames.has(cmd.package) ? [this.upgradeNames.get(cmd.package) as string] : [])];
    const renamed = new Map<string, string>();
    for (const d of cmd.dependencies) {
      const orig = this.upgradeNames.get(d);
      const origAddress = orig === undefined ? undefined : this.chain.named.get(orig);
      if (orig === undefined || origAddress === undefined) continue;
      zeroed.push(orig);
      renamed.set(d, origAddress);
    }
    const compiled = await this.compile(task.body ?? '', zeroed, renamed);
    if (compiled.namedAddress !== null) this.upgradeNames.set(compiled.namedAddress, this.upgradeNames.get(cmd.package) ?? cmd.package);
    const modules = compiled.modules.map((m) => m.bytes);
    const deps = this.dependencyIds(cmd.dependencies);
    const b = new SharedInputBuilder();
    const capArg = b.input({ $kind: 'Object', Object: objectArgOf(this.chain, { kind: 'object', id: cmd.upgradeCapability, version: null }) } as CallArg);
    const policy = b.input({ $kind: 'Pure', Pure: { bytes: Uint8Array.of(cmd.policy) } } as CallArg);
    const digest = packageDigest(modules, deps);
    const digestArg = b.input({ $kind: 'Pure', Pure: { bytes: Uint8Array.from([digest.length, ...digest]) } } as CallArg);
    const ticket = b.command({ $kind: 'MoveCall', MoveCall: { package: SUI, module: 'package', function: 'authorize_upgrade', typeArguments: [], arguments: [capArg, policy, digestArg] } } as Command);
    const receipt = b.command({ $kind: 'Upgrade', Upgrade: { modules, dependencies: deps, package: before, ticket } } as Command);
    b.command({ $kind: 'MoveCall', MoveCall: { package: SUI, module: 'package', function: 'commit_upgrade', typeArguments: [], arguments: [capArg, receipt] } } as Command);
    const mode: TxMode = cmd.dryRun ? 'dry-run' : 'execute';
    const addressBalance = cmd.addressBalanceGas ? ({ amount: 'budget', first: true } as const) : undefined;
    const outcome = this.chain.run({ ptb: b.build(), sender: this.sender(cmd.sender), budget: cmd.gasBudget, price: cmd.gasPrice, mode, addressBalance, mockGas: cmd.dryRun });
    if (mode === 'execute' && outcome.kind === 'executed' && outcome.result.status.$kind === 'Success' && compiled.namedAddress !== null) {
      const pkg = outcome.result.written.find((w) => w.kind === 'created' && w.object.data.$kind === 'Package');
      if (pkg !== undefined) this.chain.named.set(compiled.namedAddress, pkg.id);
    }
    return this.txOutput(outcome, false, mode);
  }

  private runCall(cmd: RunCommand): string | undefined {
    const b = new SharedInputBuilder();
    const args = cmd.args.map((v) => b.value(this.chain, v, this.staged));
    const pkg = resolveAddress(cmd.address, (n) => this.chain.named.get(n));
    b.command({
      $kind: 'MoveCall',
      MoveCall: { package: pkg, module: cmd.module, function: cmd.function, typeArguments: cmd.typeArgs.map((t) => typeTagOf(this.chain, t)), arguments: args },
    } as Command);
    const outcome = this.chain.run({ ptb: b.build(), sender: this.sender(cmd.sender), budget: cmd.gasBudget, price: cmd.gasPrice, mode: 'execute' });
    const text = this.txOutput(outcome, cmd.summarize, 'execute');
    return cmd.silent === true ? undefined : text;
  }

  private programmable(task: TransactionalTask, cmd: ProgrammableCommand): string | undefined {
    if (cmd.devInspect && cmd.dryRun) throw new AdapterError('INVALID_TEST', 'Cannot set both dev-inspect and dry-run');
    const overrides = new Map<string, SuiObject>();
    const inputs = cmd.inputs.map((v) => {
      const arg = callArgOf(this.chain, v, this.staged);
      if ('id' in v && v.version !== null) {
        const id = resolveFake(this.chain, v.id);
        const old = this.chain.getObject(id, v.version);
        if (old !== undefined) overrides.set(id, old);
      }
      return arg;
    });
    const commands = parsePtbCommands(task.body ?? '').map((c) => commandOf(this.chain, c, this.staged));
    // Gas coins, and `withdraw<Balance<SUI>>(amount)` reservations from the address balance.
    const payment: string[] = [];
    let reserved = 0n;
    let reservations = 0;
    let reservationFirst: boolean | null = null;
    for (const v of cmd.gasPayment) {
      if (v.kind === 'object') {
        payment.push(resolveFake(this.chain, v.id));
        reservationFirst ??= false;
      } else if (v.kind === 'withdraw' && formatTypeTag(parseTypeTag(typeTagString(v.type, (n) => this.chain.named.get(n)))) === SUI_BALANCE) {
        reserved += v.amount;
        reservations++;
        reservationFirst ??= true;
      } else throw new AdapterError('UNSUPPORTED', `gas payment with ${v.kind} values`);
    }
    const addressBalance = cmd.addressBalanceGas
      ? ({ amount: 'budget', first: true } as const)
      : reservationFirst !== null && reserved > 0n
        ? { amount: reserved, first: reservationFirst, reservations }
        : undefined;
    const sender = this.sender(cmd.sender);
    const sponsor = cmd.sponsor === null ? null : this.sender(cmd.sponsor);
    const mode: TxMode = cmd.devInspect ? 'dev-inspect' : cmd.dryRun ? 'dry-run' : 'execute';
    const outcome = this.chain.run({
      ptb: { inputs, commands },
      sender,
      sponsor,
      payment: payment.length > 0 || addressBalance !== undefined ? payment : undefined,
      addressBalance,
      budget: cmd.gasBudget,
      price: cmd.gasPrice,
      mode,
      overrides,
    });
    return this.txOutput(outcome, false, mode);
  }

  private viewObject(id: Parameters<typeof resolveFake>[1]): string {
    const real = resolveFake(this.chain, id);
    const o = this.chain.getObject(real);
    if (o === undefined) return `No object at id ${formatFakeId(id)}`;
    if (o.data.$kind === 'Package') {
      const names = [...o.data.Package.moduleMap.keys()].sort();
      return names.length > 1 ? `${formatFakeId(id)}::{${names.join(', ')}}` : `${formatFakeId(id)}::${names[0]}`;
    }
    const { value, type } = decodeObject(this.chain.env.vm, o);
    const head = `Owner: ${ownerDisplay(o.owner)}\nVersion: ${o.data.Move.version}`;
    return stabilize(`${head}\nContents: ${valueDisplay(this.chain.env.vm, value, type)}`, this.chain);
  }

  /** Hide-contents view (`Type: ...`). */
  private viewObjectType(id: Parameters<typeof resolveFake>[1]): string {
    const real = resolveFake(this.chain, id);
    const o = this.chain.getObject(real);
    if (o === undefined || o.data.$kind !== 'Move') return `No object at id ${formatFakeId(id)}`;
    const { type } = decodeObject(this.chain.env.vm, o);
    return stabilize(`Owner: ${ownerDisplay(o.owner)}\nVersion: ${o.data.Move.version}\nType: ${typeDisplay(type)}`, this.chain);
  }

  private list(ids: readonly string[], summarize: boolean): string {
    if (summarize) return String(ids.length);
    return ids
      .map((id) => {
        const f = this.chain.fakeOf(id);
        if (f === undefined) return 'object(_)';
        if (f.kind === 'known') return f.address;
        return `object(${formatFakeId(f)})`;
      })
      .join(', ');
  }

  /** The task output of a transaction (upstream `object_summary_output`, or its error). */
  private txOutput(o: TxOutcome, summarize: boolean, mode: TxMode): string {
    if (o.kind === 'rejected') throw new TaskFailure(this.errorText(o.message));
    const { result, summary } = o;
    if (result.status.$kind === 'Failure') {
      const s = result.status;
      let text: string;
      if (mode !== 'execute') {
        const e = `${statusDebug(s.error)}${s.command === null ? '' : ` in command ${s.command}`}`;
        text = `Transaction Effects Status: ${e}\nExecution Error: ${e}`;
      } else if (o.consensus) {
        text = `Transaction Effects Status: ${statusDisplay(s.error)}\nDebug of error: ${statusDebug(s.error)} at command ${s.command === null ? 'None' : `Some(${s.command})`}`;
      } else {
        const source = JSON.stringify(s.message);
        text = `Transaction Effects Status: ${statusDisplay(s.error)}\nExecution Error: ExecutionError: ExecutionError { inner: ExecutionErrorInner { kind: ${statusDebug(s.error)}, source: Some(${source}), command: ${s.command === null ? 'None' : `Some(${s.command})`} } }`;
      }
      throw new TaskFailure(this.errorText(stabilize(text, this.chain)));
    }
    const parts: string[] = [];
    // An executed transaction's events are read back with upstream's query limit (`QUERY_MAX_RESULT_LIMIT`).
    const events = mode === 'execute' ? summary.events.slice(0, QUERY_MAX_RESULT_LIMIT) : summary.events;
    if (events.length > 0) parts.push(`events: ${summarize ? events.length : events.map((e) => stabilize(eventDebug(e), this.chain)).join(', ')}`);
    const lists: [string, string[]][] = [
      ['created', summary.created],
      ['mutated', summary.mutated],
      ['unwrapped', summary.unwrapped],
      ['deleted', summary.deleted],
      ['unwrapped_then_deleted', summary.unwrappedThenDeleted],
      ['wrapped', summary.wrapped],
      ['unchanged_shared', summary.unchangedShared],
    ];
    for (const [name, ids] of lists) if (ids.length > 0) parts.push(`${name}: ${this.list(ids, summarize)}`);
    if (summary.accumulators.length > 0) {
      const written = summary.accumulators.map((w) => `(${this.list([w.id], false)}, ${stabilize(w.address, this.chain)}, ${stabilize(w.type, this.chain)}, ${w.operation}, ${w.value})`);
      parts.push(`accumulators_written: ${summarize ? summary.accumulators.length : written.join(', ')}`);
    }
    return `${parts.join('\n')}\ngas summary: ${gasSummaryDisplay(summary.gas)}`;
  }
}

/** Options of `init` that only shape the test network, not what the runner models. */
const IGNORED_INIT = new Set(['file-format', 'flavor', 'enable-feature-flags', 'disable-feature-flags', 'enable-gasless', 'max-gas', 'gasless-max-pure-input-bytes', 'gasless-max-unused-inputs']);

const CHAINS: readonly SuiChain[] = ['mainnet', 'testnet', 'unknown'];

/** The protocol config with `init`'s test overrides (chain, feature flags, gasless, max gas). */
function withTestOverrides(mainnetCfg: ProtocolConfig, other: Record<string, string[]>): ProtocolConfig {
  const unknown = Object.keys(other).filter((k) => k !== 'chain' && !IGNORED_INIT.has(k));
  if (unknown.length > 0) throw new AdapterError('UNSUPPORTED', `init --${unknown[0]}`);
  // `--chain testnet|unknown`: the flags upstream gates on the chain (our snapshots are mainnet's).
  const chainName = other.chain?.[0] ?? 'mainnet';
  const chain = CHAINS.find((c) => c === chainName);
  if (chain === undefined) throw new AdapterError('UNSUPPORTED', `init --chain ${chainName}`);
  const cfg = protocolConfigForChain(mainnetCfg, chain);
  const flags: Record<string, ConfigValue> = { ...cfg.featureFlags };
  const values: Record<string, ConfigValue> = { ...cfg.values };
  for (const f of other['enable-feature-flags'] ?? []) flags[f] = true;
  for (const f of other['disable-feature-flags'] ?? []) flags[f] = false;
  // Upstream's `enable_gasless_for_testing` (address-balance gas payments included).
  if (other['enable-gasless'] !== undefined) {
    for (const f of ['enable_gasless', 'gasless_verify_remaining_balance', 'enable_address_balance_gas_payments']) flags[f] = true;
    values.gasless_max_computation_units = 5000;
  }
  for (const [opt, key] of [
    ['gasless-max-pure-input-bytes', 'gasless_max_pure_input_bytes'],
    ['gasless-max-unused-inputs', 'gasless_max_unused_inputs'],
  ] as const) {
    const v = other[opt]?.[0];
    if (v !== undefined) values[key] = Number(v);
  }
  const maxGas = other['max-gas']?.[0];
  if (maxGas !== undefined) values.max_tx_gas = BigInt(maxGas);
  if (Object.keys(other).length === 0) return cfg;
  return new ProtocolConfig({ version: cfg.version, featureFlags: flags, values, header: cfg.header, ...(cfg.file === undefined ? {} : { file: cfg.file }) });
}

/** A task that failed with an output (the text is what upstream prints). */
class TaskFailure extends SmiError<'TASK_FAILED'> {
  constructor(message: string, options?: SmiErrorOptions) {
    super('TASK_FAILED', message, options);
  }
  override readonly name = 'TaskFailure';
}

/** Run every task of an adapter test file. */
export async function runAdapterFile(text: string, options: AdapterRunnerOptions): Promise<AdapterTaskRun[]> {
  const tasks = parseAdapterFile(text);
  const runner = new FileRunner(options);
  const out: AdapterTaskRun[] = [];
  const first = tasks[0];
  const init = first?.command.kind === 'init' ? first.command : null;
  try {
    const output = runner.init(init);
    if (init !== null && first !== undefined) out.push({ task: first.task, command: first.command, output, skip: null });
  } catch (e) {
    // Without its chain, no task of the file can run.
    if (!isSkipError(e)) throw e;
    return tasks.map(({ task, command }) => ({ task, command, output: undefined, skip: e.message }));
  }
  for (const { task, command } of tasks.slice(init === null ? 0 : 1)) {
    let result: AdapterTaskRun;
    try {
      result = { task, command, output: await runner.handle(task, command), skip: null };
    } catch (e) {
      if (isSkipError(e)) {
        result = { task, command, output: undefined, skip: e.message };
      } else if (e instanceof TaskFailure) {
        result = { task, command, output: e.message, skip: null };
      } else {
        if (!(e instanceof AdapterError) && process.env.SMI_DEBUG_ADAPTER) console.error(e);
        result = { task, command, output: runner.errorText(errorMessage(e)), skip: null };
      }
    }
    out.push(result);
  }
  return out;
}
