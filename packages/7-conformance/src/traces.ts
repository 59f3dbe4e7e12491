/**
 * The `traces` suite: upstream Move VM execution traces (`sui move test
 * --trace-execution`, `fixtures/vm-traces`). Each traced `#[test]` function runs in our VM
 * under the {@link UpstreamTraceRecorder}; the two traces must agree record for record
 * (frames, pc, instruction names, effects). `gas_left` is compared separately, as a note.
 * A test whose code stays in 0x1 and its own modules runs on the stdlib it shipped; one that
 * calls into 0x2 runs on the framework it was recorded with, built as `sui move test` builds
 * it, with the Sui natives and a test run's transaction context (see `traces-framework.ts`).
 * Hand-written debugger fixtures (no bytecode, made-up instructions) are not executable.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { canonicalAddress, loadBundleFile, packageFromBytes, serializeModule, type MovePackage, unitTestModule, errorMessage, STD_ADDRESS, SUI_ADDRESS, ZERO_ADDRESS } from '@smi/bytecode';
import {
  MoveVM,
  OBJECT_RUNTIME_KEY,
  ObjectRuntime,
  parseTraceLines,
  parseTraceJson,
  PROTOCOL_135_STDLIB_COSTS,
  staticGasSchedule,
  stringifyTraceJson,
  suiNativeRegistry,
  UpstreamTraceRecorder,
  type GasSchedule,
  type TraceJson,
} from '@smi/move-vm';
import { emptySummary, type SuiteOptions, type SuiteSkip, type SuiteSummary, untilStopped } from './summary.js';
import { agreeingSnapshots } from './traces-choose.js';
import { hasTraceTxContext, traceFramework, TraceFrameworkError, type TraceFramework } from './traces-framework.js';

const ZERO = ZERO_ADDRESS.slice(2);
const ONE = STD_ADDRESS.slice(2);
const TWO = SUI_ADDRESS.slice(2);

/** A trace to replay: its file and the build directory of its modules. */
export interface TraceCase {
  /** `<test dir>:<trace name>`. */
  name: string;
  traceFile: string;
  /** `build/<pkg>/bytecode_modules`, or `null` when the trace ships no bytecode. */
  buildDir: string | null;
}

/**
 * Outcome of one trace. `not-executable`: a trace no VM could have recorded (a hand-written
 * debugger fixture without bytecode); it counts as neither run nor skipped.
 */
export interface TraceOutcome {
  name: string;
  status: 'match' | 'diverge' | 'skip' | 'not-executable';
  detail: string;
  /** Gas agreement (matching traces only). */
  gas?: {
    equalGasLeft: number;
    records: number;
    equalSteps: number;
    steps: number;
    finalExpected: string;
    finalGot: string;
    /** The first steps charging a different amount: record index, what it is, expected and got charge. */
    differentSteps?: string[];
  };
}

/** Find every trace under `root` (`<test>/traces/*.json`, tests nested up to two levels). */
export function findTraceCases(root: string): TraceCase[] {
  const out: TraceCase[] = [];
  const walk = (dir: string, depth: number): void => {
    const traces = path.join(dir, 'traces');
    if (existsSync(traces)) {
      const build = path.join(dir, 'build');
      const pkg = existsSync(build) ? readdirSync(build).find((p) => existsSync(path.join(build, p, 'bytecode_modules'))) : undefined;
      for (const f of readdirSync(traces)
        .filter((x) => x.endsWith('.json'))
        .sort()) {
        out.push({
          name: path
            .relative(root, path.join(traces, f))
            .replace(/\/traces\//, ':')
            .replace(/\.json$/, ''),
          traceFile: path.join(traces, f),
          buildDir: pkg === undefined ? null : path.join(build, pkg, 'bytecode_modules'),
        });
      }
      return;
    }
    if (depth > 2) return;
    for (const d of readdirSync(dir).sort()) {
      const p = path.join(dir, d);
      if (statSync(p).isDirectory()) walk(p, depth + 1);
    }
  };
  walk(root, 0);
  return out;
}

function mvFiles(dir: string): Uint8Array[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.mv'))
    .sort()
    .map((f) => new Uint8Array(readFileSync(path.join(dir, f))));
}

function isObject(v: TraceJson | undefined): v is { [key: string]: TraceJson } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof v !== 'bigint';
}

/** Addresses of every module a trace opens a frame in. */
function frameAddresses(records: TraceJson[]): Set<string> {
  const out = new Set<string>();
  for (const r of records) {
    if (!isObject(r) || !isObject(r.OpenFrame)) continue;
    const frame = r.OpenFrame.frame;
    if (isObject(frame) && isObject(frame.module) && typeof frame.module.address === 'string') out.add(frame.module.address);
  }
  return out;
}

/** Canonical text of a trace record: keys sorted, `gas_left` dropped unless `keepGas`. */
export function canonicalTraceRecord(v: TraceJson | undefined, keepGas = false): string {
  if (v === undefined) return '<none>';
  if (isObject(v)) {
    const keys = Object.keys(v)
      .filter((k) => keepGas || k !== 'gas_left')
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalTraceRecord(v[k], keepGas)}`).join(',')}}`;
  }
  if (Array.isArray(v)) return `[${v.map((x) => canonicalTraceRecord(x, keepGas)).join(',')}]`;
  return stringifyTraceJson(v);
}

function gasOf(v: TraceJson | undefined): string | null {
  if (!isObject(v)) return null;
  for (const k of ['OpenFrame', 'CloseFrame', 'Instruction']) {
    const body = v[k];
    if (isObject(body) && body.gas_left !== undefined) return String(body.gas_left);
  }
  return null;
}

function clip(s: string, n = 400): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

/** The test's own stdlib modules (shipped in the build) over the latest framework's. */
function stdlibFor(buildDir: string, frameworkDir: string): MovePackage {
  const latest = loadBundleFile(path.join(frameworkDir, 'move-stdlib'));
  const shipped = mvFiles(path.join(buildDir, 'dependencies', 'MoveStdlib'));
  if (shipped.length === 0) return latest;
  const shippedPkg = packageFromBytes(shipped);
  const names = new Set(shippedPkg.modules.map((m) => m.name));
  return packageFromBytes([...shippedPkg.modules.map((m) => m.bytes), ...latest.modules.filter((m) => !names.has(m.name)).map((m) => m.bytes)]);
}

/**
 * The stdlib (0x1) as `sui move test` links it: with the test-only `std::unit_test`. Every
 * module of a test build has a `unit_test_poison` calling `unit_test::poison`, and the VM
 * links a module with its whole dependency closure before running any of its functions.
 */
export function withUnitTest(packages: readonly MovePackage[]): MovePackage[] {
  return packages.map((p) => {
    if (canonicalAddress(p.id) !== canonicalAddress('0x1') || p.modules.some((m) => m.name === 'unit_test')) return p;
    const unitTest = unitTestModule();
    return { ...p, modules: [...p.modules, { name: 'unit_test', bytes: serializeModule(unitTest), module: unitTest }].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
  });
}

function compareGas(expected: TraceJson[], got: TraceJson[]): NonNullable<TraceOutcome['gas']> {
  let equalGasLeft = 0;
  let records = 0;
  let steps = 0;
  let equalSteps = 0;
  let prev: [bigint, bigint] | null = null;
  let last: [string, string] = ['', ''];
  const differentSteps: string[] = [];
  for (let i = 0; i < expected.length; i++) {
    const e = gasOf(expected[i]);
    const g = gasOf(got[i]);
    if (e === null || g === null) continue;
    records++;
    if (e === g) equalGasLeft++;
    const cur: [bigint, bigint] = [BigInt(e), BigInt(g)];
    if (prev !== null) {
      steps++;
      if (prev[0] - cur[0] === prev[1] - cur[1]) equalSteps++;
      else if (differentSteps.length < 10) differentSteps.push(`record ${i} ${stepName(expected[i])}: expected ${prev[0] - cur[0]}, got ${prev[1] - cur[1]}`);
    }
    prev = cur;
    last = [e, g];
  }
  return { equalGasLeft, records, equalSteps, steps, finalExpected: last[0], finalGot: last[1], ...(differentSteps.length > 0 ? { differentSteps } : {}) };
}

/** `Instruction CALL (pc 3)` / `OpenFrame f` ...: what a trace record is, for reports. */
function stepName(r: TraceJson | undefined): string {
  if (!isObject(r)) return '?';
  const [kind, body] = Object.entries(r)[0] ?? ['?', undefined];
  if (kind === 'Instruction' && isObject(body)) return `Instruction ${String(body.instruction)} (pc ${String(body.pc)})`;
  if (kind === 'OpenFrame' && isObject(body) && isObject(body.frame)) return `OpenFrame ${String(body.frame.function_name)}`;
  return kind;
}

/**
 * Signs that no VM wrote the trace (the debugger's hand-written fixtures): instructions named
 * `UNKNOWN` (no opcode is), module addresses written short (`0x1`; a VM writes 64 hex digits).
 */
function handWrittenSigns(records: TraceJson[]): string[] {
  let instructions = 0;
  let unknown = 0;
  const short = new Set<string>();
  for (const r of records) {
    if (!isObject(r)) continue;
    if (isObject(r.Instruction)) {
      instructions++;
      if (r.Instruction.instruction === 'UNKNOWN') unknown++;
    }
    const frame = isObject(r.OpenFrame) ? r.OpenFrame.frame : undefined;
    const address = isObject(frame) && isObject(frame.module) ? frame.module.address : undefined;
    if (typeof address === 'string' && !/^[0-9a-f]{64}$/.test(address)) short.add(address);
  }
  const signs: string[] = [];
  if (unknown > 0) signs.push(`${unknown} of ${instructions} instructions named UNKNOWN`);
  if (short.size > 0) signs.push(`module addresses written ${[...short].sort().join(', ')}`);
  return signs;
}

/** The transaction a `sui move test` run starts with: sender 0x0, zero digest, epoch 0, no gas price, budget or sponsor. */
function unitTestRuntime(vm: MoveVM, framework: TraceFramework): ObjectRuntime {
  return new ObjectRuntime({
    tx: { sender: '0x0', digest: new Uint8Array(32), epoch: 0n, epochTimestampMs: 0n, gasPrice: 0n, rgp: 0n, gasBudget: 0n, sponsor: null },
    bcs: vm.bcs,
    protocolConfig: framework.protocolConfig,
    // Upstream's unit-test runtime is unmetered (`ObjectRuntime::new(.., is_metered: false, ..)`) and may `replace` its context.
    isMetered: false,
    isTest: true,
  });
}

/**
 * Replay one trace. A trace that calls into 0x2 needs `framework` ({@link traceFramework} of
 * the snapshot it ran on: `runTraceSuite` chooses it from the trace's frames); without it it
 * is skipped.
 */
export function runTraceCase(c: TraceCase, frameworkDir: string, framework?: TraceFramework): TraceOutcome {
  return runParsedTrace(c, readTrace(c), frameworkDir, framework);
}

/** A trace file's text and its records. */
type ReadTrace = ReturnType<typeof parseTraceLines> & { text: string };

function readTrace(c: TraceCase): ReadTrace {
  const text = readFileSync(c.traceFile, 'utf8');
  return { ...parseTraceLines(text), text };
}

/** {@link runTraceCase} of a trace already read. */
function runParsedTrace(c: TraceCase, trace: ReadTrace, frameworkDir: string, framework?: TraceFramework): TraceOutcome {
  const { version, records: expected, text } = trace;
  if (c.buildDir === null) {
    const signs = handWrittenSigns(expected);
    if (signs.length > 0) return { name: c.name, status: 'not-executable', detail: `debugger fixture: hand-written trace (${signs.join('; ')}), no bytecode` };
    return { name: c.name, status: 'skip', detail: 'no bytecode shipped with the trace' };
  }
  const foreign = [...frameAddresses(expected)].filter((a) => a !== ZERO && a !== ONE);
  const short = (a: string): string => `0x${a.replace(/^0+/, '')}`;
  if (foreign.some((a) => a !== TWO)) {
    return { name: c.name, status: 'skip', detail: `calls into ${foreign.map(short).join(', ')} (only 0x1 and 0x2 are loaded)` };
  }
  const needsSui = foreign.length > 0;
  if (needsSui && framework === undefined) {
    return { name: c.name, status: 'skip', detail: 'calls into 0x2: run it with a framework (runTraceSuite chooses the snapshot the trace agrees with)' };
  }
  const first = expected[0];
  if (!isObject(first) || !isObject(first.OpenFrame) || !isObject(first.OpenFrame.frame)) {
    return { name: c.name, status: 'diverge', detail: 'the trace has no initial OpenFrame' };
  }
  const frame = first.OpenFrame.frame;
  const mod = frame.module as { name: string };
  const target = `0x0::${mod.name}::${String(frame.function_name)}`;
  const budget = Number(first.OpenFrame.gas_left);
  const own = packageFromBytes(mvFiles(c.buildDir));
  const recorder = new UpstreamTraceRecorder({ version: version >= 3 ? 3 : 2, variantPushOrder: 'top-first' });
  const gas = unitTestGasSchedule();
  if (needsSui && framework !== undefined) {
    const vm = MoveVM.create({ packages: [...withUnitTest(framework.packages), own], natives: suiNativeRegistry(), gas, protocolConfig: framework.protocolConfig });
    const extensions = new Map<string, unknown>([[OBJECT_RUNTIME_KEY, unitTestRuntime(vm, framework)]]);
    vm.call(target, { allowPrivate: true, tracer: recorder, gasBudget: budget, extensions });
  } else {
    // `sui move test` ran the old VM's natives (index_of charges the bytes before the match).
    const vm = MoveVM.create({ packages: [...withUnitTest([stdlibFor(c.buildDir, frameworkDir)]), own], gas, stdlibCosts: { ...PROTOCOL_135_STDLIB_COSTS, latestVm: false } });
    vm.call(target, { allowPrivate: true, tracer: recorder, gasBudget: budget });
  }
  const got = recorder.records().map((r) => parseTraceJson(stringifyTraceJson(r)));
  if (recorder.tracingErrors > 0) return { name: c.name, status: 'diverge', detail: `${recorder.tracingErrors} tracing errors` };
  const n = Math.max(expected.length, got.length);
  for (let i = 0; i < n; i++) {
    const e = canonicalTraceRecord(expected[i]);
    const g = canonicalTraceRecord(got[i]);
    if (e !== g) {
      return { name: c.name, status: 'diverge', detail: `record ${i} of ${expected.length} (got ${got.length}): expected ${clip(e)} got ${clip(g)}` };
    }
  }
  const maskGas = (t: string): string => t.replace(/"gas_left":\d+/g, '"gas_left":0').trimEnd();
  if (maskGas(recorder.toJsonLines()) !== maskGas(text)) return { name: c.name, status: 'diverge', detail: 'same records, different JSON text' };
  const on = framework === undefined || !needsSui ? '' : ` (framework of protocol ${framework.version}, test build)`;
  return { name: c.name, status: 'match', detail: `${expected.length} records, same JSON text${on}`, gas: compareGas(expected, got) };
}

/**
 * `sui move test` ran gas model 10: its static costs, with a call charged as one instruction
 * (upstream `charge_call`, our `GasMeter.chargeCall`) where `staticGasSchedule` adds a
 * `callBase` of 1 to the instruction's own cost. Copies, moves, reads and native return
 * values stay priced for a primitive value: their per-value rules are `GasMeter`'s, which the
 * interpreter does not run.
 */
function unitTestGasSchedule(): GasSchedule {
  return { ...staticGasSchedule(10), callBase: 0 };
}

/** Options of {@link runTraceSuite}. */
export interface TraceSuiteOptions extends SuiteOptions {
  /**
   * Root of the fixtures (`fixtures/framework-snapshots`, `fixtures/protocol-config`), for the
   * traces that call into 0x2. Default: two levels above `frameworkDir` (`<root>/fixtures/framework`).
   */
  fixturesRoot?: string;
}

/**
 * Run a trace, on the framework it ran on when it calls into 0x2: the snapshots that agree
 * with the framework functions it enters (see `traces-choose.ts`), newest first, until one
 * reproduces it; the outcome says which was chosen and why the others were not.
 */
async function runChoosingFramework(c: TraceCase, frameworkDir: string, fixturesRoot: string): Promise<TraceOutcome> {
  if (c.buildDir === null) return runTraceCase(c, frameworkDir);
  const trace = readTrace(c);
  const { records } = trace;
  const foreign = [...frameAddresses(records)].filter((a) => a !== ZERO && a !== ONE);
  if (foreign.length === 0 || foreign.some((a) => a !== TWO)) return runParsedTrace(c, trace, frameworkDir);
  const byFrames = agreeingSnapshots(fixturesRoot, records);
  const { refused } = byFrames;
  // Of those, the ones whose tx_context is the published part of the test build the traces ran.
  const agreeing: number[] = [];
  for (const v of byFrames.agreeing) {
    if (await hasTraceTxContext(fixturesRoot, v)) agreeing.push(v);
    else refused.set(v, 'its tx_context is not the published part of the test build');
  }
  if (agreeing.length === 0) {
    const example = [...refused]
      .slice(0, 2)
      .map(([v, why]) => `protocol ${v}: ${why}`)
      .join('; ');
    return { name: c.name, status: 'skip', detail: `no framework snapshot agrees with the framework functions the trace enters (${refused.size} refused${example ? `, e.g. ${example}` : ''})` };
  }
  const tried: string[] = [];
  let first: TraceOutcome | null = null;
  for (const v of agreeing) {
    let framework: TraceFramework;
    try {
      framework = await traceFramework(fixturesRoot, v);
    } catch (e) {
      if (!(e instanceof TraceFrameworkError)) throw e;
      tried.push(`${v} (${e.code})`);
      continue;
    }
    const o = runParsedTrace(c, trace, frameworkDir, framework);
    if (o.status === 'match') {
      const others = tried.length > 0 ? `; newer ones tried first: ${tried.join(', ')}` : '';
      return { ...o, detail: `${o.detail}; chosen by the trace's frames from ${agreeing.length} agreeing snapshots (${agreeing.join(', ')}) of ${agreeing.length + refused.size}${others}` };
    }
    tried.push(`${v} (${o.status})`);
    first ??= { ...o, detail: `framework of protocol ${v}: ${o.detail}` };
  }
  return first ?? { name: c.name, status: 'skip', detail: `every snapshot that agrees with the trace's frames was refused: ${tried.join(', ')}` };
}

/**
 * Run every trace under `dir` (the `vm-traces` folder). `frameworkDir` holds the
 * framework bundles (`move-stdlib`, ...); the traces calling into 0x2 run on the snapshots
 * under `options.fixturesRoot`.
 */
export async function runTraceSuite(dir: string, frameworkDir: string, options: TraceSuiteOptions = {}): Promise<SuiteSummary & { outcomes: TraceOutcome[] }> {
  const cases = findTraceCases(dir).filter((c) => options.filter === undefined || c.name.includes(options.filter));
  const fixturesRoot = options.fixturesRoot ?? path.resolve(frameworkDir, '..', '..');
  const summary = emptySummary('traces');
  const outcomes: TraceOutcome[] = [];
  for await (const [i, c] of untilStopped(cases, summary, options.signal)) {
    let o: TraceOutcome;
    try {
      o = await runChoosingFramework(c, frameworkDir, fixturesRoot);
    } catch (e) {
      o = { name: c.name, status: 'diverge', detail: `threw: ${errorMessage(e)}` };
    }
    outcomes.push(o);
    options.onFile?.(c.name, i + 1, cases.length);
  }
  summary.files = outcomes.length;
  let steps = 0;
  let equalSteps = 0;
  let nearFinal = 0;
  let exactFinal = 0;
  const notExecutable: SuiteSkip[] = [];
  for (const o of outcomes) {
    const [file, task] = o.name.split(':');
    if (o.status === 'match') {
      summary.passed++;
      if (o.gas) {
        steps += o.gas.steps;
        equalSteps += o.gas.equalSteps;
        const off = Math.abs(Number(BigInt(o.gas.finalExpected) - BigInt(o.gas.finalGot)));
        if (off <= 10) nearFinal++;
        if (off === 0) exactFinal++;
      }
    } else if (o.status === 'skip') {
      summary.skipped++;
      summary.skips.push({ file, task, reason: o.detail });
    } else if (o.status === 'not-executable') {
      notExecutable.push({ file, task, reason: o.detail });
    } else {
      summary.failed++;
      summary.failures.push({ file, task, expected: 'the upstream trace', got: o.detail });
    }
  }
  summary.tasks = outcomes.length - notExecutable.length;
  summary.notes.push(
    `gas (static gas-model-10 costs, a call one instruction): ${equalSteps}/${steps} steps charge the same gas; final gas_left exactly upstream's on ${exactFinal}/${summary.passed} traces, within 10 units on ${nearFinal}/${summary.passed}`,
  );
  if (notExecutable.length > 0) {
    summary.notExecutable = notExecutable;
    summary.notes.push(`${notExecutable.length} traces are not executable (hand-written debugger fixtures, no bytecode) and not counted as tasks`);
  }
  return { ...summary, outcomes };
}
