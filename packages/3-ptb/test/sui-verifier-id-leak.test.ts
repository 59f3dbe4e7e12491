/**
 * Sui's `id_leak_verifier` pass (`executor/sui-verifier/id-leak.ts`) on modules built by hand:
 * an object (a struct with `key`) is packed only with a UID fresh from one of upstream's
 * creation functions, through branches, loops and enum variants; the system object creators
 * are exempt; messages are upstream's `PartialVMError` Display. Then every corpus module
 * passes, quickly.
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { Ability, type AbilitySet, type Bytecode, type CompiledModule, emptyModule, findPackageDirs, loadPackageDir, type SignatureToken } from '@smi/bytecode';
import { ExecutionFailure } from '../src/executor/errors.js';
import { LATEST_SUI_VERIFIER_CONFIG, suiVerifyModule } from '../src/executor/sui-verifier/index.js';
import { verifyIdLeak } from '../src/executor/sui-verifier/id-leak.js';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

const addr = (n: string): string => '0x' + n.padStart(64, '0');
const SUI = addr('2');

/** A tiny module builder: tables deduplicated, indices returned. */
class Builder {
  readonly m: CompiledModule = emptyModule();
  readonly uid: SignatureToken;
  readonly ctx: SignatureToken;
  constructor(address: string, name: string) {
    this.m.selfModuleHandleIndex = this.module(address, name);
    this.uid = { $kind: 'Datatype', index: this.datatype(SUI, 'object', 'UID', Ability.Store) };
    this.ctx = { $kind: 'MutableReference', type: { $kind: 'Datatype', index: this.datatype(SUI, 'tx_context', 'TxContext', Ability.Drop) } };
  }
  ident(s: string): number {
    const i = this.m.identifiers.indexOf(s);
    return i >= 0 ? i : this.m.identifiers.push(s) - 1;
  }
  module(address: string, name: string): number {
    let a = this.m.addressIdentifiers.indexOf(address);
    if (a < 0) a = this.m.addressIdentifiers.push(address) - 1;
    const n = this.ident(name);
    const i = this.m.moduleHandles.findIndex((h) => h.address === a && h.name === n);
    return i >= 0 ? i : this.m.moduleHandles.push({ address: a, name: n }) - 1;
  }
  sig(tokens: SignatureToken[]): number {
    const key = JSON.stringify(tokens);
    const i = this.m.signatures.findIndex((s) => JSON.stringify(s) === key);
    return i >= 0 ? i : this.m.signatures.push(tokens) - 1;
  }
  datatype(address: string, module: string, name: string, abilities: AbilitySet): number {
    return this.m.datatypeHandles.push({ module: this.module(address, module), name: this.ident(name), abilities, typeParameters: [] }) - 1;
  }
  /** A struct of this module: its struct definition index (what `Pack` takes). */
  struct(name: string, abilities: AbilitySet, fields: SignatureToken[]): number {
    const h = this.m.datatypeHandles.push({ module: this.m.selfModuleHandleIndex, name: this.ident(name), abilities, typeParameters: [] }) - 1;
    const declared = fields.map((type, i) => ({ name: this.ident(i === 0 ? 'id' : `f${i}`), type }));
    return this.m.structDefs.push({ structHandle: h, fieldInformation: { $kind: 'Declared', fields: declared } }) - 1;
  }
  /** An enum of this module; returns the variant handle index of each variant. */
  enum(name: string, variants: SignatureToken[][]): number[] {
    const h = this.m.datatypeHandles.push({ module: this.m.selfModuleHandleIndex, name: this.ident(name), abilities: 0, typeParameters: [] }) - 1;
    const def =
      this.m.enumDefs.push({
        enumHandle: h,
        variants: variants.map((fields, v) => ({ variantName: this.ident(`V${v}`), fields: fields.map((type, i) => ({ name: this.ident(`f${i}`), type })) })),
      }) - 1;
    return variants.map((_, variant) => this.m.variantHandles.push({ enumDef: def, variant }) - 1);
  }
  /** A function handle of any module (`Call` takes its index). */
  handle(address: string, module: string, name: string, params: SignatureToken[], returns: SignatureToken[]): number {
    const h = { module: this.module(address, module), name: this.ident(name), parameters: this.sig(params), return: this.sig(returns), typeParameters: [] };
    return this.m.functionHandles.push(h) - 1;
  }
  /** A function of this module with code. */
  fn(name: string, params: SignatureToken[], returns: SignatureToken[], code: Bytecode[], locals: SignatureToken[] = []): void {
    const [address, module] = [this.m.moduleHandles[this.m.selfModuleHandleIndex].address, this.m.moduleHandles[this.m.selfModuleHandleIndex].name];
    const fh = this.handle(this.m.addressIdentifiers[address], this.m.identifiers[module], name, params, returns);
    this.m.functionDefs.push({ function: fh, visibility: 'Private', isEntry: false, acquiresGlobalResources: [], code: { locals: this.sig(locals), code, jumpTables: [] } });
  }
}

const ins = {
  move: (index: number): Bytecode => ({ $kind: 'MoveLoc', index }),
  st: (index: number): Bytecode => ({ $kind: 'StLoc', index }),
  call: (index: number): Bytecode => ({ $kind: 'Call', index }),
  pack: (index: number): Bytecode => ({ $kind: 'Pack', index }),
  unpack: (index: number): Bytecode => ({ $kind: 'Unpack', index }),
  brFalse: (index: number): Bytecode => ({ $kind: 'BrFalse', index }),
  branch: (index: number): Bytecode => ({ $kind: 'Branch', index }),
  ret: { $kind: 'Ret' } as Bytecode,
};

/** The failure the pass throws, `null` when the module passes. */
function failure(m: CompiledModule): { kind: string; message: string } | null {
  try {
    verifyIdLeak(m);
    return null;
  } catch (e) {
    if (!(e instanceof ExecutionFailure)) throw e;
    return { kind: e.status.$kind, message: e.message };
  }
}

const leak = (address: string, module: string, fn: string) => ({
  kind: 'SuiMoveVerificationError',
  message:
    `PartialVMError with status UNKNOWN_VERIFICATION_ERROR with sub status 1 and message Invalid object creation in ${address.slice(2)}::${module}::${fn}. ` +
    'Object created without a newly created UID. The UID must come directly from `sui::object::new`, or `sui::derived_object::claim`. ' +
    'For tests, it can also come from `sui::test_scenario::new_object`',
});

/** `0x0::m` with `Obj has key { id: UID }` (struct def 0) and `Plain { id: UID }` (struct def 1). */
function objects(address = addr('0'), name = 'm'): { b: Builder; obj: SignatureToken; OBJ: number; PLAIN: number } {
  const b = new Builder(address, name);
  const OBJ = b.struct('Obj', Ability.Key, [b.uid]);
  const PLAIN = b.struct('Plain', 0, [b.uid]);
  return { b, obj: { $kind: 'Datatype', index: b.m.structDefs[OBJ].structHandle }, OBJ, PLAIN };
}

describe('id_leak', () => {
  it('accepts an object packed with a UID from each fresh-id function', () => {
    const creators: [string, string, SignatureToken[]][] = [
      ['object', 'new', []],
      ['object', 'new_uid_from_hash', [{ $kind: 'Address' }]],
      ['derived_object', 'claim', [{ $kind: 'U64' }]],
      ['test_scenario', 'new_object', []],
    ];
    for (const [module, name, extra] of creators) {
      const { b, obj, OBJ } = objects();
      const f = b.handle(SUI, module, name, [b.ctx, ...extra], [b.uid]);
      const args = extra.map((_, i) => ins.move(i + 1));
      b.fn('f', [b.ctx, ...extra], [obj], [ins.move(0), ...args, ins.call(f), ins.pack(OBJ), ins.ret]);
      expect(failure(b.m), `${module}::${name}`).toBeNull();
    }
  });

  it('rejects an object packed with a parameter, an unpacked UID or another function result', () => {
    const param = objects();
    param.b.fn('f', [param.b.uid], [param.obj], [ins.move(0), ins.pack(param.OBJ), ins.ret]);
    expect(failure(param.b.m)).toEqual(leak(addr('0'), 'm', 'f'));

    const transmute = objects(addr('42'), 'cats');
    const { b, obj, OBJ } = transmute;
    b.fn('g', [obj], [obj], [ins.move(0), ins.unpack(OBJ), ins.pack(OBJ), ins.ret]);
    expect(failure(b.m)).toEqual(leak(addr('42'), 'cats', 'g'));

    for (const [address, module, name] of [
      [SUI, 'object', 'fresh'],
      [addr('3'), 'object', 'new'],
      [addr('0'), 'm', 'new'],
    ]) {
      const other = objects();
      const f = other.b.handle(address, module, name, [other.b.ctx], [other.b.uid]);
      other.b.fn('f', [other.b.ctx], [other.obj], [ins.move(0), ins.call(f), ins.pack(other.OBJ), ins.ret]);
      expect(failure(other.b.m), `${module}::${name}`).toEqual(leak(addr('0'), 'm', 'f'));
    }
  });

  it('a struct without key may hold any UID', () => {
    const { b, obj, OBJ, PLAIN } = objects();
    b.fn('f', [obj], [{ $kind: 'Datatype', index: b.m.structDefs[PLAIN].structHandle }], [ins.move(0), ins.unpack(OBJ), ins.pack(PLAIN), ins.ret]);
    expect(failure(b.m)).toBeNull();
  });

  it('joins branches: fresh on both paths passes, fresh on one path only does not', () => {
    const build = (elseBranch: (newId: number) => Bytecode[]) => {
      const { b, obj, OBJ } = objects();
      const newId = b.handle(SUI, 'object', 'new', [b.ctx], [b.uid]);
      const otherBranch = elseBranch(newId);
      // if (c) { id = object::new(ctx) } else { <otherBranch> }; Obj { id }
      const elseAt = 6;
      const join = elseAt + otherBranch.length + 1;
      const code: Bytecode[] = [ins.move(0), ins.brFalse(elseAt), ins.move(2), ins.call(newId), ins.st(3), ins.branch(join), ...otherBranch, ins.st(3)];
      code.push(ins.move(3), ins.pack(OBJ), ins.ret);
      b.fn('f', [{ $kind: 'Bool' }, b.uid, b.ctx], [obj], code, [b.uid]);
      return b.m;
    };
    expect(failure(build(() => [ins.move(1)]))).toEqual(leak(addr('0'), 'm', 'f'));
    expect(failure(build((newId) => [ins.move(2), ins.call(newId)]))).toBeNull();
  });

  it('joins loops: a UID replaced by a non-fresh one in the loop body is not fresh after it', () => {
    const build = (fresh: boolean) => {
      const { b, obj, OBJ } = objects();
      const newId = b.handle(SUI, 'object', 'new', [b.ctx], [b.uid]);
      const other = b.handle(SUI, 'object', 'other', [b.ctx], [b.uid]);
      const del = b.handle(SUI, 'object', 'delete', [b.uid], []);
      // id = new(ctx); while (c) { delete(id); id = <new|other>(ctx) }; Obj { id }
      const code: Bytecode[] = [
        { $kind: 'CopyLoc', index: 1 },
        ins.call(newId),
        ins.st(2),
        { $kind: 'CopyLoc', index: 0 },
        ins.brFalse(11),
        ins.move(2),
        ins.call(del),
        { $kind: 'CopyLoc', index: 1 },
        ins.call(fresh ? newId : other),
        ins.st(2),
        ins.branch(3),
        ins.move(2),
        ins.pack(OBJ),
        ins.ret,
      ];
      b.fn('f', [{ $kind: 'Bool' }, b.ctx], [obj], code, [b.uid]);
      return b.m;
    };
    expect(failure(build(true))).toBeNull();
    expect(failure(build(false))).toEqual(leak(addr('0'), 'm', 'f'));
  });

  it('a UID out of an enum variant is not fresh; variant fields are counted', () => {
    const { b, obj, OBJ } = objects();
    const newId = b.handle(SUI, 'object', 'new', [b.ctx], [b.uid]);
    const [v0] = b.enum('E', [[{ $kind: 'U64' }, b.uid], []]);
    const code: Bytecode[] = [
      { $kind: 'LdU64', value: 1n },
      ins.move(0),
      ins.call(newId),
      { $kind: 'PackVariant', index: v0 },
      { $kind: 'UnpackVariant', index: v0 },
      ins.st(1),
      { $kind: 'Pop' },
      ins.move(1),
      ins.pack(OBJ),
      ins.ret,
    ];
    b.fn('f', [b.ctx], [obj], code, [b.uid]);
    expect(failure(b.m)).toEqual(leak(addr('0'), 'm', 'f'));
  });

  it("skips upstream's system object creators, by address, module and name", () => {
    const creator = (address: string, module: string, name: string) => {
      const { b, obj, OBJ } = objects(address, module);
      b.fn(name, [b.uid], [obj], [ins.move(0), ins.pack(OBJ), ins.ret]);
      return failure(b.m);
    };
    expect(creator(SUI, 'clock', 'create')).toBeNull();
    expect(creator(addr('3'), 'sui_system', 'create')).toBeNull();
    expect(creator(addr('b'), 'bridge', 'create')).toBeNull();
    expect(creator(SUI, 'forwarding_address', 'create')).toBeNull();
    expect(creator(SUI, 'clock', 'create_v2')).toEqual(leak(SUI, 'clock', 'create_v2'));
    expect(creator(addr('3'), 'clock', 'create')).toEqual(leak(addr('3'), 'clock', 'create'));
  });

  it('runs inside suiVerifyModule, after struct_with_key and global storage access', () => {
    const { b, obj, OBJ } = objects();
    b.fn('f', [b.uid], [obj], [ins.move(0), ins.pack(OBJ), ins.ret]);
    expect(() => suiVerifyModule(b.m, LATEST_SUI_VERIFIER_CONFIG)).toThrow(leak(addr('0'), 'm', 'f').message);
  });

  it("upstream's invariant errors on malformed code (which the Move bytecode verifier rejects first)", () => {
    const twoIds = objects();
    const f = twoIds.b.handle(SUI, 'object', 'new', [twoIds.b.ctx], [twoIds.b.uid, twoIds.b.uid]);
    twoIds.b.fn('f', [twoIds.b.ctx], [], [ins.move(0), ins.call(f), { $kind: 'Pop' }, { $kind: 'Pop' }, ins.ret]);
    expect(failure(twoIds.b.m)).toEqual({
      kind: 'SuiMoveVerificationError',
      message: 'PartialVMError with status UNKNOWN_VERIFICATION_ERROR with sub status 0 and message Should have a single return value',
    });
    const noValue = objects();
    noValue.b.fn('f', [], [{ $kind: 'U64' }], [ins.ret]);
    expect(failure(noValue.b.m)?.message).toBe('PartialVMError with status VERIFIER_INVARIANT_VIOLATION and message Unexpected stack error on pop_n: Popped more values than are on the stack');
    const leftover = objects();
    leftover.b.fn('f', [], [], [{ $kind: 'LdTrue' }, ins.brFalse(3), { $kind: 'LdU8', value: 0 }, ins.ret]);
    expect(failure(leftover.b.m)?.message).toBe('PartialVMError with status VERIFIER_INVARIANT_VIOLATION and message Invalid stack transitions. Non-zero stack size at the end of the block');
  });
});

describeWithFixtures('id_leak over the corpus', ['corpus'], () => {
  // Its speed is measured by bench/sui-verifier.mjs (`pnpm --filter @smi/ptb bench`).
  it('every module of every corpus package passes', () => {
    const dirs = findPackageDirs(fixturePath('corpus'));
    expect(dirs).toHaveLength(12);
    const modules: [string, CompiledModule][] = [];
    for (const dir of dirs) {
      for (const { name, module } of loadPackageDir(dir).modules) modules.push([`${path.basename(dir)}::${name}`, module]);
    }
    expect(modules).toHaveLength(207);
    for (const [name, module] of modules) expect(failure(module), name).toBeNull();
  });
});
