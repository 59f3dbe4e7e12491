/**
 * The `traces` conformance suite over `fixtures/vm-traces`: every trace a VM recorded runs
 * and matches (the ones calling into 0x2 on the framework they were recorded with, built as
 * `sui move test` builds it), the hand-written debugger fixtures are classified as such; and
 * two synthetic traces of native calls (none of the fixtures calls a native that returns a
 * reference or fails).
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { deserializeModule, loadBundleFile, packageFromBytes, type Bytecode, type CompiledModule, type MovePackage } from '@smi/bytecode';
import { MoveVM, parseTraceJson, parseTraceLines, stringifyTraceJson, UpstreamTraceRecorder, type TraceJson } from '@smi/move-vm';
import { canonicalTraceRecord as canonical, findTraceCases, runTraceCase, runTraceSuite, agreeingSnapshots, frameworkCalls, traceFramework, TraceFrameworkError, withUnitTest } from '@smi/conformance';
import { describeWithFixtures, FIXTURES_ROOT, fixturePath } from '../../../test-support/fixtures.js';

const ROOT = ['fixtures', 'vm-traces'];
const ONE = `${'0'.repeat(63)}1`;
const FRAMEWORK = fixturePath('fixtures', 'framework');

/** The debugger's hand-written fixtures: no bytecode, instructions named UNKNOWN. */
const NOT_EXECUTABLE = [
  'debug-info-mismatch/missing_code_map_source_file:missing_code_map_source_file__m__test',
  'debug-info-mismatch/missing_inlined_source_map:missing_inlined_source_map__m__test',
  'debug-info-mismatch/missing_source_function:missing_source_function__m__test',
  'debug-info-mismatch/missing_source_module:missing_source_module__m__test',
];

/** Tests that call into 0x2. */
const SUI_TESTS = ['abort_native', 'global_loc', 'global_write'];

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

const suiCase = (test: string) => {
  const c = findTraceCases(fixturePath(...ROOT)).find((x) => x.name.startsWith(`${test}:`));
  if (c === undefined) throw new Error(`no trace of ${test}`);
  return c;
};

describeWithFixtures('upstream VM traces', ROOT, () => {
  it('records the upstream trace of every test a VM ran, 0x2 ones on the framework they ran with', async () => {
    const summary = await runTraceSuite(fixturePath(...ROOT), FRAMEWORK);
    const lines = summary.outcomes.map((o) => `${o.status.padEnd(7)} ${o.name}: ${o.detail}`);
    console.log(`vm-traces:\n${lines.join('\n')}\n${summary.notes.join('\n')}`);
    expect(summary.failures).toEqual([]);
    expect(summary.skips).toEqual([]);
    expect([summary.files, summary.tasks, summary.passed, summary.skipped]).toEqual([31, 27, 27, 0]);
    expect(summary.notExecutable?.map((s) => `${s.file}:${s.task}`).sort()).toEqual(NOT_EXECUTABLE);
    // Each on the newest snapshot that agrees with the framework functions it enters and has
    // the test build's tx_context (78 to 86): abort_native enters nothing 86 changed; the other
    // two enter object::new, which 86 moved.
    const chosen = Object.fromEntries(
      SUI_TESTS.map((t) => [
        t,
        summary.outcomes
          .find((o) => o.name.startsWith(`${t}:`))
          ?.detail.match(/framework of protocol (\d+), test build\); chosen by the trace's frames from (\d+) agreeing snapshots \(([\d, ]+)\)/)
          ?.slice(1),
      ]),
    );
    expect(chosen).toEqual({
      abort_native: ['86', '7', '86, 85, 84, 82, 81, 79, 78'],
      global_loc: ['85', '6', '85, 84, 82, 81, 79, 78'],
      global_write: ['85', '6', '85, 84, 82, 81, 79, 78'],
    });
    // Calls are charged as upstream does (one instruction, after the callee's OpenFrame),
    // copies, moves, reads, writes and comparisons by the sizes of their values, natives by
    // their protocol costs (the old VM's: legacy sizes, index_of by the match's offset): every
    // step charges upstream's gas.
    const exact = summary.outcomes.filter((o) => o.gas !== undefined && o.gas.finalExpected === o.gas.finalGot);
    expect(exact.length).toBe(27);
    expect(summary.outcomes.filter((o) => o.gas?.differentSteps !== undefined).map((o) => `${o.name}: ${o.gas?.differentSteps?.join('; ')}`)).toEqual([]);
  });

  it('classifies the debugger fixtures as hand-written, after reading them', () => {
    for (const name of NOT_EXECUTABLE) {
      const c = findTraceCases(fixturePath(...ROOT)).find((x) => x.name === name);
      expect(c?.buildDir).toBe(null);
      if (c === undefined) continue;
      const { version, records } = parseTraceLines(readFileSync(c.traceFile, 'utf8'));
      expect(version).toBe(1);
      const first = records[0];
      expect(isObject(first) && isObject(first.OpenFrame) && isObject(first.OpenFrame.frame) && first.OpenFrame.frame.function_name).toBe('test');
      const names = records.flatMap((r) => (isObject(r) && isObject(r.Instruction) ? [String(r.Instruction.instruction)] : []));
      expect(names[0]).toBe('CALL');
      expect(names.slice(1).every((n) => n === 'UNKNOWN' || n === 'CALL')).toBe(true);
      const o = runTraceCase(c, FRAMEWORK);
      expect(o.status).toBe('not-executable');
      expect(o.detail).toMatch(/^debugger fixture: hand-written trace \(\d+ of \d+ instructions named UNKNOWN; module addresses written 0x1\), no bytecode$/);
    }
  });

  it('skips a trace calling into 0x2 when no framework is given for it', () => {
    expect(runTraceCase(suiCase('global_loc'), FRAMEWORK)).toMatchObject({ status: 'skip', detail: expect.stringMatching(/calls into 0x2/) });
  });
});

describeWithFixtures('the framework of the traces calling into 0x2', ['fixtures', 'framework-snapshots'], () => {
  it('is chosen from what each trace records, with no table of names: a trace under a name nobody listed runs the same', async () => {
    // The functions the trace enters in 0x2 name their indices: protocol 86 moved object::new.
    const { records } = parseTraceLines(readFileSync(suiCase('global_loc').traceFile, 'utf8'));
    expect(frameworkCalls(records)).toContainEqual({ module: `${'0x'}${'0'.repeat(63)}2::object`, function: 'new', index: 14 });
    const { agreeing, refused } = agreeingSnapshots(FIXTURES_ROOT, records);
    expect(agreeing.slice(0, 2)).toEqual([85, 84]);
    expect(refused.get(86)).toMatch(/object function 14 is .*, the trace's is new/);
    // A copy of the test under another name, in another folder.
    const copy = mkdtempSync(path.join(os.tmpdir(), 'smi-traces-'));
    cpSync(path.dirname(path.dirname(suiCase('global_loc').traceFile)), path.join(copy, 'renamed_global_test'), { recursive: true });
    const summary = await runTraceSuite(copy, FRAMEWORK, { fixturesRoot: FIXTURES_ROOT });
    expect(summary.outcomes.map((o) => [o.status, o.detail.match(/framework of protocol (\d+)/)?.[1]])).toEqual([['match', '85']]);
  });

  it('protocol 78 reproduces them too (the lower bound of the search)', async () => {
    const fw = await traceFramework(FIXTURES_ROOT, 78);
    for (const t of SUI_TESTS) expect(runTraceCase(suiCase(t), FRAMEWORK, fw).status).toBe('match');
  });

  it('protocol 86 does not: object gained functions before object::new', async () => {
    const fw = await traceFramework(FIXTURES_ROOT, 86);
    const o = runTraceCase(suiCase('global_loc'), FRAMEWORK, fw);
    expect(o.status).toBe('diverge');
    expect(o.detail).toMatch(/^record 89 of 391/);
  });

  it('protocol 77 is refused: its tx_context is not the published part of the test source', async () => {
    const err = await traceFramework(FIXTURES_ROOT, 77).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TraceFrameworkError);
    expect(err instanceof TraceFrameworkError && err.code).toBe('NOT_THE_PUBLISHED_MODULE');
  });

  it("the test build's tx_context has the test-only functions where the traces saw them", async () => {
    const fw = await traceFramework(FIXTURES_ROOT, 85);
    const m = fw.packages.find((p) => p.originalId.endsWith('2'))?.modules.find((x) => x.name === 'tx_context')?.module;
    const names = m?.functionDefs.map((d) => m.identifiers[m.functionHandles[d.function].name]);
    expect([names?.[14], names?.[16], names?.[24], names?.[25]]).toEqual(['new', 'dummy', 'native_sponsor', 'replace']);
    expect(names?.at(-1)).toBe('unit_test_poison');
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
  const functionHandles = [...m.functionHandles, { module: moduleHandles.length - 1, name: ids.length - 1, parameters: sigs.length - 3, return: sigs.length - 2, typeParameters: [0] }];
  const functionInstantiations = [...m.functionInstantiations, { handle: functionHandles.length - 1, typeParameters: sigs.length - 1 }];
  const code = (name: string, f: (c: Bytecode[]) => Bytecode[]) => (d: CompiledModule['functionDefs'][number]) =>
    m.identifiers[m.functionHandles[d.function].name] === name && d.code ? { ...d, code: { ...d.code, code: f(d.code.code) } } : d;
  const vecSig = m.signatures.findIndex((s) => s.length === 1 && s[0].$kind === 'U64');
  const functionDefs = m.functionDefs
    .map(code('foo', (c) => c.map((i) => (i.$kind === 'VecImmBorrow' ? { $kind: 'CallGeneric', index: functionInstantiations.length - 1 } : i))))
    .map(
      code('test', (c) => [
        ...elems.map((value): Bytecode => ({ $kind: 'LdU64', value })),
        ...c.map((i): Bytecode => (i.$kind === 'VecPack' ? { $kind: 'VecPack', index: vecSig, count: BigInt(elems.length) } : i)),
      ]),
    );
  return { ...m, identifiers: ids, signatures: sigs, moduleHandles, functionHandles, functionInstantiations, functionDefs };
}

function nativeBorrowTrace(elems: readonly bigint[]): string[] {
  const dir = fixturePath(...ROOT, 'abort_native_bytecode', 'build', 'abort_native_bytecode', 'bytecode_modules');
  const bytes = mvFiles(dir)[0];
  const own: MovePackage = { ...packageFromBytes([bytes]), modules: [{ name: 'm', bytes, module: withNativeBorrow(deserializeModule(bytes), elems) }] };
  // A test build links `std::unit_test` (its `unit_test_poison`): the stdlib as `sui move test` has it.
  const vm = MoveVM.create({ packages: [...withUnitTest([loadBundleFile(fixturePath('fixtures', 'framework', 'move-stdlib'))]), own] });
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
