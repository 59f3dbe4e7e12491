/**
 * Disassembler tests on real bytecode.
 *
 * The exact expectations below are upstream output: `sui move disassemble` text of
 * framework modules without source maps, as checked in upstream at
 * `external-crates/move/crates/move-analyzer/trace-adapter/tests/ext1/2GfjA/0x0000{1,2}/bytecode/*.mvb`.
 * Those modules are the framework bytecode of the protocol versions named in each test
 * (in `fixtures/framework-snapshots/`), and our output matched all 37 of those files byte
 * for byte when this test was written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import type { CompiledModule } from '../src/file-format.js';
import { emptyModule } from '../src/file-format.js';
import { deserializeModule } from '../src/deserializer.js';
import { DisassemblerError, disassembleFunction, disassembleModule, formatConstantValue } from '../src/disassembler.js';
import { moduleName } from '../src/module-access.js';
import { PRIMITIVE_TOKEN } from '../src/opcodes.js';

const FW1 = '0x0000000000000000000000000000000000000000000000000000000000000001';
const FW2 = '0x0000000000000000000000000000000000000000000000000000000000000002';

function uleb(bytes: Uint8Array, pos: { at: number }): number {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const b = bytes[pos.at++];
    value += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return value;
  }
}

/** Modules of a framework snapshot file: 32-byte id, then BCS `vector<vector<u8>>`. */
function snapshotModules(protocol: number, address: string): Map<string, CompiledModule> {
  const bytes = new Uint8Array(readFileSync(fixturePath('fixtures', 'framework-snapshots', String(protocol), address)));
  const pos = { at: 32 };
  const out = new Map<string, CompiledModule>();
  for (let n = uleb(bytes, pos); n > 0; n--) {
    const len = uleb(bytes, pos);
    const m = deserializeModule(bytes.subarray(pos.at, pos.at + len));
    out.set(moduleName(m), m);
    pos.at += len;
  }
  return out;
}

function snapshotModule(protocol: number, address: string, name: string): CompiledModule {
  const m = snapshotModules(protocol, address).get(name);
  if (m === undefined) throw new Error(`no module ${name} at protocol ${protocol}`);
  return m;
}

/** Every `.mv` of the corpus packages. */
function corpusModules(): { path: string; bytes: Uint8Array }[] {
  const root = fixturePath('corpus');
  const out: { path: string; bytes: Uint8Array }[] = [];
  for (const pkg of readdirSync(root)
    .filter((d) => d.startsWith('0x'))
    .sort()) {
    const dir = `${root}/${pkg}/bytecode_modules`;
    for (const f of readdirSync(dir)
      .filter((x) => x.endsWith('.mv'))
      .sort()) {
      out.push({ path: `${pkg}/${f}`, bytes: new Uint8Array(readFileSync(`${dir}/${f}`)) });
    }
  }
  return out;
}

const lines = (...l: string[]) => l.join('\n') + '\n';

describeWithFixtures('disassembler: upstream output of framework modules', ['fixtures', 'framework-snapshots', '10'], () => {
  it('0x2::url (protocol 10): whole module', () => {
    expect(disassembleModule(snapshotModule(10, FW2, 'url'))).toBe(
      lines(
        '// Move bytecode v6',
        'module 2.url {',
        'use 0000000000000000000000000000000000000000000000000000000000000001::ascii;',
        '',
        'struct Url has copy, drop, store {',
        '\turl: String',
        '}',
        '',
        'public new_unsafe(Arg0: String): Url {',
        'B0:',
        '\t0: MoveLoc[0](Arg0: String)',
        '\t1: Pack[0](Url)',
        '\t2: Ret',
        '}',
        '',
        'public new_unsafe_from_bytes(Arg0: vector<u8>): Url {',
        'B0:',
        '\t0: MoveLoc[0](Arg0: vector<u8>)',
        '\t1: Call ascii::string(vector<u8>): String',
        '\t2: Pack[0](Url)',
        '\t3: Ret',
        '}',
        '',
        'public inner_url(Arg0: &Url): String {',
        'B0:',
        '\t0: MoveLoc[0](Arg0: &Url)',
        '\t1: ImmBorrowField[0](Url.url: String)',
        '\t2: ReadRef',
        '\t3: Ret',
        '}',
        '',
        'public update(Arg0: &mut Url, Arg1: String) {',
        'B0:',
        '\t0: MoveLoc[1](Arg1: String)',
        '\t1: MoveLoc[0](Arg0: &mut Url)',
        '\t2: MutBorrowField[0](Url.url: String)',
        '\t3: WriteRef',
        '\t4: Ret',
        '}',
        '',
        '}',
      ),
    );
  });

  it('0x1::debug and 0x2::types (protocol 10): natives, constrained type parameters', () => {
    expect(disassembleModule(snapshotModule(10, FW1, 'debug'))).toBe(
      lines('// Move bytecode v6', 'module 1.debug {', '', 'native public print<Ty0>(Arg0: &Ty0);', '', 'native public print_stack_trace();', '', '}'),
    );
    expect(disassembleFunction(snapshotModule(10, FW2, 'types'), 'is_one_time_witness')).toBe('native public is_one_time_witness<Ty0: drop>(Arg0: &Ty0): bool;\n');
  });

  it('0x1::vector (protocol 70): loops, vector instructions, multiple returns', () => {
    const m = snapshotModule(70, FW1, 'vector');
    expect(disassembleFunction(m, 'singleton')).toBe(
      lines(
        'public singleton<Ty0>(Arg0: Ty0): vector<Ty0> {',
        'L1:\tloc0: vector<Ty0>',
        'B0:',
        '\t0: VecPack(10, 0)',
        '\t1: StLoc[1](loc0: vector<Ty0>)',
        '\t2: MutBorrowLoc[1](loc0: vector<Ty0>)',
        '\t3: MoveLoc[0](Arg0: Ty0)',
        '\t4: VecPushBack(10)',
        '\t5: MoveLoc[1](loc0: vector<Ty0>)',
        '\t6: Ret',
        '}',
      ),
    );
    const reverse = disassembleFunction(m, 'reverse');
    expect(reverse.split('\n').slice(0, 13)).toEqual([
      'public reverse<Ty0>(Arg0: &mut vector<Ty0>) {',
      'L1:\tloc0: u64',
      'L2:\tloc1: u64',
      'L3:\tloc2: u64',
      'B0:',
      '\t0: CopyLoc[0](Arg0: &mut vector<Ty0>)',
      '\t1: FreezeRef',
      '\t2: VecLen(10)',
      '\t3: StLoc[3](loc2: u64)',
      '\t4: CopyLoc[3](loc2: u64)',
      '\t5: LdU64(0)',
      '\t6: Eq',
      '\t7: BrFalse(11)',
    ]);
    expect(reverse).toContain('B3:\n\t17: CopyLoc[2](loc1: u64)\n');
    expect(reverse).toContain('\t24: VecSwap(10)\n');
    expect(reverse).toContain('\t33: Branch(17)\nB5:\n\t34: MoveLoc[0](Arg0: &mut vector<Ty0>)\n');
    expect(disassembleFunction(m, 'index_of').split('\n')[0]).toBe('public index_of<Ty0>(Arg0: &vector<Ty0>, Arg1: &Ty0): bool * u64 {');
    expect(disassembleFunction(m, 'length')).toBe('native public length<Ty0>(Arg0: &vector<Ty0>): u64;\n');
  });

  it('0x1::ascii (protocol 100): constants, inline previews', () => {
    const m = snapshotModule(100, FW1, 'ascii');
    const text = disassembleModule(m);
    expect(text.endsWith(lines('Constants [', '\t0 => u64: 65536', '\t1 => u64: 65537', '\t2 => vector<u8>: "" // interpreted as UTF8 string', ']', '}'))).toBe(true);
    const substring = disassembleFunction(m, 'substring');
    expect(substring).toContain('\t6: Call length(&String): u64\n');
    expect(substring).toContain('\t17: LdConst[1](u64: 65537)\n\t18: Abort\nB6:\n\t19: LdConst[2](vector<u8>: "" /..)\n');
  });

  it('0x2::coin (protocol 52) and 0x2::config (protocol 100): generics, calls, friends', () => {
    const coin = snapshotModule(52, FW2, 'coin');
    expect(disassembleFunction(coin, 'value')).toBe(
      lines(
        'public value<Ty0>(Arg0: &Coin<Ty0>): u64 {',
        'B0:',
        '\t0: MoveLoc[0](Arg0: &Coin<Ty0>)',
        '\t1: ImmBorrowFieldGeneric[1](Coin.balance: Balance<Ty0>)',
        '\t2: Call balance::value<Ty0>(&Balance<Ty0>): u64',
        '\t3: Ret',
        '}',
      ),
    );
    expect(disassembleFunction(coin, 'join')).toBe(
      lines(
        'entry public join<Ty0>(Arg0: &mut Coin<Ty0>, Arg1: Coin<Ty0>) {',
        'L2:\tloc0: Balance<Ty0>',
        'B0:',
        '\t0: MoveLoc[1](Arg1: Coin<Ty0>)',
        '\t1: UnpackGeneric[1](Coin<Ty0>)',
        '\t2: StLoc[2](loc0: Balance<Ty0>)',
        '\t3: Call object::delete(UID)',
        '\t4: MoveLoc[0](Arg0: &mut Coin<Ty0>)',
        '\t5: MutBorrowFieldGeneric[1](Coin.balance: Balance<Ty0>)',
        '\t6: MoveLoc[2](loc0: Balance<Ty0>)',
        '\t7: Call balance::join<Ty0>(&mut Balance<Ty0>, Balance<Ty0>): u64',
        '\t8: Pop',
        '\t9: Ret',
        '}',
      ),
    );
    expect(disassembleModule(coin)).toContain(lines('struct Coin<phantom Ty0> has store, key {', '\tid: UID,', '\tbalance: Balance<Ty0>', '}'));
    const config = snapshotModule(100, FW2, 'config');
    expect(disassembleFunction(config, 'add_for_next_epoch').split('\n')[0]).toBe(
      'public(friend) add_for_next_epoch<Ty0, Ty1: copy + drop + store, Ty2: copy + drop + store>' +
        '(Arg0: &mut Config<Ty0>, Arg1: &mut Ty0, Arg2: Ty1, Arg3: Ty2, Arg4: &mut TxContext): Option<Ty2> {',
    );
  });
});

describeWithFixtures('disassembler: every corpus module', ['corpus'], () => {
  it('disassembles every module and renders every function', () => {
    const modules = corpusModules();
    expect(modules.length).toBeGreaterThan(200);
    let functions = 0;
    let instructions = 0;
    for (const { path, bytes } of modules) {
      const m = deserializeModule(bytes);
      const text = disassembleModule(m);
      expect(text.startsWith(`// Move bytecode v${m.version}\nmodule `), path).toBe(true);
      expect(text.endsWith('\n}\n'), path).toBe(true);
      expect(text, path).not.toContain('ERROR[');
      for (const def of m.functionDefs) {
        const name = m.identifiers[m.functionHandles[def.function].name];
        const fn = disassembleFunction(m, name);
        // The function's text is the same inside the module text, followed by a blank line.
        expect(text.includes(fn + '\n'), `${path}::${name}`).toBe(true);
        const code = def.code?.code ?? [];
        expect(fn.match(/^\t\d+: /gm)?.length ?? 0, `${path}::${name}`).toBe(code.length);
        functions++;
        instructions += code.length;
      }
    }
    expect(functions).toBeGreaterThan(3000);
    expect(instructions).toBeGreaterThan(50_000);
  });

  it('aliases imported modules that share a name (0x2::bcs uses 0x1::bcs)', () => {
    const bytes = readFileSync(fixturePath('corpus', FW2, 'bytecode_modules', 'bcs.mv'));
    const text = disassembleModule(deserializeModule(new Uint8Array(bytes)));
    expect(text).toContain('use 0000000000000000000000000000000000000000000000000000000000000001::bcs as 1bcs;\n');
    expect(text).toMatch(/Call 1bcs::to_bytes<Ty0>\(&Ty0\): vector<u8>/);
  });

  it('renders enums, variant instructions and jump tables (0x2::coin_registry)', () => {
    const bytes = readFileSync(fixturePath('corpus', FW2, 'bytecode_modules', 'coin_registry.mv'));
    const text = disassembleModule(deserializeModule(new Uint8Array(bytes)));
    expect(text).toContain('enum MetadataCapState has copy, drop, store {\n\tClaimed { pos0: ID },\n\tUnclaimed {  },\n\tDeleted {  }\n}\n');
    expect(text).toMatch(/\t\d+: VariantSwitch\(VariantJumpTableIndex\(0\)\)\n/);
    expect(text).toMatch(/\nJump tables:\n\[0\]:\tvariant_switch \w+ \{\n\t\tVariant0 => jump \d+\n/);
    expect(text).toMatch(/UnpackVariant(Generic)?(ImmRef|MutRef)?\(Variant(Instantiation)?HandleIndex\(\d+\)\)/);
  });
});

describe('disassembler: options and errors', () => {
  // fun f(x: u64): u64 { if (x) ... } by hand: one private and one public function.
  function tiny(): CompiledModule {
    const m = emptyModule(7);
    m.identifiers.push('m', 'priv', 'pub');
    m.addressIdentifiers.push('0x' + '0'.repeat(62) + 'a1');
    m.moduleHandles.push({ address: 0, name: 0 });
    m.signatures.push([], [PRIMITIVE_TOKEN.U64]);
    m.functionHandles.push({ module: 0, name: 1, parameters: 1, return: 1, typeParameters: [] }, { module: 0, name: 2, parameters: 0, return: 1, typeParameters: [] });
    m.constantPool.push({ type: PRIMITIVE_TOKEN.U64, data: new Uint8Array([42, 0, 0, 0, 0, 0, 0, 0]) });
    m.functionDefs.push(
      {
        function: 0,
        visibility: 'Private',
        isEntry: false,
        acquiresGlobalResources: [],
        code: { locals: 1, code: [{ $kind: 'MoveLoc', index: 0 }, { $kind: 'StLoc', index: 1 }, { $kind: 'CopyLoc', index: 1 }, { $kind: 'Ret' }], jumpTables: [] },
      },
      {
        function: 1,
        visibility: 'Public',
        isEntry: true,
        acquiresGlobalResources: [],
        code: { locals: 0, code: [{ $kind: 'LdConst', index: 0 }, { $kind: 'Call', index: 0 }, { $kind: 'Ret' }], jumpTables: [] },
      },
    );
    return m;
  }

  it('prints the default format', () => {
    expect(disassembleModule(tiny())).toBe(
      lines(
        '// Move bytecode v7',
        'module a1.m {',
        '',
        'priv(Arg0: u64): u64 {',
        'L1:\tloc0: u64',
        'B0:',
        '\t0: MoveLoc[0](Arg0: u64)',
        '\t1: StLoc[1](loc0: u64)',
        '\t2: CopyLoc[1](loc0: u64)',
        '\t3: Ret',
        '}',
        '',
        'entry public pub(): u64 {',
        'B0:',
        '\t0: LdConst[0](u64: 42)',
        '\t1: Call priv(u64): u64',
        '\t2: Ret',
        '}',
        '',
        'Constants [',
        '\t0 => u64: 42',
        ']',
        '}',
      ),
    );
  });

  it('onlyPublic, printCode, printLocals, printBasicBlocks, sourceNames', () => {
    const m = tiny();
    // Like upstream, a skipped function still leaves its blank separator line.
    expect(disassembleModule(m, { onlyPublic: true })).toContain('module a1.m {\n\n\nentry public pub(): u64 {\n');
    expect(disassembleFunction(m, 'priv', { printCode: false })).toBe('priv(Arg0: u64): u64 {\nL1:\tloc0: u64\n}\n');
    expect(disassembleFunction(m, 'priv', { printLocals: false, printBasicBlocks: false })).toBe(
      lines('priv(Arg0: u64): u64 {', '\t0: MoveLoc[0](Arg0: u64)', '\t1: StLoc[1](loc0: u64)', '\t2: CopyLoc[1](loc0: u64)', '\t3: Ret', '}'),
    );
    const named = disassembleFunction(m, 'priv', { sourceNames: { functions: { 0: { parameters: ['x'], locals: ['y'] } } } });
    expect(named).toContain('priv(x: u64): u64 {\nL1:\ty: u64\n');
    expect(named).toContain('\t1: StLoc[1](y: u64)\n');
  });

  it('renders immediates, casts and deprecated instructions like upstream Debug', () => {
    const m = tiny();
    m.functionDefs[1].code = {
      locals: 0,
      jumpTables: [],
      code: [
        { $kind: 'LdU8', value: 7 },
        { $kind: 'LdU16', value: 65535 },
        { $kind: 'LdU32', value: 4294967295 },
        { $kind: 'LdU128', value: 2n ** 128n - 1n },
        { $kind: 'LdU256', value: 2n ** 256n - 1n },
        { $kind: 'CastU256' },
        { $kind: 'VecPack', index: 1, count: 18446744073709551615n },
        { $kind: 'ExistsDeprecated', index: 3 },
        { $kind: 'MoveToGenericDeprecated', index: 4 },
        { $kind: 'Nop' },
        { $kind: 'Abort' },
      ],
    };
    expect(disassembleFunction(m, 'pub')).toBe(
      lines(
        'entry public pub(): u64 {',
        'B0:',
        '\t0: LdU8(7)',
        '\t1: LdU16(65535)',
        '\t2: LdU32(4294967295)',
        '\t3: LdU128(340282366920938463463374607431768211455)',
        '\t4: LdU256(115792089237316195423570985008687907853269984665640564039457584007913129639935)',
        '\t5: CastU256',
        '\t6: VecPack(1, 18446744073709551615)',
        '\t7: DEPRECATED BYTECODE: Exists(StructDefinitionIndex(3))',
        '\t8: DEPRECATED BYTECODE: MoveToGeneric(StructDefInstantiationIndex(4))',
        '\t9: Nop',
        '\t10: Abort',
        '}',
      ),
    );
  });

  it('throws FUNCTION_NOT_FOUND for an unknown function', () => {
    expect(() => disassembleFunction(tiny(), 'nope')).toThrow(DisassemblerError);
    try {
      disassembleFunction(tiny(), 'nope');
    } catch (e) {
      expect((e as DisassemblerError).code).toBe('FUNCTION_NOT_FOUND');
    }
  });

  it('formats constant values like upstream try_render_constant', () => {
    const u8v = (...b: number[]) => ({ type: { $kind: 'Vector', type: PRIMITIVE_TOKEN.U8 } as const, data: new Uint8Array(b) });
    expect(formatConstantValue(u8v(2, 0x68, 0x69))).toBe('"hi" // interpreted as UTF8 string');
    expect(formatConstantValue(u8v(2, 0xff, 0xfe))).toBe('02fffe'); // not UTF-8
    expect(formatConstantValue(u8v(3, 0x68, 0x69))).toBe('036869'); // bad length
    expect(formatConstantValue(u8v(0x80, 0x00))).toBe('8000'); // non-canonical ULEB128
    expect(formatConstantValue({ type: PRIMITIVE_TOKEN.Bool, data: new Uint8Array([2]) })).toBe('02');
    expect(formatConstantValue({ type: PRIMITIVE_TOKEN.U128, data: new Uint8Array(16).fill(0xff) })).toBe('340282366920938463463374607431768211455');
    expect(formatConstantValue({ type: PRIMITIVE_TOKEN.U16, data: new Uint8Array([1, 2, 3]) })).toBe('010203');
  });
});
