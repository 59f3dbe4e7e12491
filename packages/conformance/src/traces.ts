/**
 * The `traces` suite: upstream Move VM execution traces (`sui move test
 * --trace-execution`, `fixtures/vm-traces`). Each traced `#[test]` function whose code
 * stays in 0x1 and the test's own modules runs in our VM under the
 * {@link UpstreamTraceRecorder}; the two traces must agree record for record (frames,
 * pc, instruction names, effects). `gas_left` is compared separately, as a note.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadBundleFile, packageFromBytes, type MovePackage } from '@smi/bytecode';
import {
  MoveVM,
  parseTraceLines,
  parseTraceJson,
  staticGasSchedule,
  stringifyTraceJson,
  UpstreamTraceRecorder,
  type TraceJson,
} from '@smi/move-vm';
import { emptySummary, type SuiteOptions, type SuiteSummary, untilStopped } from './summary.js';

const ZERO = '0'.repeat(64);
const ONE = `${'0'.repeat(63)}1`;

/** A trace to replay: its file and the build directory of its modules. */
export interface TraceCase {
  /** `<test dir>:<trace name>`. */
  name: string;
  traceFile: string;
  /** `build/<pkg>/bytecode_modules`, or `null` when the trace ships no bytecode. */
  buildDir: string | null;
}

/** Outcome of one trace. */
export interface TraceOutcome {
  name: string;
  status: 'match' | 'diverge' | 'skip';
  detail: string;
  /** Gas agreement (matching traces only). */
  gas?: { equalGasLeft: number; records: number; equalSteps: number; steps: number; finalExpected: string; finalGot: string };
}

/** Find every trace under `root` (`<test>/traces/*.json`, tests nested up to two levels). */
export function findTraceCases(root: string): TraceCase[] {
  const out: TraceCase[] = [];
  const walk = (dir: string, depth: number): void => {
    const traces = path.join(dir, 'traces');
    if (existsSync(traces)) {
      const build = path.join(dir, 'build');
      const pkg = existsSync(build) ? readdirSync(build).find((p) => existsSync(path.join(build, p, 'bytecode_modules'))) : undefined;
      for (const f of readdirSync(traces).filter((x) => x.endsWith('.json')).sort()) {
        out.push({
          name: path.relative(root, path.join(traces, f)).replace(/\/traces\//, ':').replace(/\.json$/, ''),
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

function compareGas(expected: TraceJson[], got: TraceJson[]): NonNullable<TraceOutcome['gas']> {
  let equalGasLeft = 0;
  let records = 0;
  let steps = 0;
  let equalSteps = 0;
  let prev: [bigint, bigint] | null = null;
  let last: [string, string] = ['', ''];
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
    }
    prev = cur;
    last = [e, g];
  }
  return { equalGasLeft, records, equalSteps, steps, finalExpected: last[0], finalGot: last[1] };
}

/** Replay one trace. */
export function runTraceCase(c: TraceCase, frameworkDir: string): TraceOutcome {
  const text = readFileSync(c.traceFile, 'utf8');
  const { version, records: expected } = parseTraceLines(text);
  if (c.buildDir === null) return { name: c.name, status: 'skip', detail: 'no bytecode shipped with the trace' };
  const foreign = [...frameAddresses(expected)].filter((a) => a !== ZERO && a !== ONE);
  if (foreign.length > 0) {
    return { name: c.name, status: 'skip', detail: `calls into ${foreign.map((a) => `0x${a.replace(/^0+/, '')}`).join(', ')} (needs the Sui natives)` };
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
  // `sui move test` ran gas model 10: its static costs.
  const vm = MoveVM.create({ packages: [stdlibFor(c.buildDir, frameworkDir), own], gas: staticGasSchedule(10) });
  vm.call(target, { allowPrivate: true, tracer: recorder, gasBudget: budget });
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
  return { name: c.name, status: 'match', detail: `${expected.length} records, same JSON text`, gas: compareGas(expected, got) };
}

/**
 * Run every trace under `dir` (the `vm-traces` folder). `frameworkDir` holds the
 * framework bundles (`move-stdlib`, ...).
 */
export async function runTraceSuite(dir: string, frameworkDir: string, options: SuiteOptions = {}): Promise<SuiteSummary & { outcomes: TraceOutcome[] }> {
  const cases = findTraceCases(dir).filter((c) => options.filter === undefined || c.name.includes(options.filter));
  const summary = emptySummary('traces');
  const outcomes: TraceOutcome[] = [];
  for await (const [i, c] of untilStopped(cases, summary, options.signal)) {
    let o: TraceOutcome;
    try {
      o = runTraceCase(c, frameworkDir);
    } catch (e) {
      o = { name: c.name, status: 'diverge', detail: `threw: ${e instanceof Error ? e.message : String(e)}` };
    }
    outcomes.push(o);
    options.onFile?.(c.name, i + 1, cases.length);
  }
  summary.files = outcomes.length;
  summary.tasks = outcomes.length;
  let steps = 0;
  let equalSteps = 0;
  let nearFinal = 0;
  for (const o of outcomes) {
    const [file, task] = o.name.split(':');
    if (o.status === 'match') {
      summary.passed++;
      if (o.gas) {
        steps += o.gas.steps;
        equalSteps += o.gas.equalSteps;
        if (Math.abs(Number(BigInt(o.gas.finalExpected) - BigInt(o.gas.finalGot))) <= 10) nearFinal++;
      }
    } else if (o.status === 'skip') {
      summary.skipped++;
      summary.skips.push({ file, task, reason: o.detail });
    } else {
      summary.failed++;
      summary.failures.push({ file, task, expected: 'the upstream trace', got: o.detail });
    }
  }
  summary.notes.push(
    `gas (static gas-model-10 costs): ${equalSteps}/${steps} steps charge the same gas; final gas_left within 10 units on ${nearFinal}/${summary.passed} traces`,
  );
  return { ...summary, outcomes };
}
