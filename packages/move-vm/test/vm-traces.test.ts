/**
 * Differential test against upstream Move VM traces (`sui move test --trace-execution`,
 * `fixtures/vm-traces`): run each traced `#[test]` function whose code uses only 0x1
 * and the test's own modules, record our trace with {@link UpstreamTraceRecorder}, and
 * compare record by record: frames, pc, instruction names, effects (everything except
 * `gas_left`). Gas agreement is reported separately.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { deserializeModule, loadBundleFile, packageFromBytes, type Bytecode, type CompiledModule, type MovePackage } from '@smi/bytecode';
import { MoveVM, staticGasSchedule, type GasSchedule } from '@smi/move-vm';
import { OP_COUNT } from '../src/interpreter/ops.js';
import { parseTraceJson, parseTraceLines, stringifyTraceJson, type TraceJson } from '../src/tracing/format.js';
import { UpstreamTraceRecorder } from '../src/tracing/recorder.js';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

const ROOT = ['fixtures', 'vm-traces'];
const ZERO = '0'.repeat(64);
const ONE = `${'0'.repeat(63)}1`;

/**
 * Traces that are not run, with the reason. Only tests whose code stays in 0x1 and the
 * test's own modules are in scope (0x2 needs the Sui natives: `tx_context`, `object`,
 * `dynamic_field`, `address`).
 */
const NOT_RUN: Readonly<Record<string, string>> = {
  'abort_native:abort_native__m__test': 'calls into 0x2 (native 0x2::address::from_bytes)',
  'global_loc:global_loc__m__test': 'calls into 0x2 (tx_context, object, dynamic_field natives)',
  'global_write:global_write__m__test': 'calls into 0x2 (tx_context, object, dynamic_field natives)',
  'debug-info-mismatch/missing_code_map_source_file:missing_code_map_source_file__m__test': 'no bytecode shipped with the trace',
  'debug-info-mismatch/missing_inlined_source_map:missing_inlined_source_map__m__test': 'no bytecode shipped with the trace',
  'debug-info-mismatch/missing_source_function:missing_source_function__m__test': 'no bytecode shipped with the trace',
  'debug-info-mismatch/missing_source_module:missing_source_module__m__test': 'no bytecode shipped with the trace',
};

/** Traces run that are expected to diverge, with the reason (none today). */
const KNOWN_DIVERGENCES: Readonly<Record<string, string>> = {};

/** Number of traces expected to match record for record (gas aside). */
const EXPECTED_MATCHES = 24;

/** `sui move test` ran gas model 10: the static approximation of its costs. */
const approximateUnitTestGas = (): GasSchedule => staticGasSchedule(10);

interface Case {
  name: string;
  traceFile: string;
  buildDir: string | null;
}

function findCases(root: string): Case[] {
  const out: Case[] = [];
  const walk = (dir: string, depth: number): void => {
    const traces = path.join(dir, 'traces');
    if (existsSync(traces) && statSync(traces).isDirectory()) {
      const build = path.join(dir, 'build');
      const pkg = existsSync(build) ? readdirSync(build).find((d) => existsSync(path.join(build, d, 'bytecode_modules'))) : undefined;
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

/** Canonical text of a record: sorted keys, `gas_left` dropped. */
function canonical(v: TraceJson | undefined, dropGas = true): string {
  if (v === undefined) return '<none>';
  if (isObject(v)) {
    const keys = Object.keys(v)
      .filter((k) => !(dropGas && k === 'gas_left'))
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(v[k], dropGas)}`).join(',')}}`;
  }
  if (Array.isArray(v)) return `[${v.map((x) => canonical(x, dropGas)).join(',')}]`;
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

interface Outcome {
  name: string;
  status: 'match' | 'diverge' | 'skip';
  detail: string;
  gas?: string;
}

function stdlibFor(buildDir: string): MovePackage {
  const latest = loadBundleFile(fixturePath('fixtures', 'framework', 'move-stdlib'));
  const shipped = mvFiles(path.join(buildDir, 'dependencies', 'MoveStdlib'));
  if (shipped.length === 0) return latest;
  const shippedPkg = packageFromBytes(shipped);
  const names = new Set(shippedPkg.modules.map((m) => m.name));
  const merged = [...shippedPkg.modules.map((m) => m.bytes), ...latest.modules.filter((m) => !names.has(m.name)).map((m) => m.bytes)];
  return packageFromBytes(merged);
}

function runCase(c: Case): Outcome {
  const text = readFileSync(c.traceFile, 'utf8');
  const { version, records: expected } = parseTraceLines(text);
  if (c.buildDir === null) return { name: c.name, status: 'skip', detail: 'no bytecode shipped with the trace' };
  const foreign = [...frameAddresses(expected)].filter((a) => a !== ZERO && a !== ONE);
  if (foreign.length > 0) return { name: c.name, status: 'skip', detail: `calls into ${foreign.map((a) => `0x${a.replace(/^0+/, '')}`).join(', ')}` };
  const first = expected[0];
  if (!isObject(first) || !isObject(first.OpenFrame) || !isObject(first.OpenFrame.frame)) throw new Error(`${c.name}: no initial OpenFrame`);
  const frame = first.OpenFrame.frame;
  const mod = frame.module as { name: string };
  const target = `0x0::${mod.name}::${String(frame.function_name)}`;
  const budget = Number(first.OpenFrame.gas_left);

  const own = packageFromBytes(mvFiles(c.buildDir));
  const recorder = new UpstreamTraceRecorder({ version: version >= 3 ? 3 : 2, variantPushOrder: 'top-first' });
  const vm = MoveVM.create({ packages: [stdlibFor(c.buildDir), own], gas: approximateUnitTestGas() });
  vm.call(target, { allowPrivate: true, tracer: recorder, gasBudget: budget });
  const got = recorder.records().map((r) => parseTraceJson(stringifyTraceJson(r)));
  if (recorder.tracingErrors > 0) return { name: c.name, status: 'diverge', detail: `${recorder.tracingErrors} tracing errors` };

  const n = Math.max(expected.length, got.length);
  for (let i = 0; i < n; i++) {
    const e = canonical(expected[i]);
    const g = canonical(got[i]);
    if (e !== g) {
      const context = expected
        .slice(Math.max(0, i - 2), i)
        .map((r) => clip(canonical(r), 160))
        .join('\n      ');
      return {
        name: c.name,
        status: 'diverge',
        detail: `record ${i} of ${expected.length} (got ${got.length})\n    after:\n      ${context}\n    expected: ${clip(e)}\n    got:      ${clip(g)}`,
      };
    }
  }
  // Same records; the JSON text must be identical too (key order, number spelling), gas aside.
  const maskGas = (t: string): string => t.replace(/"gas_left":\d+/g, '"gas_left":0').trimEnd();
  if (maskGas(recorder.toJsonLines()) !== maskGas(text)) return { name: c.name, status: 'diverge', detail: 'same records, different JSON text' };
  return { name: c.name, status: 'match', detail: `${expected.length} records, same JSON text`, gas: compareGas(expected, got) };
}

/**
 * Gas agreement of two traces with the same records: equal `gas_left` values, equal
 * consumption between consecutive gas-bearing records, and the final `gas_left`.
 */
function compareGas(expected: TraceJson[], got: TraceJson[]): string {
  let same = 0;
  let steps = 0;
  let sameSteps = 0;
  let prev: [bigint, bigint] | null = null;
  let last: [string, string] = ['', ''];
  for (let i = 0; i < expected.length; i++) {
    const e = gasOf(expected[i]);
    const g = gasOf(got[i]);
    if (e === null || g === null) continue;
    if (e === g) same++;
    const cur: [bigint, bigint] = [BigInt(e), BigInt(g)];
    if (prev !== null) {
      steps++;
      if (prev[0] - cur[0] === prev[1] - cur[1]) sameSteps++;
    }
    prev = cur;
    last = [e, g];
  }
  const total = steps + 1;
  return `gas_left equal ${same}/${total}, per-step use equal ${sameSteps}/${steps}, final gas_left expected ${last[0]} got ${last[1]}`;
}


describeWithFixtures('upstream VM traces', ROOT, () => {
  it('records the upstream trace of every 0x1-only test', () => {
    const cases = findCases(fixturePath(...ROOT));
    const outcomes = cases.map((c) => {
      try {
        return runCase(c);
      } catch (e) {
        return { name: c.name, status: 'diverge', detail: `threw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` } satisfies Outcome;
      }
    });
    const lines = outcomes.map((o) => `${o.status.padEnd(7)} ${o.name}: ${o.detail}${o.gas ? `; ${o.gas}` : ''}`);
    // eslint-disable-next-line no-console
    console.log(`vm-traces (gas compared only for information):\n${lines.join('\n')}`);
    const named = (status: Outcome['status']): string[] => outcomes.filter((o) => o.status === status).map((o) => o.name).sort();
    expect(named('skip')).toEqual(Object.keys(NOT_RUN).sort());
    expect(named('diverge')).toEqual(Object.keys(KNOWN_DIVERGENCES).sort());
    expect(named('match').length).toBe(EXPECTED_MATCHES);
  });
});

/**
 * `abort_native_bytecode`'s module with `foo`'s `VecImmBorrow` replaced by a call of the
 * native `0x1::vector::borrow<u64>` (as bytecode from older compilers has it), and
 * `test` packing `elems` into the vector it passes.
 */
function withNativeBorrow(m: CompiledModule, elems: readonly bigint[]): CompiledModule {
  const ids = [...m.identifiers, 'vector', 'borrow'];
  const sigs = [
    ...m.signatures,
    [{ $kind: 'Reference', type: { $kind: 'Vector', type: { $kind: 'TypeParameter', index: 0 } } }, { $kind: 'U64' }],
    [{ $kind: 'Reference', type: { $kind: 'TypeParameter', index: 0 } }],
    [{ $kind: 'U64' }],
  ] as CompiledModule['signatures'];
  const std = m.addressIdentifiers.indexOf(`0x${ONE}`);
  const moduleHandles = [...m.moduleHandles, { address: std, name: ids.length - 2 }];
  const functionHandles = [
    ...m.functionHandles,
    { module: moduleHandles.length - 1, name: ids.length - 1, parameters: sigs.length - 3, return: sigs.length - 2, typeParameters: [0] },
  ];
  const functionInstantiations = [...m.functionInstantiations, { handle: functionHandles.length - 1, typeParameters: sigs.length - 1 }];
  const code = (name: string, f: (c: Bytecode[]) => Bytecode[]) => (d: CompiledModule['functionDefs'][number]) =>
    m.identifiers[m.functionHandles[d.function].name] === name && d.code ? { ...d, code: { ...d.code, code: f(d.code.code) } } : d;
  const vecSig = m.signatures.findIndex((s) => s.length === 1 && s[0].$kind === 'U64');
  const functionDefs = m.functionDefs
    .map(code('foo', (c) => c.map((i) => (i.$kind === 'VecImmBorrow' ? { $kind: 'CallGeneric', index: functionInstantiations.length - 1 } : i))))
    .map(code('test', (c) => [
      ...elems.map((value): Bytecode => ({ $kind: 'LdU64', value })),
      ...c.map((i): Bytecode => (i.$kind === 'VecPack' ? { $kind: 'VecPack', index: vecSig, count: BigInt(elems.length) } : i)),
    ]));
  return { ...m, identifiers: ids, signatures: sigs, moduleHandles, functionHandles, functionInstantiations, functionDefs };
}

function nativeBorrowTrace(elems: readonly bigint[]): string[] {
  const dir = fixturePath(...ROOT, 'abort_native_bytecode', 'build', 'abort_native_bytecode', 'bytecode_modules');
  const bytes = mvFiles(dir)[0];
  const own: MovePackage = { ...packageFromBytes([bytes]), modules: [{ name: 'm', bytes, module: withNativeBorrow(deserializeModule(bytes), elems) }] };
  const vm = MoveVM.create({ packages: [loadBundleFile(fixturePath('fixtures', 'framework', 'move-stdlib')), own] });
  const recorder = new UpstreamTraceRecorder({ version: 2 });
  vm.call('0x0::m::test', { allowPrivate: true, tracer: recorder });
  return recorder.records().map((r) => canonical(parseTraceJson(stringifyTraceJson(r))));
}

describeWithFixtures('native calls in traces', ROOT, () => {
  const borrowFrame = (id: number, caller: number, param: string): string =>
    `{"OpenFrame":{"frame":{"binary_member_index":1,"frame_id":${id},"function_name":"borrow","is_native":true,` +
    `"locals_types":[{"ref_type":"Imm","type_":{"vector":"u64"}},{"ref_type":null,"type_":"u64"}],` +
    `"module":{"address":"${ONE}","name":"vector"},"parameters":[{"ImmRef":{"location":{"Local":[${caller},0]},"snapshot":${param}}},` +
    `{"RuntimeValue":{"value":{"type":"U64","value":0}}}],"return_types":[{"ref_type":"Imm","type_":"u64"}],"type_instantiation":["u64"]}}}`;

  it('a failing native: CALL_GENERIC, its native frame, then the error', () => {
    const t = nativeBorrowTrace([]);
    // The vector natives turn VECTOR_OPERATION_ERROR into ABORTED (upstream `native_error_to_abort`).
    expect(t.slice(-3)).toEqual([
      '{"Instruction":{"instruction":"CALL_GENERIC","pc":2,"type_parameters":[]}}',
      borrowFrame(11, 4, '{"type":"Vector","value":[]}'),
      '{"Effect":{"ExecutionError":"ABORTED"}}',
    ]);
  });

  it('a native returning a reference: DataLoad of a Global location, reads through it', () => {
    const t = nativeBorrowTrace([7n]);
    const at = t.indexOf('{"Instruction":{"instruction":"CALL_GENERIC","pc":2,"type_parameters":[]}}');
    const ref = '{"ImmRef":{"location":{"Global":15},"snapshot":{"type":"U64","value":7}}}';
    expect(t.slice(at, at + 10)).toEqual([
      '{"Instruction":{"instruction":"CALL_GENERIC","pc":2,"type_parameters":[]}}',
      borrowFrame(14, 7, '{"type":"Vector","value":[{"type":"U64","value":7}]}'),
      '{"Effect":{"DataLoad":{"location":{"Global":15},"ref_type":"Imm","snapshot":{"type":"U64","value":7}}}}',
      `{"Effect":{"Push":${ref}}}`,
      `{"CloseFrame":{"frame_id":14,"return_":[${ref}]}}`,
      '{"Instruction":{"instruction":"READ_REF","pc":3,"type_parameters":[]}}',
      `{"Effect":{"Pop":${ref}}}`,
      `{"Effect":{"Read":{"location":{"Global":15},"moved":false,"root_value_read":${ref}}}}`,
      '{"Effect":{"Push":{"RuntimeValue":{"value":{"type":"U64","value":7}}}}}',
      '{"Instruction":{"instruction":"RET","pc":4,"type_parameters":[]}}',
    ]);
    expect(t.filter((r) => r.includes('TRACING ERROR'))).toEqual([]);
  });
});
