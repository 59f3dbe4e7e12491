/**
 * The upstream VM transactional test adapter (`vm_test_harness.rs` over the in-memory
 * test adapter of `move-vm-runtime`), rebuilt on our assembler and VM:
 *
 * - `publish`: assemble, serialize, deserialize again (bounds), verify (the bytecode
 *   verifier with upstream's test limits, unless disabled), check natives and the modules the module imports, then store it as the one
 *   module of the package at its address (a later publish at that address replaces it).
 * - `run NAME`: call `NAME` with `--signers` (passed first), `--args`, `--type-args`,
 *   `--gas-budget`; `run` with a module body publishes the module, then calls its entry
 *   function (or its only function).
 * - Output as upstream prints it: `mutable inputs after call: local#i: ..`, `return values: ..`,
 *   and errors as `Function execution failed with VMError: {..}` or
 *   `Unable to publish module '..'. Got VMError: {..}`.
 */
import { BytecodeError, canonicalAddress, deserializeModule, verificationErrorFromBytecodeError, type CompiledModule, type MovePackage, shortAddress } from '@smi/bytecode';
import { IrTestAdapter, serializeAssembled, TaskError, type IrTestOptions, type TransactionalTask } from '@smi/move-ir';
import { MoveVM, TypeKind, VmError, ZERO_STDLIB_COSTS, type CallArg, type CallResult, type GasSchedule, type Type, type VmLocation } from '@smi/move-vm';
import { upstreamTestGasSchedule } from './ir-vm-gas.js';
import { bytecodeVerifier, type ModuleVerifier, reportOfVerificationError, type VmErrorReport } from './ir-vm-verifier.js';
export type { ModuleVerifier, VmErrorReport } from './ir-vm-verifier.js';
import { formatRunValue, parseRunValue, runValueBcs, signerBcs } from './ir-vm-values.js';

/** Options of {@link IrVmAdapter}. */
export interface IrVmOptions extends IrTestOptions {
  /** The stdlib package published at 0x1 before the first task. */
  stdlib: MovePackage;
  /**
   * The bytecode verifier run at publish: default {@link bytecodeVerifier} (upstream's test
   * limits); `null` publishes modules unverified.
   */
  verifier?: ModuleVerifier | null;
  /** Gas schedule of the VM (default: {@link upstreamTestGasSchedule}, the harness's costs). */
  gas?: GasSchedule;
  /** Internal gas units per unit of `--gas-budget` (upstream: 1000). */
  gasUnitScale?: number;
}

/** Rust `{:?}` of a string. */
function rustDebug(s: string): string {
  return JSON.stringify(s).replace(/\\u([0-9a-f]{4})/g, (_m, h: string) => `\\u{${parseInt(h, 16).toString(16)}}`);
}

/** The text of an error block (upstream `format_vm_error`). */
export function formatVmErrorReport(e: VmErrorReport): string {
  const offsets = (e.offsets ?? []).map(([f, o]) => `(FunctionDefinitionIndex(${f}), ${o})`);
  const message = e.message === undefined ? '' : `\n    message: ${rustDebug(e.message)},`;
  return (
    `{\n    major_status: ${e.majorStatus},\n    sub_status: ${e.subStatus === undefined ? 'None' : `Some(${e.subStatus})`},\n` +
    `    location: ${e.location},\n    indices: [${(e.indices ?? []).join(', ')}],\n    offsets: [${offsets.join(', ')}],${message}\n}`
  );
}

const hex64 = (address: string): string => canonicalAddress(address).slice(2);

function selfId(m: CompiledModule): { address: string; name: string } {
  const h = m.moduleHandles[m.selfModuleHandleIndex];
  return { address: canonicalAddress(m.addressIdentifiers[h.address]), name: m.identifiers[h.name] };
}

const INTEGER_TOKENS = new Set(['U8', 'U16', 'U32', 'U64', 'U128', 'U256']);

/**
 * The integer type (`u64`) the instruction at `offset` of function definition `fn` pushes,
 * when the instruction alone tells it (loads, casts, locals, constants).
 */
function pushedIntegerType(m: CompiledModule, fn: number, offset: number): string | undefined {
  const def = m.functionDefs[fn];
  const instr = def?.code?.code[offset];
  if (def === undefined || def.code === null || instr === undefined) return undefined;
  const kind = instr.$kind;
  if (/^(LdU|CastU)\d+$/.test(kind)) return `u${kind.replace(/^\D+/, '')}`;
  let token: { $kind: string } | undefined;
  if ((kind === 'CopyLoc' || kind === 'MoveLoc') && 'index' in instr) {
    const locals = [...m.signatures[m.functionHandles[def.function].parameters], ...m.signatures[def.code.locals]];
    token = locals[instr.index];
  } else if (kind === 'LdConst' && 'index' in instr) token = m.constantPool[instr.index]?.type;
  return token !== undefined && INTEGER_TOKENS.has(token.$kind) ? token.$kind.toLowerCase() : undefined;
}

/** An error a task prints as `Error: <prefix><block>`. */
class ReportedError extends TaskError {
  constructor(prefix: string, report: VmErrorReport) {
    super(`${prefix}${formatVmErrorReport(report)}`);
  }
}

const executionFailed = (r: VmErrorReport): ReportedError => new ReportedError('Function execution failed with VMError: ', r);

/** The words of a `run` command, as upstream's `RunCommand` reads them. */
interface RunArgs {
  name: string | undefined;
  signers: string[];
  args: string[];
  typeArgs: string[];
  gasBudget: number | undefined;
}

function parseRunArgs(words: readonly string[]): RunArgs {
  const out: RunArgs = { name: undefined, signers: [], args: [], typeArgs: [], gasBudget: undefined };
  let mode: 'signers' | 'args' | 'type-args' | 'gas-budget' | 'syntax' | 'none' = 'none';
  for (const w of words) {
    if (w.startsWith('--')) {
      const flag = w.slice(2);
      if (flag !== 'signers' && flag !== 'args' && flag !== 'type-args' && flag !== 'gas-budget' && flag !== 'syntax') {
        throw new TaskError(`unsupported run option ${w}`);
      }
      mode = flag;
      continue;
    }
    if (mode === 'signers') out.signers.push(w);
    else if (mode === 'args') out.args.push(w);
    else if (mode === 'type-args') out.typeArgs.push(w);
    else if (mode === 'gas-budget') {
      out.gasBudget = Number(w);
      mode = 'none';
    } else if (mode === 'syntax') mode = 'none';
    else if (out.name === undefined) out.name = w;
    else throw new TaskError(`unexpected argument ${w}`);
  }
  return out;
}

/**
 * The VM adapter of one test file. `skips` collects the tasks it could not run faithfully
 * (by task number, with the reason).
 */
export class IrVmAdapter extends IrTestAdapter {
  /** Why a task was not run faithfully, by task number. */
  readonly skips = new Map<number, string>();
  private readonly vm: MoveVM;
  /** Packages in storage: address → its modules by name. */
  private readonly storage = new Map<string, Map<string, CompiledModule>>();
  private readonly verifier: ModuleVerifier | undefined;
  private readonly gasUnitScale: number;

  constructor(options: IrVmOptions, init?: TransactionalTask) {
    super({ ...options, preludeModules: options.stdlib.modules.map((m) => m.module) }, init);
    // Upstream's VM test harness runs the stdlib natives with `GasParameters::zeros()`.
    this.vm = MoveVM.create({ packages: [options.stdlib], gas: options.gas ?? upstreamTestGasSchedule(), stdlibCosts: ZERO_STDLIB_COSTS });
    this.storage.set(options.stdlib.id, new Map(options.stdlib.modules.map((m) => [m.name, m.module])));
    this.verifier = options.verifier === null ? undefined : (options.verifier ?? bytecodeVerifier());
    this.gasUnitScale = options.gasUnitScale ?? 1000;
  }

  override handle(task: TransactionalTask): string | undefined {
    const signed = /\bi(8|16|32|64|128|256)\b/;
    if (signed.test(task.taskText) || (task.body !== undefined && signed.test(task.body))) {
      this.skips.set(task.number, 'signed integers (i8..i256) are not supported by the assembler and VM');
    }
    if (task.command === 'run') return this.run(task);
    // Upstream's runner answers this only under the regex-based reference-safety analysis
    // (its `@regex` snapshots); with the default analysis, which this verifier implements,
    // it prints this line (the `.snap` transcripts).
    if (task.command === 'view-abstract-state') return 'view-abstract-state subcommand is only available with regex reference safety';
    return super.handle(task);
  }

  protected override publish(task: TransactionalTask): string | undefined {
    const { module } = this.compile(task);
    this.publishModule(module);
    this.modules.set(`${selfId(module).address}::${selfId(module).name}`, module);
    return undefined;
  }

  /** Publishes one module as the package at its address, checking it as upstream does. */
  private publishModule(assembled: CompiledModule): void {
    const bytes = serializeAssembled(assembled);
    const id = selfId(assembled);
    const fail = (r: VmErrorReport): never => {
      throw new ReportedError(`Unable to publish module '${hex64(id.address)}::${id.name}'. Got VMError: `, r);
    };
    // Linkage context: every package the module's imports reach must be in storage.
    for (const dep of this.immediateDependencies(assembled)) {
      if (dep.address !== id.address && !this.storage.has(dep.address)) {
        // Not wrapped by upstream: the VMError's own Display text.
        throw new TaskError(`VMError with status LINKER_ERROR at location UNDEFINED and message Cannot find ${hex64(dep.address)} in data cache when building linkage context`);
      }
    }
    let module: CompiledModule;
    try {
      module = deserializeModule(bytes);
    } catch (e) {
      // Upstream locates deserialization (and bounds) errors at the package.
      if (!(e instanceof BytecodeError)) throw e;
      return fail(reportOfVerificationError(verificationErrorFromBytecodeError(e, id.address)));
    }
    const location = `${shortAddress(id.address)}::${id.name}`;
    const verified = this.verifier?.(module);
    if (verified !== undefined) fail(verified);
    // Natives must be known to the VM (upstream `check_natives`): functions, then structs.
    let nativeIndex = 0;
    for (const def of module.functionDefs) {
      if (def.code !== null) continue;
      const h = module.functionHandles[def.function];
      const mh = module.moduleHandles[h.module];
      const known = this.vm.natives.get(module.addressIdentifiers[mh.address], module.identifiers[mh.name], module.identifiers[h.name]);
      if (known === undefined) fail({ majorStatus: 'MISSING_DEPENDENCY', location, indices: [`(FunctionHandle, ${nativeIndex})`] });
      nativeIndex++;
    }
    module.structDefs.forEach((s, i) => {
      if (s.fieldInformation.$kind === 'Native') fail({ majorStatus: 'MISSING_DEPENDENCY', location, indices: [`(FunctionHandle, ${i})`] });
    });
    // Linkage: each imported module must be in the package stored at its address.
    const deps: CompiledModule[] = [];
    for (const dep of this.immediateDependencies(module)) {
      const found = this.storage.get(dep.address)?.get(dep.name);
      if (dep.address === id.address || found === undefined) fail({ majorStatus: 'MISSING_DEPENDENCY', location: shortAddress(dep.address) });
      else deps.push(found);
    }
    const linked = this.verifier?.(module, deps);
    if (linked !== undefined) fail(linked);
    this.storage.set(id.address, new Map([[id.name, module]]));
    this.vm.addPackage({
      id: id.address,
      originalId: id.address,
      version: null,
      modules: [{ name: id.name, bytes, module }],
      typeOriginTable: [],
      linkageTable: {},
      source: { $kind: 'Memory' },
    });
  }

  private immediateDependencies(m: CompiledModule): { address: string; name: string }[] {
    return m.moduleHandles.filter((_h, i) => i !== m.selfModuleHandleIndex).map((h) => ({ address: canonicalAddress(m.addressIdentifiers[h.address]), name: m.identifiers[h.name] }));
  }

  /** `NAME` or a named address → canonical address. */
  private resolveAddress(text: string): string {
    if (/^0x[0-9a-fA-F]+$/.test(text)) return canonicalAddress(text);
    if (/^[0-9]+$/.test(text)) return canonicalAddress(`0x${BigInt(text).toString(16)}`);
    const named = this.namedAddresses.get(text);
    if (named === undefined) throw new TaskError(`Unbound named address '${text}'`);
    return named;
  }

  /** A type tag with named addresses replaced by their values. */
  private resolveTypeTag(text: string): string {
    return text.replace(/(^|[<,\s])([A-Za-z_][A-Za-z0-9_]*)::/g, (_m, pre: string, name: string) => `${pre}${this.resolveAddress(name)}::`);
  }

  private run(task: TransactionalTask): string | undefined {
    const cmd = parseRunArgs(task.args);
    let address: string;
    let moduleName: string;
    let fnName: string;
    if (cmd.name === undefined) {
      const { module } = this.compile(task);
      this.publishModule(module);
      const entries = module.functionDefs.filter((d) => d.isEntry);
      const def = entries.length === 1 ? entries[0] : module.functionDefs.length === 1 ? module.functionDefs[0] : undefined;
      if (def === undefined) throw new TaskError('Expected exactly one function or one entry function');
      ({ address, name: moduleName } = selfId(module));
      fnName = module.identifiers[module.functionHandles[def.function].name];
      this.modules.set(`${address}::${moduleName}`, module);
    } else {
      const parts = cmd.name.split('::');
      if (parts.length !== 3) throw new TaskError(`Invalid function name ${cmd.name}`);
      address = this.resolveAddress(parts[0]);
      [, moduleName, fnName] = parts;
    }
    const typeArgTags = cmd.typeArgs.map((t) => this.resolveTypeTag(t));
    const lookup = (name: string): string | undefined => this.namedAddresses.get(name);
    const args: CallArg[] = [
      ...cmd.signers.map((s): CallArg => ({ $kind: 'Bcs', bytes: signerBcs(this.resolveAddress(s)) })),
      ...cmd.args.map((a): CallArg => ({ $kind: 'Bcs', bytes: runValueBcs(parseRunValue(a, lookup)) })),
    ];
    return this.call(address, moduleName, fnName, typeArgTags, args, cmd.gasBudget);
  }

  private call(address: string, moduleName: string, fnName: string, typeArgTags: string[], args: CallArg[], gasBudget: number | undefined): string | undefined {
    const moduleLocation = `${shortAddress(address)}::${moduleName}`;
    if (!this.storage.has(address)) {
      throw executionFailed({
        majorStatus: 'LINKER_ERROR',
        location: shortAddress(address),
        message: `Cannot find package ${hex64(address)} in data cache`,
      });
    }
    let typeArgs: Type[];
    try {
      typeArgs = typeArgTags.map((t) => this.vm.resolveType(t, address));
    } catch (e) {
      if (!(e instanceof VmError)) throw e;
      throw executionFailed({ majorStatus: e.code, location: 'undefined' });
    }
    let fn: ReturnType<MoveVM['resolveFunction']>;
    try {
      fn = this.vm.resolveFunction(address, moduleName, fnName);
    } catch (e) {
      if (!(e instanceof VmError)) throw e;
      throw executionFailed({
        majorStatus: 'EXTERNAL_RESOLUTION_REQUEST_ERROR',
        location: moduleLocation,
        message: `Failed to find function ${hex64(address)}::${moduleName}::${fnName}`,
      });
    }
    const budget = gasBudget === undefined ? Number.MAX_SAFE_INTEGER : gasBudget * this.gasUnitScale;
    let result: CallResult;
    try {
      result = this.vm.call(`${address}::${moduleName}::${fnName}`, { typeArgs, args, allowPrivate: true, gasBudget: budget });
    } catch (e) {
      if (!(e instanceof VmError)) throw e;
      // Type arguments are checked against the function (located at its module), then the
      // arguments are read (nowhere); upstream words only the count mismatch.
      const located = e.code === 'NUMBER_OF_TYPE_ARGUMENTS_MISMATCH' || e.code === 'CONSTRAINT_NOT_SATISFIED';
      throw executionFailed({
        majorStatus: e.code,
        location: located ? moduleLocation : 'undefined',
        message: e.code === 'NUMBER_OF_ARGUMENTS_MISMATCH' ? `argument length mismatch: expected ${fn.params.length} got ${args.length}` : undefined,
      });
    }
    switch (result.$kind) {
      case 'Aborted': {
        const l = result.location;
        const [addr, mod] = l.module.split('::');
        throw executionFailed({
          majorStatus: 'ABORTED',
          subStatus: result.abortCode,
          location: `${shortAddress(addr)}::${mod}`,
          offsets: [[l.functionIndex, l.instruction]],
          message: `${canonicalAddress(addr)}::${mod}::${l.function} at offset ${l.instruction}`,
        });
      }
      case 'Error': {
        const l = result.location;
        const [addr, mod] = l === undefined ? ['', ''] : l.module.split('::');
        throw executionFailed({
          majorStatus: result.code,
          subStatus: result.subStatus,
          location: l === undefined ? 'undefined' : `${shortAddress(addr)}::${mod}`,
          offsets: l === undefined ? [] : [[l.functionIndex, l.instruction]],
          message: this.upstreamMessage(result.code, result.message, l === undefined ? undefined : this.storage.get(canonicalAddress(addr))?.get(mod), l),
        });
      }
      case 'Success': {
        const out: string[] = [];
        if (result.mutatedReferences.length > 0) {
          const printed = result.mutatedReferences.map((r) => `local#${r.argIndex}: ${formatRunValue(r.value.value, r.value.type, this.vm.types)}`);
          out.push(`mutable inputs after call: ${printed.join(', ')}`);
        }
        if (result.returnValues.length > 0) {
          const returns = fn.returns.map((t) => this.vm.types.subst(t, typeArgs));
          const printed = result.returnValues.map((r, i) => {
            const declared = returns[i];
            const isRef = declared.kind === TypeKind.Reference || declared.kind === TypeKind.MutableReference;
            return `${isRef ? '(&) ' : ''}${formatRunValue(r.value, r.type, this.vm.types)}`;
          });
          out.push(`return values: ${printed.join(', ')}`);
        }
        return out.length === 0 ? undefined : out.join('\n');
      }
    }
  }

  /**
   * The message upstream attaches to some runtime errors, rebuilt from ours: casts
   * (`Cannot cast u64(303) to u8`, the operand's type read from the instruction that
   * pushed it) and variant tag mismatches. `undefined` where upstream prints none, or
   * where the operand's type cannot be read off the previous instruction.
   */
  private upstreamMessage(code: string, message: string, module: CompiledModule | undefined, l: VmLocation | undefined): string | undefined {
    if (code === 'VARIANT_TAG_MISMATCH') {
      const m = /expected variant (\d+), found (\d+)/.exec(message);
      if (m === null) return undefined;
      // Unpacking through a reference checks the tag on the variant reference, whose message differs.
      const kind = module !== undefined && l !== undefined ? module.functionDefs[l.functionIndex]?.code?.code[l.instruction]?.$kind : undefined;
      const byRef = kind !== undefined && /^UnpackVariant(Generic)?(ImmRef|MutRef)$/.test(kind);
      return byRef ? `Variant tag mismatch: expected ${m[1]}, found ${m[2]}` : `tag mismatch: expected ${m[1]}, got ${m[2]}`;
    }
    const cast = /Cannot cast (\d+) to (u\d+)/.exec(message);
    if (code !== 'ARITHMETIC_ERROR' || cast === null || module === undefined || l === undefined) return undefined;
    const from = pushedIntegerType(module, l.functionIndex, l.instruction - 1);
    return from === undefined ? undefined : `Cannot cast ${from}(${cast[1]}) to ${cast[2]}`;
  }
}
