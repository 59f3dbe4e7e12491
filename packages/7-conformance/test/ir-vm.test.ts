/**
 * The `ir-vm` suite (upstream `move-vm-transactional-tests` on our assembler, verifier and
 * VM), its pieces (argument values, value printing, error blocks), and small transactional
 * files written here for what the suite shows only in passing.
 */
import { describe, expect, it } from 'vitest';
import { loadBundleFile, shortAddress } from '@smi/bytecode';
import { runTransactionalTestFile } from '@smi/move-ir';
import { compareTaskOutput, formatVmErrorReport, IrVmAdapter, parseErrorBlock, parseRunValue, runIrVmSuite, runValueBcs, upstreamTestGasSchedule, type SuiteSummary } from '@smi/conformance';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

const SUITE = ['fixtures', 'ir-tests', 'move-vm-transactional-tests'];
const FRAMEWORK = ['fixtures', 'framework'];

/** Tasks that fail, with the reason (none). */
const KNOWN_FAILURES: Readonly<Record<string, string>> = {};

/** Tasks skipped without the verifier: upstream's verifier rejects their module, or they depend on one it rejects. */
const NEEDS_VERIFIER = [
  'tests/enums/basic_poly_enum_type_mismatch.mvir task 1',
  'tests/enums/mono/enum_decl_monomorphic_fail_unpack.mvir task 0',
  'tests/enums/mono/enum_decl_monomorphic_fail_unpack.mvir task 1',
  'tests/instructions/assign_struct_field.mvir task 1',
  'tests/native_functions/vector_resource_not_destroyed_at_return.mvir task 0',
  'tests/references/borrow_in_loop.mvir task 0',
  'tests/references/borrow_in_loop.mvir task 1',
  'tests/references/borrow_in_loop.mvir task 2',
];

function failures(s: SuiteSummary): Record<string, string> {
  return Object.fromEntries(s.failures.map((f) => [`${f.file} ${f.task}`, /\[(.*)\]$/.exec(f.got)?.[1] ?? f.got]));
}

describeWithFixtures('ir-vm: move-vm-transactional-tests', SUITE, () => {
  const dir = fixturePath(...SUITE);
  const frameworkDir = fixturePath(...FRAMEWORK);

  it('runs every task on the VM with the bytecode verifier: all 377 match the snapshots', async () => {
    const s = await runIrVmSuite(dir, { frameworkDir });
    console.log(`ir-vm: ${s.files} files, ${s.tasks} tasks, ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped\n${s.notes.join('\n')}`);
    expect({ files: s.files, tasks: s.tasks, passed: s.passed, failed: s.failed, skipped: s.skipped }).toEqual({
      files: 114,
      tasks: 377,
      passed: 377,
      failed: 0,
      skipped: 0,
    });
    expect(failures(s)).toEqual(KNOWN_FAILURES);
    expect(s.passed / s.tasks).toBeGreaterThanOrEqual(0.95);
    expect(s.notes).toContain('114 of 114 transcripts are byte-identical to the snapshots');
    expect(s.notes).toContain("0 passing tasks differ from the snapshot only in the error's message line");
    // Upstream's crate also runs 19 Move-source tests; only their snapshots are in the fixtures.
    expect(s.notes).toContain('19 snapshots of Move-source tests (no .mvir beside them) are not part of this suite');
  });

  it('without the verifier, skips the tasks that need it and passes the rest', async () => {
    const s = await runIrVmSuite(dir, { frameworkDir, verifier: null });
    expect({ passed: s.passed, failed: s.failed, skipped: s.skipped }).toEqual({ passed: 369, failed: 0, skipped: 8 });
    expect(s.skips.map((k) => `${k.file} ${k.task}`)).toEqual(NEEDS_VERIFIER);
    expect(failures(s)).toEqual(KNOWN_FAILURES);
  });

  it('--filter keeps the files whose path contains it', async () => {
    const s = await runIrVmSuite(dir, { frameworkDir, filter: 'entry_points/' });
    expect(s.files).toBe(10);
    expect(s.failed).toBe(0);
    expect(s.verdicts.every((v) => v.file.startsWith('tests/entry_points/'))).toBe(true);
  });
});

describe('ir-vm: argument values', () => {
  const lookup = (n: string): string | undefined => (n === 'std' ? `0x${'0'.repeat(63)}1` : undefined);
  const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

  it('reads numbers, suffixes, booleans, addresses, byte strings and vectors as upstream', () => {
    expect(parseRunValue('7', lookup)).toEqual({ $kind: 'U64', value: 7n });
    expect(parseRunValue('18446744073709551616', lookup)).toEqual({ $kind: 'U256', value: 18446744073709551616n });
    expect(parseRunValue('255u8', lookup)).toEqual({ $kind: 'U8', value: 255n });
    expect(parseRunValue('1_000u128', lookup)).toEqual({ $kind: 'U128', value: 1000n });
    expect(parseRunValue('false', lookup)).toEqual({ $kind: 'Bool', value: false });
    expect(parseRunValue('@std', lookup)).toEqual({ $kind: 'Address', value: `0x${'0'.repeat(63)}1` });
    expect(hex(runValueBcs(parseRunValue('b"hi"', lookup)))).toBe('026869');
    expect(hex(runValueBcs(parseRunValue('x"0a0b"', lookup)))).toBe('020a0b');
    expect(hex(runValueBcs(parseRunValue('vector[1u16, 2u16]', lookup)))).toBe('0201000200');
    expect(hex(runValueBcs(parseRunValue('@0x2', lookup)))).toBe(`${'0'.repeat(63)}2`);
    expect(() => parseRunValue('256u8', lookup)).toThrow(/does not fit/);
    expect(() => parseRunValue('@nope', lookup)).toThrow(/unknown named address/);
  });

  it('writes and reads back error blocks in format_vm_error wording', () => {
    const text = formatVmErrorReport({
      majorStatus: 'ABORTED',
      subStatus: 42n,
      location: shortAddress('0x0006') + '::M',
      offsets: [[1, 3]],
      message: 'a "quoted" message',
    });
    expect(text).toBe(
      '{\n    major_status: ABORTED,\n    sub_status: Some(42),\n    location: 0x6::M,\n    indices: [],\n' +
        '    offsets: [(FunctionDefinitionIndex(1), 3)],\n    message: "a \\"quoted\\" message",\n}',
    );
    expect(parseErrorBlock(`Error: x: ${text}`)).toMatchObject({ prefix: 'Error: x: ', majorStatus: 'ABORTED', subStatus: 'Some(42)', message: '"a \\"quoted\\" message"' });
    expect(shortAddress('0x0')).toBe('0x0');
    // Only the message differs: the task still passes.
    expect(compareTaskOutput(`Error: ${text}`, `Error: ${text.replace(/\n {4}message: .*,/, '')}`)).toEqual({ reason: '', messageOnly: true });
    expect(compareTaskOutput(`Error: ${text}`, `Error: ${text.replace('Some(42)', 'Some(7)')}`).reason).toBe('subStatus differs: expected Some(42), got Some(7)');
    expect(compareTaskOutput(undefined, 'return values: 1').reason).toBe('unexpected output (the snapshot has none)');
  });

  it('prices the upstream test gas schedule: calls per argument, VariantSwitch over a reference', () => {
    const g = upstreamTestGasSchedule();
    expect([g.callBase, g.callPerArg, g.nativeBase]).toEqual([1133, 1133, 0]);
  });
});

describeWithFixtures('ir-vm: transactional files written here', FRAMEWORK, () => {
  const stdlib = loadBundleFile(fixturePath(...FRAMEWORK, 'move-stdlib'));
  const run = (text: string): string => runTransactionalTestFile(text, (init) => new IrVmAdapter({ stdlib }, init)).transcript;

  it('prints return values and mutated inputs as upstream: structs, vectors, enums, signers, references', () => {
    const out = run(`//# init --addresses test=0x42

//# publish
mvir test::M {
    public struct S has drop, copy { a: u64, v: vector<u8> }
    public enum E has drop { A { x: bool }, B { } }
    public fun f(s: signer, r: &mut u64, x: u128): signer * Self::S * Self::E * vector<vector<u8>> * address * u128 {
    label b0:
        *copy(r) = 9;
        _ = move(r);
        return move(s), S { a: 1, v: h"7761" }, E::A { x: true }, vector<vector<u8>; 2>(h"01", h""), @0x7, move(x);
    }
    public fun g(v: &vector<u64>): &u64 {
    label b0:
        return vec_imm_borrow<u64>(move(v), 1);
    }
}

//# run test::M::f --signers 0x1 --args 5 340282366920938463463374607431768211455u128

//# run test::M::g --args vector[4,5]
`);
    expect(out).toBe(`processed 4 tasks

task 2, line 19:
//# run test::M::f --signers 0x1 --args 5 340282366920938463463374607431768211455u128
mutable inputs after call: local#1: 9
return values: { ${'0'.repeat(63)}1 }, { 1, [119, 97] }, |0|{ true }, [[1], []], ${'0'.repeat(63)}7, 340282366920938463463374607431768211455

task 3, line 21:
//# run test::M::g --args vector[4,5]
return values: (&) 5
`);
  });

  it('reports aborts, casts, missing packages and missing functions in the snapshot wording', () => {
    const out = run(`//# run
mvir 0x6::m {
entry fun foo() {
label b0:
    abort 77;
}
}

//# run
mvir 0x7::m {
entry fun foo(x: u64) {
label b0:
    _ = to_u8(move(x));
    return;
}
}
//# run 0x8::m::foo

//# run 0x7::m::nope

//# run 0x7::m::foo --args 300
`);
    const errors = out.split('\n').filter((l) => /major_status|location|message|offsets/.test(l));
    expect(errors).toEqual([
      '    major_status: ABORTED,',
      '    location: 0x6::m,',
      '    offsets: [(FunctionDefinitionIndex(0), 1)],',
      `    message: "0x${'0'.repeat(63)}6::m::foo at offset 1",`,
      // the bare `run` of a module whose entry function takes an argument
      '    major_status: NUMBER_OF_ARGUMENTS_MISMATCH,',
      '    location: undefined,',
      '    offsets: [],',
      '    message: "argument length mismatch: expected 1 got 0",',
      '    major_status: LINKER_ERROR,',
      '    location: 0x8,',
      '    offsets: [],',
      `    message: "Cannot find package ${'0'.repeat(63)}8 in data cache",`,
      '    major_status: EXTERNAL_RESOLUTION_REQUEST_ERROR,',
      '    location: 0x7::m,',
      '    offsets: [],',
      `    message: "Failed to find function ${'0'.repeat(63)}7::m::nope",`,
      '    major_status: ARITHMETIC_ERROR,',
      '    location: 0x7::m,',
      '    offsets: [(FunctionDefinitionIndex(0), 1)],',
      '    message: "Cannot cast u64(300) to u8",',
    ]);
    expect(out).toMatch(/task 1, lines 9-16:\n\/\/# run\nError: Function execution failed with VMError: \{\n {4}major_status: NUMBER_OF_ARGUMENTS_MISMATCH,/);
  });

  it('publishing replaces the package at an address; unknown natives fail publication', () => {
    const out = run(`//# publish
mvir 0x42::A {
    public fun one(): u64 { label b0: return 1; }
}

//# publish
mvir 0x42::B {
    public fun two(): u64 { label b0: return 2; }
}

//# run 0x42::A::one

//# publish
mvir 0x43::N {
    native public fun nope(): u64;
}
`);
    expect(out).toContain('major_status: EXTERNAL_RESOLUTION_REQUEST_ERROR');
    expect(out).toContain(
      "Error: Unable to publish module '0000000000000000000000000000000000000000000000000000000000000043::N'. Got VMError: {\n    major_status: MISSING_DEPENDENCY,\n    sub_status: None,\n    location: 0x43::N,\n    indices: [(FunctionHandle, 0)],",
    );
  });
});
