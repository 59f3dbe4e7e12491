/**
 * The `traces` conformance suite over `fixtures/vm-traces`, and two synthetic traces of
 * native calls (none of the fixtures calls a native that returns a reference or fails).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { deserializeModule, loadBundleFile, packageFromBytes, type Bytecode, type CompiledModule, type MovePackage } from '@smi/bytecode';
import { MoveVM, parseTraceJson, stringifyTraceJson, UpstreamTraceRecorder } from '@smi/move-vm';
import { canonicalTraceRecord as canonical, runTraceSuite } from '@smi/conformance';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

const ROOT = ['fixtures', 'vm-traces'];
const ONE = `${'0'.repeat(63)}1`;

/** Traces not run, with the reason. */
const NOT_RUN: Readonly<Record<string, string>> = {
  'abort_native:abort_native__m__test': 'calls into 0x2 (native 0x2::address::from_bytes)',
  'global_loc:global_loc__m__test': 'calls into 0x2 (tx_context, object, dynamic_field natives)',
  'global_write:global_write__m__test': 'calls into 0x2 (tx_context, object, dynamic_field natives)',
  'debug-info-mismatch/missing_code_map_source_file:missing_code_map_source_file__m__test': 'no bytecode shipped with the trace',
  'debug-info-mismatch/missing_inlined_source_map:missing_inlined_source_map__m__test': 'no bytecode shipped with the trace',
  'debug-info-mismatch/missing_source_function:missing_source_function__m__test': 'no bytecode shipped with the trace',
  'debug-info-mismatch/missing_source_module:missing_source_module__m__test': 'no bytecode shipped with the trace',
};

function mvFiles(dir: string): Uint8Array[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.mv'))
    .sort()
    .map((f) => new Uint8Array(readFileSync(path.join(dir, f))));
}

describeWithFixtures('upstream VM traces', ROOT, () => {
  it('records the upstream trace of every 0x1-only test', async () => {
    const summary = await runTraceSuite(fixturePath(...ROOT), fixturePath('fixtures', 'framework'));
    const lines = summary.outcomes.map((o) => `${o.status.padEnd(7)} ${o.name}: ${o.detail}`);
    // eslint-disable-next-line no-console
    console.log(`vm-traces:\n${lines.join('\n')}\n${summary.notes.join('\n')}`);
    expect(summary.skips.map((s) => `${s.file}:${s.task}`).sort()).toEqual(Object.keys(NOT_RUN).sort());
    expect(summary.failures).toEqual([]);
    expect(summary.passed).toBe(24);
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
