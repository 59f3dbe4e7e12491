/**
 * A runner for upstream IR transactional tests as the `move-ir-compiler-transactional-tests`
 * suite uses them: `//# init --addresses`, `//# print-bytecode` (assemble, then
 * disassemble with the source names upstream's source map gives) and `//# publish`
 * (assemble and keep the module for later tasks). Other commands (`run`, ...) belong to
 * the VM: subclass {@link IrTestAdapter} and override {@link IrTestAdapter.handle} (or
 * `publish`) to add them.
 */
import { canonicalAddress, disassembleModule, type CompiledModule, errorMessage } from '@smi/bytecode';
import { assembleModule, serializeAssembled, type AssembledModule } from './assembler.js';
import { TaskError } from './errors.js';
import { parseModule } from './parser.js';
import { compareWithSnapshot, parseSnapshot, parseTransactionalTestFile, renderTranscript, type TaskComparison, type TaskOutcome, type TransactionalTask } from './transactional.js';

/** Options of {@link IrTestAdapter} and {@link runTransactionalTestFile}. */
export interface IrTestOptions {
  /** Modules published before the first task (upstream publishes its move-stdlib at `0x1`). */
  preludeModules?: readonly CompiledModule[];
  /** Named addresses known before `init` (name → address); default `{ std: '0x1' }`. */
  namedAddresses?: Readonly<Record<string, string>>;
}

const moduleKey = (m: CompiledModule): string => {
  const self = m.moduleHandles[m.selfModuleHandleIndex];
  return `${canonicalAddress(m.addressIdentifiers[self.address])}::${m.identifiers[self.name]}`;
};

/** Parses a named address value: `0x` hex or decimal (upstream `NumericalAddress`). */
function parseNumericalAddress(value: string): string | undefined {
  if (/^0x[0-9a-fA-F]{1,64}$/.test(value)) return canonicalAddress(value);
  if (/^[0-9]+$/.test(value)) {
    const n = BigInt(value);
    if (n >> 256n === 0n) return canonicalAddress('0x' + n.toString(16));
  }
  return undefined;
}

/** The state of one test file: named addresses and published modules. */
export class IrTestAdapter {
  /** Named addresses (name → canonical address). */
  readonly namedAddresses = new Map<string, string>();
  /** Published modules by `0x<64 hex>::name`. */
  readonly modules = new Map<string, CompiledModule>();

  constructor(options: IrTestOptions = {}, init?: TransactionalTask) {
    for (const [name, address] of Object.entries(options.namedAddresses ?? { std: '0x1' })) {
      this.namedAddresses.set(name, canonicalAddress(address));
    }
    for (const m of options.preludeModules ?? []) this.modules.set(moduleKey(m), m);
    if (init !== undefined) this.init(init);
  }

  /** Applies `//# init --addresses NAME=ADDR ...`. */
  protected init(task: TransactionalTask): void {
    const given = new Map<string, string>();
    let mode: 'none' | 'addresses' = 'none';
    for (const arg of task.args) {
      if (arg === '--addresses') mode = 'addresses';
      else if (arg.startsWith('--')) mode = 'none';
      else if (mode === 'addresses') {
        const eq = arg.indexOf('=');
        const address = eq > 0 ? parseNumericalAddress(arg.slice(eq + 1)) : undefined;
        if (address === undefined) throw new TaskError(`Invalid named address assignment '${arg}'`);
        const name = arg.slice(0, eq);
        if (given.has(name)) throw new TaskError(`Invalid named address assignment. Multiple assignments for '${name}'`);
        given.set(name, address);
      }
    }
    for (const [name, address] of given) {
      if (this.namedAddresses.has(name)) {
        throw new TaskError(`Invalid init. The named address '${name}' is reserved by the move-stdlib`);
      }
      this.namedAddresses.set(name, address);
    }
  }

  /** Assembles the task's module against every module published so far (no serialization). */
  compile(task: TransactionalTask): AssembledModule {
    if (task.body === undefined) {
      throw new TaskError(`Expected a module text block following 'publish' starting on lines ${task.startLine}-${task.commandLinesStop}`);
    }
    const ast = parseModule(task.body, { namedAddresses: this.namedAddresses });
    return assembleModule(ast, { dependencies: this.modules.values() });
  }

  /**
   * `//# publish`: assembles and serializes the module (serialization limits fail the
   * task, as upstream's publish does), then stores it; prints nothing.
   */
  protected publish(task: TransactionalTask): string | undefined {
    const { module } = this.compile(task);
    serializeAssembled(module);
    this.modules.set(moduleKey(module), module);
    return undefined;
  }

  /** `//# print-bytecode`: the disassembly of the assembled module. */
  protected printBytecode(task: TransactionalTask): string {
    const { module, sourceNames } = this.compile(task);
    return disassembleModule(module, { sourceNames });
  }

  /**
   * Runs one task and returns what upstream prints for it (`undefined` for nothing).
   * Errors thrown here are printed as `Error: <message>`.
   */
  handle(task: TransactionalTask): string | undefined {
    switch (task.command) {
      case 'print-bytecode':
        return this.printBytecode(task);
      case 'publish':
        return this.publish(task);
      case 'init':
        throw new TaskError("The 'init' command is optional. But if used, it must be the first command");
      default:
        throw new TaskError(`unsupported command '${task.command}'`);
    }
  }
}

/** The result of running one test file. */
export interface TransactionalRun {
  outcomes: TaskOutcome[];
  /** The transcript in the `.snap` wording. */
  transcript: string;
}

/** Creates the adapter of a file, given its optional leading `init` task. */
export type AdapterFactory = (init: TransactionalTask | undefined) => { handle(task: TransactionalTask): string | undefined };

/**
 * Runs every task of a transactional test file. The default adapter is
 * {@link IrTestAdapter} (the IR compiler suite); pass a factory for another one.
 */
export function runTransactionalTestFile(text: string, adapter: AdapterFactory | IrTestOptions = {}): TransactionalRun {
  const tasks = parseTransactionalTestFile(text);
  const factory: AdapterFactory = typeof adapter === 'function' ? adapter : (init) => new IrTestAdapter(adapter, init);
  const init = tasks[0]?.command === 'init' ? tasks[0] : undefined;
  const outcomes: TaskOutcome[] = [];
  let instance: ReturnType<AdapterFactory> | undefined;
  try {
    instance = factory(init);
  } catch (e) {
    if (init === undefined) throw e;
    outcomes.push({ task: init, output: `Error: ${errorMessage(e)}` });
  }
  if (init !== undefined && outcomes.length === 0) outcomes.push({ task: init, output: undefined });
  for (const task of tasks.slice(init === undefined ? 0 : 1)) {
    let output: string | undefined;
    try {
      if (instance === undefined) throw new TaskError('the test adapter could not be initialized');
      output = instance.handle(task);
    } catch (e) {
      output = `Error: ${errorMessage(e)}`;
    }
    outcomes.push({ task, output });
  }
  return { outcomes, transcript: renderTranscript(outcomes) };
}

/** A file's run compared with its `.snap`. */
export interface SnapshotCheck extends TransactionalRun {
  comparisons: TaskComparison[];
  /** `processed N tasks` of the snapshot equals the number of tasks run. */
  processedMatches: boolean;
}

/** Runs a test file and compares it with the text of its `.snap`, task by task. */
export function checkAgainstSnapshot(text: string, snapText: string, adapter: AdapterFactory | IrTestOptions = {}): SnapshotCheck {
  const run = runTransactionalTestFile(text, adapter);
  const snapshot = parseSnapshot(snapText);
  return { ...run, comparisons: compareWithSnapshot(run.outcomes, snapshot), processedMatches: snapshot.processed === run.outcomes.length };
}
