/**
 * The disassembler against upstream `print-bytecode` expectations of the Move IR test
 * suites (`fixtures/ir-tests/**.snap`). We cannot assemble the `.mvir` sources yet, so the
 * modules are built here by hand, table by table, as the IR compiler would emit them, and
 * the source names the IR compiler's source map would give are passed as `sourceNames`.
 * Each test compares our text with a whole `print-bytecode` task output read from the snap.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import type { AbilitySet, Bytecode, CompiledModule, FieldDefinition, IndexedBytecodeKind, SignatureToken, SimpleBytecodeKind, Visibility } from '../src/file-format.js';
import { Ability, emptyModule } from '../src/file-format.js';
import { PRIMITIVE_TOKEN, SIMPLE_INSTRUCTION } from '../src/opcodes.js';
import { disassembleModule, type DatatypeSourceNames, type FunctionSourceNames } from '../src/disassembler.js';

const { U8, U64, U128, U256, Bool, Address } = PRIMITIVE_TOKEN;
const vec = (type: SignatureToken): SignatureToken => ({ $kind: 'Vector', type });
const ref = (type: SignatureToken): SignatureToken => ({ $kind: 'Reference', type });
const mut = (type: SignatureToken): SignatureToken => ({ $kind: 'MutableReference', type });
const dt = (index: number): SignatureToken => ({ $kind: 'Datatype', index });
const inst = (index: number, ...typeArguments: SignatureToken[]): SignatureToken => ({
  $kind: 'DatatypeInstantiation',
  index,
  typeArguments,
});
const tp = (index: number): SignatureToken => ({ $kind: 'TypeParameter', index });

/** Instruction shorthands: `s('Ret')`, `o('MoveLoc', 0)`, `u64(3)`. */
const s = (k: SimpleBytecodeKind): Bytecode => SIMPLE_INSTRUCTION[k];
const o = (k: IndexedBytecodeKind, index: number): Bytecode => ({ $kind: k, index });
const u64 = (v: number): Bytecode => ({ $kind: 'LdU64', value: BigInt(v) });

interface FunctionSpec {
  name: string;
  visibility?: Visibility;
  entry?: boolean;
  typeParameters?: AbilitySet[];
  params?: [string, SignatureToken][];
  returns?: SignatureToken[];
  locals?: [string, SignatureToken][];
  typeParameterNames?: string[];
  code: Bytecode[];
  jumpTables?: { headEnum: number; offsets: number[] }[];
}

/** A minimal hand assembler: interns identifiers, addresses and signatures. */
class Builder {
  readonly m: CompiledModule = emptyModule(7);
  readonly names: {
    functions: Record<number, FunctionSourceNames>;
    structs: Record<number, DatatypeSourceNames>;
    enums: Record<number, DatatypeSourceNames>;
  } = { functions: {}, structs: {}, enums: {} };

  constructor(address: string, name: string) {
    this.module(address, name);
  }

  ident(name: string): number {
    const i = this.m.identifiers.indexOf(name);
    return i >= 0 ? i : this.m.identifiers.push(name) - 1;
  }

  module(address: string, name: string): number {
    const full = '0x' + address.padStart(64, '0');
    let a = this.m.addressIdentifiers.indexOf(full);
    if (a < 0) a = this.m.addressIdentifiers.push(full) - 1;
    return this.m.moduleHandles.push({ address: a, name: this.ident(name) }) - 1;
  }

  sig(tokens: SignatureToken[]): number {
    const key = JSON.stringify(tokens);
    const i = this.m.signatures.findIndex((x) => JSON.stringify(x) === key);
    return i >= 0 ? i : this.m.signatures.push(tokens) - 1;
  }

  private fields(fields: [string, SignatureToken][]): FieldDefinition[] {
    return fields.map(([name, type]) => ({ name: this.ident(name), type }));
  }

  private datatype(name: string, abilities: AbilitySet, typeParameters: [string, AbilitySet][]): number {
    return (
      this.m.datatypeHandles.push({
        module: 0,
        name: this.ident(name),
        abilities,
        typeParameters: typeParameters.map(([, constraints]) => ({ constraints, isPhantom: false })),
      }) - 1
    );
  }

  /** Declares a struct; returns its datatype handle (= definition index here). */
  struct(name: string, fields: [string, SignatureToken][], typeParameters: [string, AbilitySet][] = [], abilities = 0): number {
    const handle = this.datatype(name, abilities, typeParameters);
    const def = this.m.structDefs.push({ structHandle: handle, fieldInformation: { $kind: 'Declared', fields: this.fields(fields) } }) - 1;
    this.names.structs[def] = { typeParameters: typeParameters.map(([n]) => n) };
    this.m.fieldHandles.push(...fields.map((_, field) => ({ owner: def, field })));
    return handle;
  }

  /** Declares an enum and a variant handle per variant; returns its datatype handle. */
  enum(name: string, variants: [string, [string, SignatureToken][]][], typeParameters: [string, AbilitySet][] = [], abilities = 0): number {
    const handle = this.datatype(name, abilities, typeParameters);
    const def =
      this.m.enumDefs.push({
        enumHandle: handle,
        variants: variants.map(([v, fields]) => ({ variantName: this.ident(v), fields: this.fields(fields) })),
      }) - 1;
    this.names.enums[def] = { typeParameters: typeParameters.map(([n]) => n), variants: variants.map(([v]) => v) };
    if (typeParameters.length === 0) this.m.variantHandles.push(...variants.map((_, variant) => ({ enumDef: def, variant })));
    return handle;
  }

  functionHandle(module: number, name: string, params: SignatureToken[], returns: SignatureToken[], typeParameters: AbilitySet[] = []): number {
    return (
      this.m.functionHandles.push({
        module,
        name: this.ident(name),
        parameters: this.sig(params),
        return: this.sig(returns),
        typeParameters,
      }) - 1
    );
  }

  fn(f: FunctionSpec): number {
    const params = f.params ?? [];
    const handle = this.functionHandle(
      0,
      f.name,
      params.map(([, t]) => t),
      f.returns ?? [],
      f.typeParameters ?? [],
    );
    const locals = f.locals ?? [];
    const def =
      this.m.functionDefs.push({
        function: handle,
        visibility: f.visibility ?? 'Private',
        isEntry: f.entry ?? false,
        acquiresGlobalResources: [],
        code: {
          locals: this.sig(locals.map(([, t]) => t)),
          code: f.code,
          jumpTables: (f.jumpTables ?? []).map((jt) => ({ headEnum: jt.headEnum, jumpTable: { $kind: 'Full', offsets: jt.offsets } })),
        },
      }) - 1;
    const names: FunctionSourceNames = {
      typeParameters: f.typeParameterNames,
      parameters: params.map(([n]) => n),
      locals: locals.map(([n]) => n),
    };
    this.names.functions[def] = names;
    return handle;
  }

  constant(type: SignatureToken, data: number[]): void {
    this.m.constantPool.push({ type, data: new Uint8Array(data) });
  }

  text(): string {
    return disassembleModule(this.m, { sourceNames: this.names });
  }
}

/** Output of task `n` of a snap file (the text after its `//# print-bytecode` line). */
function snapTask(file: string, n: number): string {
  const text = readFileSync(fixturePath('fixtures', 'ir-tests', file), 'utf8');
  const start = text.indexOf(`\ntask ${n}, `);
  if (start < 0) throw new Error(`no task ${n} in ${file}`);
  const end = text.indexOf('\ntask ', start + 1);
  const block = text.slice(start, end < 0 ? undefined : end);
  return block.slice(block.indexOf('\n', block.indexOf('//# print-bytecode')) + 1).replace(/\n+$/, '\n');
}

const IR = 'move-ir-compiler-transactional-tests/tests';
const LE = (v: bigint, width: number) => Array.from({ length: width }, (_, i) => Number((v >> BigInt(8 * i)) & 0xffn));

describeWithFixtures('disassembler vs IR print-bytecode snaps', ['fixtures', 'ir-tests'], () => {
  it('declarations/function.snap: structs, field borrows, calls, unpack', () => {
    const b = new Builder('3d10', 'Example');
    const coin = b.struct('Coin', [['value', U64]]);
    b.fn({
      name: 'value',
      visibility: 'Public',
      params: [['this', ref(dt(coin))]],
      returns: [U64],
      locals: [['value_ref', ref(U64)]],
      code: [o('MoveLoc', 0), o('ImmBorrowField', 0), o('StLoc', 1), o('MoveLoc', 1), s('ReadRef'), s('Ret')],
    });
    b.fn({
      name: 'deposit',
      visibility: 'Public',
      params: [
        ['this', mut(dt(coin))],
        ['check', dt(coin)],
      ],
      locals: [
        ['value_ref', mut(U64)],
        ['value', U64],
        ['check_ref', ref(dt(coin))],
        ['check_value', U64],
        ['new_value', U64],
        ['i', U64],
      ],
      code: [
        o('MoveLoc', 0),
        o('MutBorrowField', 0),
        o('StLoc', 2),
        o('CopyLoc', 2),
        s('ReadRef'),
        o('StLoc', 3),
        o('ImmBorrowLoc', 1),
        o('StLoc', 4),
        o('MoveLoc', 4),
        o('Call', 0),
        o('StLoc', 5),
        o('CopyLoc', 3),
        o('CopyLoc', 5),
        s('Add'),
        o('StLoc', 6),
        o('MoveLoc', 6),
        o('MoveLoc', 2),
        s('WriteRef'),
        o('MoveLoc', 1),
        o('Unpack', 0),
        o('StLoc', 7),
        s('Ret'),
      ],
    });
    expect(b.text()).toBe(snapTask(`${IR}/bytecode-generation/declarations/function.snap`, 0));

    const e = new Builder('4d10', 'M');
    const f = e.fn({ name: 'f', visibility: 'Public', entry: true, code: [s('Ret')] });
    e.fn({ name: 'g', visibility: 'Public', entry: true, code: [o('Call', f), s('Ret')] });
    expect(e.text()).toBe(snapTask(`${IR}/bytecode-generation/declarations/function.snap`, 1));
  });

  it('expressions/borrow.snap: generic field borrows', () => {
    const b = new Builder('2d4', 'M');
    const t = b.struct('T', [['u', tp(0)]], [['U', 0]]);
    b.m.fieldInstantiations.push({ handle: 0, typeParameters: b.sig([U64]) }, { handle: 0, typeParameters: b.sig([U128]) });
    const body = (fi: number) => [o('MoveLoc', 0), o('ImmBorrowFieldGeneric', fi), o('StLoc', 1), o('MoveLoc', 1), s('Pop'), s('Ret')];
    b.fn({ name: 'f', params: [['t', ref(inst(t, U64))]], locals: [['r', ref(U64)]], code: body(0) });
    b.fn({ name: 'g', params: [['t', mut(inst(t, U128))]], locals: [['r', ref(U128)]], code: body(1) });
    expect(b.text()).toBe(snapTask(`${IR}/bytecode-generation/expressions/borrow.snap`, 3));
  });

  it('expressions/builtins/vector.snap: vector instructions', () => {
    const b = new Builder('6', 'm');
    b.sig([]);
    b.sig([U64]); // VecPack(1, ...) names signature 1
    const v = (k: IndexedBytecodeKind) => o(k, 1);
    b.fn({
      name: 'foo',
      entry: true,
      locals: [
        ['v', vec(U64)],
        ['v_imm', ref(vec(U64))],
        ['v_mut', mut(vec(U64))],
        ['v_len', U64],
        ['e_imm', ref(U64)],
        ['e_mut', mut(U64)],
      ],
      code: [
        { $kind: 'VecPack', index: 1, count: 0n },
        o('StLoc', 0),
        o('ImmBorrowLoc', 0),
        o('StLoc', 1),
        o('CopyLoc', 1),
        v('VecLen'),
        o('StLoc', 3),
        o('MoveLoc', 1),
        s('Pop'),
        o('MutBorrowLoc', 0),
        o('StLoc', 2),
        o('CopyLoc', 2),
        u64(0),
        v('VecPushBack'),
        o('CopyLoc', 2),
        u64(1),
        v('VecPushBack'),
        o('CopyLoc', 2),
        u64(0),
        v('VecImmBorrow'),
        o('StLoc', 4),
        o('MoveLoc', 4),
        s('Pop'),
        o('CopyLoc', 2),
        u64(1),
        v('VecMutBorrow'),
        o('StLoc', 5),
        o('MoveLoc', 5),
        s('Pop'),
        o('CopyLoc', 2),
        u64(0),
        u64(1),
        v('VecSwap'),
        o('CopyLoc', 2),
        v('VecPopBack'),
        s('Pop'),
        o('CopyLoc', 2),
        v('VecPopBack'),
        s('Pop'),
        o('MoveLoc', 2),
        s('Pop'),
        o('MoveLoc', 0),
        { $kind: 'VecUnpack', index: 1, count: 0n },
        s('Ret'),
      ],
    });
    expect(b.text()).toBe(snapTask(`${IR}/bytecode-generation/expressions/builtins/vector.snap`, 0));
  });

  it('statements/jump_if.snap and jump_if_false.snap: basic blocks', () => {
    const x: [string, SignatureToken][] = [['x', U64]];
    const st0 = o('StLoc', 0);
    const cases: [string, number, string, Bytecode[], boolean][] = [
      ['jump_if', 0, '6', [u64(42), u64(0), s('Gt'), o('BrTrue', 5), o('Branch', 8), u64(1), st0, o('Branch', 11), u64(2), st0, o('Branch', 11), s('Ret')], true],
      ['jump_if', 3, '9', [u64(0), u64(1), s('Neq'), o('BrTrue', 7), u64(1), st0, o('Branch', 10), u64(2), st0, s('Ret'), s('Ret')], true],
      ['jump_if_false', 1, '7', [u64(0), st0, s('LdTrue'), o('BrFalse', 6), s('Ret'), o('Branch', 2), s('Ret')], true],
      ['jump_if_false', 3, '9', [o('Branch', 2), o('Branch', 0), o('Branch', 4), o('Branch', 0), s('Ret')], false],
    ];
    for (const [file, task, address, code, hasX] of cases) {
      const b = new Builder(address, 'm');
      b.fn({ name: 'foo', entry: true, locals: hasX ? x : [], code });
      expect(b.text(), `${file} task ${task}`).toBe(snapTask(`${IR}/bytecode-generation/statements/${file}.snap`, task));
    }
  });

  it('parsing/constants.snap: every constant rendering', () => {
    const b = new Builder('42', 'M');
    b.fn({ name: 'load', visibility: 'Public', returns: [U64], code: [o('LdConst', 1), s('Ret')] });
    b.constant(Bool, [1]);
    b.constant(U64, LE(42n, 8));
    b.constant(U8, [7]);
    b.constant(U256, LE(123n, 32));
    b.constant(Address, LE(0x42n, 32).reverse());
    b.constant(vec(U8), [4, 0xde, 0xad, 0xbe, 0xef]);
    b.constant(vec(U64), [3, ...LE(1n, 8), ...LE(2n, 8), ...LE(3n, 8)]);
    b.constant(vec(U8), [0]);
    b.constant(vec(vec(U8)), [2, 1, 1, 1, 2]);
    expect(b.text()).toBe(snapTask(`${IR}/parsing/constants.snap`, 0));
  });

  it('parsing/named_addresses.snap: imports, external calls, address previews', () => {
    const b = new Builder('1', 'M');
    const t = b.module('1', 'T');
    const tf = b.functionHandle(t, 'f', [], []);
    const tg = b.functionHandle(t, 'g', [Address], [Address]);
    b.constant(Address, LE(1n, 32).reverse());
    b.fn({ name: 'f', returns: [Address], code: [o('Call', tf), o('LdConst', 0), s('Ret')] });
    b.fn({ name: 'h', returns: [Address], code: [o('LdConst', 0), o('Call', tg), s('Ret')] });
    b.fn({
      name: 'l',
      returns: [Address],
      locals: [['t', Address]],
      code: [o('LdConst', 0), o('StLoc', 0), o('MoveLoc', 0), o('Call', tg), s('Ret')],
    });
    expect(b.text()).toBe(snapTask(`${IR}/parsing/named_addresses.snap`, 2));
  });

  it('statements/enums.snap: enums, variant instructions, jump tables', () => {
    const b = new Builder('3d8', 'M');
    const t = b.enum(
      'T',
      [
        ['X', []],
        ['Y', [['f', U64]]],
      ],
      [],
      Ability.Drop,
    );
    const switchTo = (tail: Bytecode[]) => [u64(0), o('PackVariant', 1), o('StLoc', 0), o('ImmBorrowLoc', 0), o('VariantSwitch', 0), u64(1), s('Ret'), ...tail];
    const jt = [{ headEnum: 0, offsets: [5, 7] }];
    b.fn({ name: 'f', returns: [dt(t)], code: [o('PackVariant', 0), s('Ret')] });
    b.fn({
      name: 'f1',
      returns: [dt(t)],
      locals: [
        ['x', dt(t)],
        ['f', U64],
      ],
      code: [u64(0), o('PackVariant', 1), o('StLoc', 0), o('MoveLoc', 0), o('UnpackVariant', 1), o('StLoc', 1), o('PackVariant', 0), s('Ret')],
    });
    b.fn({
      name: 'f2',
      returns: [dt(t)],
      locals: [
        ['x', dt(t)],
        ['f', U64],
      ],
      jumpTables: jt,
      code: switchTo([o('MoveLoc', 0), o('UnpackVariant', 1), o('StLoc', 1), o('MoveLoc', 1), s('Ret')]),
    });
    b.fn({
      name: 'f3',
      returns: [dt(t)],
      locals: [
        ['x', dt(t)],
        ['f', U64],
        ['g', ref(U64)],
      ],
      jumpTables: jt,
      code: switchTo([o('ImmBorrowLoc', 0), o('UnpackVariantImmRef', 1), o('StLoc', 2), u64(0), s('Ret')]),
    });
    b.fn({
      name: 'f4',
      returns: [dt(t)],
      locals: [
        ['x', dt(t)],
        ['f', U64],
        ['g', mut(U64)],
      ],
      jumpTables: jt,
      code: switchTo([o('MutBorrowLoc', 0), o('UnpackVariantMutRef', 1), o('StLoc', 2), u64(0), s('Ret')]),
    });
    expect(b.text()).toBe(snapTask(`${IR}/bytecode-generation/statements/enums.snap`, 0));
  });

  it('enums/enum_variant_jump_same_label.snap: generic enums and generic calls', () => {
    const b = new Builder('6', 'Enums');
    const e = b.enum(
      'EnumWithThreeVariants',
      [
        ['One', []],
        ['Two', [['x', tp(0)]]],
        ['Three', []],
      ],
      [['T', 0]],
    );
    const eT = inst(e, tp(0));
    b.m.enumDefInstantiations.push({ def: 0, typeParameters: b.sig([tp(0)]) });
    b.m.variantInstantiationHandles.push({ enumDef: 0, variant: 1 }, { enumDef: 0, variant: 0 }, { enumDef: 0, variant: 2 });
    const generic = { typeParameters: [0], typeParameterNames: ['T'] };
    // `f` is defined last but called first: declare its handle up front.
    const fHandle = b.functionHandle(0, 'f', [eT], [tp(0)], [0]);
    b.m.functionInstantiations.push({ handle: fHandle, typeParameters: b.sig([tp(0)]) });
    b.fn({
      name: 'call_success',
      visibility: 'Public',
      ...generic,
      params: [['t', tp(0)]],
      returns: [tp(0)],
      locals: [['x', eT]],
      code: [o('MoveLoc', 0), o('PackVariantGeneric', 0), o('StLoc', 1), o('MoveLoc', 1), o('CallGeneric', 0), s('Ret')],
    });
    for (const [name, handle] of [
      ['call_fail_1', 1],
      ['call_fail_3', 2],
    ] as const) {
      b.fn({
        name,
        visibility: 'Public',
        ...generic,
        returns: [tp(0)],
        locals: [['x', eT]],
        code: [o('PackVariantGeneric', handle), o('StLoc', 0), o('MoveLoc', 0), o('CallGeneric', 0), s('Ret')],
      });
    }
    b.m.functionDefs.push({
      function: fHandle,
      visibility: 'Private',
      isEntry: false,
      acquiresGlobalResources: [],
      code: {
        locals: b.sig([tp(0)]),
        code: [o('ImmBorrowLoc', 0), o('VariantSwitch', 0), o('MoveLoc', 0), o('UnpackVariantGeneric', 0), o('StLoc', 1), o('MoveLoc', 1), s('Ret')],
        jumpTables: [{ headEnum: 0, jumpTable: { $kind: 'Full', offsets: [2, 2, 2] } }],
      },
    });
    b.names.functions[3] = { typeParameters: ['T'], parameters: ['x'], locals: ['y'] };
    const want = snapTask('move-vm-transactional-tests/tests/enums/enum_variant_jump_same_label.snap', 0);
    expect(b.text()).toBe(want);
    // Without source names, upstream's generated names apply.
    expect(disassembleModule(b.m)).toContain('[0]:\tvariant_switch EnumWithThreeVariants {\n\t\tVariant0 => jump 2\n');
    expect(disassembleModule(b.m)).toContain('\t4: Call f<Ty0>(EnumWithThreeVariants<Ty0>): Ty0\n');
  });
});
