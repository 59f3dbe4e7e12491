/**
 * Sui's own verifier passes (`executor/sui-verifier`), on modules built by hand here (the
 * shapes of upstream's `sui-verifier-transactional-tests`), with upstream's exact messages,
 * and on every module of the real framework and corpus packages, which must all pass.
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { Ability, type AbilitySet, type Bytecode, type CompiledModule, emptyModule, findPackageDirs, loadPackageDir, type SignatureToken, type Visibility } from '@smi/bytecode';
import { ExecutionFailure } from '../src/executor/errors.js';
import { LATEST_SUI_VERIFIER_CONFIG, type SuiVerifierConfig, suiVerifyModule } from '../src/executor/sui-verifier/index.js';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

const ZERO_HEX = '0'.repeat(64);
const addr = (n: string): string => '0x' + n.padStart(64, '0');
const SUI_HEX = addr('2').slice(2);

const T = {
  bool: { $kind: 'Bool' } as SignatureToken,
  u64: { $kind: 'U64' } as SignatureToken,
  dt: (index: number): SignatureToken => ({ $kind: 'Datatype', index }),
  inst: (index: number, typeArguments: SignatureToken[]): SignatureToken => ({ $kind: 'DatatypeInstantiation', index, typeArguments }),
  ref: (type: SignatureToken): SignatureToken => ({ $kind: 'Reference', type }),
  mut: (type: SignatureToken): SignatureToken => ({ $kind: 'MutableReference', type }),
  vec: (type: SignatureToken): SignatureToken => ({ $kind: 'Vector', type }),
  tp: (index: number): SignatureToken => ({ $kind: 'TypeParameter', index }),
};

/** A tiny module builder: tables deduplicated, indices returned. */
class Builder {
  readonly m: CompiledModule = emptyModule();
  constructor(address: string, name: string) {
    this.m.selfModuleHandleIndex = this.module(address, name);
  }
  ident(s: string): number {
    const i = this.m.identifiers.indexOf(s);
    return i >= 0 ? i : this.m.identifiers.push(s) - 1;
  }
  address(a: string): number {
    const i = this.m.addressIdentifiers.indexOf(a);
    return i >= 0 ? i : this.m.addressIdentifiers.push(a) - 1;
  }
  module(address: string, name: string): number {
    const h = { address: this.address(address), name: this.ident(name) };
    const i = this.m.moduleHandles.findIndex((x) => x.address === h.address && x.name === h.name);
    return i >= 0 ? i : this.m.moduleHandles.push(h) - 1;
  }
  sig(tokens: SignatureToken[]): number {
    const key = JSON.stringify(tokens);
    const i = this.m.signatures.findIndex((s) => JSON.stringify(s) === key);
    return i >= 0 ? i : this.m.signatures.push(tokens) - 1;
  }
  /** A datatype handle of another module. */
  extern(address: string, module: string, name: string, abilities: AbilitySet, typeParams = 0): number {
    const tps = Array.from({ length: typeParams }, () => ({ constraints: 0, isPhantom: false }));
    return this.m.datatypeHandles.push({ module: this.module(address, module), name: this.ident(name), abilities, typeParameters: tps }) - 1;
  }
  txContext(): number {
    const i = this.m.datatypeHandles.findIndex((h) => this.m.identifiers[h.name] === 'TxContext');
    return i >= 0 ? i : this.extern(addr('2'), 'tx_context', 'TxContext', Ability.Drop);
  }
  uid(): number {
    const i = this.m.datatypeHandles.findIndex((h) => this.m.identifiers[h.name] === 'UID');
    return i >= 0 ? i : this.extern(addr('2'), 'object', 'UID', Ability.Store);
  }
  /** A struct of this module; returns its datatype handle index. */
  struct(name: string, abilities: AbilitySet, fields: [string, SignatureToken][], typeParams = 0): number {
    const tps = Array.from({ length: typeParams }, () => ({ constraints: 0, isPhantom: true }));
    const h = this.m.datatypeHandles.push({ module: this.m.selfModuleHandleIndex, name: this.ident(name), abilities, typeParameters: tps }) - 1;
    this.m.structDefs.push({ structHandle: h, fieldInformation: { $kind: 'Declared', fields: fields.map(([n, type]) => ({ name: this.ident(n), type })) } });
    return h;
  }
  enum(name: string, abilities: AbilitySet): number {
    const h = this.m.datatypeHandles.push({ module: this.m.selfModuleHandleIndex, name: this.ident(name), abilities, typeParameters: [] }) - 1;
    this.m.enumDefs.push({ enumHandle: h, variants: [{ variantName: this.ident('V'), fields: [] }] });
    return h;
  }
  /** A function handle of another module. */
  externFn(address: string, module: string, name: string, params: SignatureToken[], typeParams: AbilitySet[] = []): number {
    return (
      this.m.functionHandles.push({
        module: this.module(address, module),
        name: this.ident(name),
        parameters: this.sig(params),
        return: this.sig([]),
        typeParameters: typeParams,
      }) - 1
    );
  }
  callGeneric(fhandle: number, typeArgs: SignatureToken[]): Bytecode {
    const index = this.m.functionInstantiations.push({ handle: fhandle, typeParameters: this.sig(typeArgs) }) - 1;
    return { $kind: 'CallGeneric', index };
  }
  fn(name: string, params: SignatureToken[], opts: { returns?: SignatureToken[]; visibility?: Visibility; entry?: boolean; typeParams?: AbilitySet[]; code?: Bytecode[] | null } = {}): number {
    const fh =
      this.m.functionHandles.push({
        module: this.m.selfModuleHandleIndex,
        name: this.ident(name),
        parameters: this.sig(params),
        return: this.sig(opts.returns ?? []),
        typeParameters: opts.typeParams ?? [],
      }) - 1;
    // Without code given: `return` when there is nothing to return, else `abort 0` (stack-balanced either way).
    const body: Bytecode[] = (opts.returns ?? []).length === 0 ? [{ $kind: 'Ret' }] : [{ $kind: 'LdU64', value: 0n }, { $kind: 'Abort' }];
    const code = opts.code === null ? null : { locals: this.sig([]), code: opts.code ?? body, jumpTables: [] };
    this.m.functionDefs.push({ function: fh, visibility: opts.visibility ?? 'Private', isEntry: opts.entry ?? false, acquiresGlobalResources: [], code });
    return fh;
  }
}

const user = (name = 'm'): Builder => new Builder(addr('0'), name);

/** The message of the failure `suiVerifyModule` throws, `null` when the module passes. */
function failure(m: CompiledModule, config: SuiVerifierConfig = LATEST_SUI_VERIFIER_CONFIG): { kind: string; message: string } | null {
  try {
    suiVerifyModule(m, config);
    return null;
  } catch (e) {
    if (!(e instanceof ExecutionFailure)) throw e;
    return { kind: e.status.$kind, message: e.message };
  }
}
const suiError = (message: string) => ({ kind: 'SuiMoveVerificationError', message });

describe('one-time witness', () => {
  const otwModule = (abilities: AbilitySet = Ability.Drop, typeParams = 0) => {
    const b = user();
    const otw = b.struct('M', abilities, [['dummy_field', T.bool]], typeParams);
    return { b, otw, ctx: T.mut(T.dt(b.txContext())) };
  };

  it('accepts a witness taken by init and never packed, and a plain init without a witness', () => {
    const { b, otw, ctx } = otwModule();
    b.fn('init', [T.dt(otw), ctx]);
    expect(failure(b.m)).toBeNull();
    const p = user();
    p.struct('Other', Ability.Drop, [['dummy_field', T.bool]]);
    p.fn('init', [T.mut(T.dt(p.txContext()))]);
    expect(failure(p.m)).toBeNull();
  });

  it('rejects a witness packed outside init (module id as 64 hex digits)', () => {
    const { b, otw, ctx } = otwModule();
    b.fn('init', [T.dt(otw), ctx]);
    b.fn('pack', [], { returns: [T.dt(otw)], code: [{ $kind: 'LdFalse' }, { $kind: 'Pack', index: 0 }, { $kind: 'Ret' }] });
    expect(failure(b.m)).toEqual(suiError(`one-time witness type ${ZERO_HEX}::m::M is instantiated in the ${ZERO_HEX}::m::pack function and must never be`));
  });

  it('rejects a candidate without exactly drop, or with type parameters', () => {
    for (const abilities of [0, Ability.Drop | Ability.Copy]) {
      const { b, otw, ctx } = otwModule(abilities);
      b.fn('init', [T.dt(otw), ctx]);
      expect(failure(b.m)).toEqual(suiError(`one-time witness type candidate ${ZERO_HEX}::m::M must have a single ability: drop`));
    }
    const { b } = otwModule(Ability.Drop, 1);
    expect(failure(b.m)).toEqual(suiError(`one-time witness type candidate ${ZERO_HEX}::m::M cannot have type parameters`));
  });

  it('rejects an init without the witness first, or with the wrong type first', () => {
    const expected = suiError(
      `init function of a module containing one-time witness type candidate must have ${ZERO_HEX}::m::M as the first parameter (a struct which has no fields or a single field of type bool)`,
    );
    const { b, ctx } = otwModule();
    b.fn('init', [ctx]);
    expect(failure(b.m)).toEqual(expected);
    const w = otwModule();
    const n = w.b.struct('N', Ability.Drop, [['dummy_field', T.bool]]);
    w.b.fn('init', [T.dt(n), w.ctx]);
    expect(failure(w.b.m)).toEqual(expected);
  });

  it('without a candidate (field not bool), init takes exactly one parameter', () => {
    const b = user();
    const s = b.struct('M', Ability.Drop, [['value', T.u64]]);
    b.fn('init', [T.dt(s), T.mut(T.dt(b.txContext()))]);
    expect(failure(b.m)).toEqual(
      suiError(
        `Expected last (and at most second) parameter for ${ZERO_HEX}::m::init to be &mut ${SUI_HEX}::tx_context::TxContext or &${SUI_HEX}::tx_context::TxContext; ` +
          `optional first parameter must be of one-time witness type whose name is the same as the capitalized module name (${ZERO_HEX}::m::M) and which has no fields or a single field of type bool`,
      ),
    );
  });

  it('exempts 0x2::sui and the bridge tokens', () => {
    for (const [a, name] of [
      ['2', 'sui'],
      ['b', 'btc'],
    ]) {
      const b = new Builder(addr(a), name);
      const otw = b.struct(name.toUpperCase(), Ability.Drop, [['dummy_field', T.bool]]);
      b.fn('new', [], { visibility: 'Public', returns: [T.dt(otw)], code: [{ $kind: 'LdTrue' }, { $kind: 'Pack', index: 0 }, { $kind: 'Ret' }] });
      expect(failure(b.m)).toBeNull();
    }
  });
});

describe('struct with key', () => {
  it('accepts `id: UID` first and rejects other first fields and key enums', () => {
    const ok = user();
    ok.struct('Obj', Ability.Key, [
      ['id', T.dt(ok.uid())],
      ['v', T.u64],
    ]);
    expect(failure(ok.m)).toBeNull();

    const named = user();
    named.struct('Obj', Ability.Key, [['uid', T.dt(named.uid())]]);
    expect(failure(named.m)).toEqual(suiError("First field of struct Obj must be 'id', uid found"));

    const prim = user();
    prim.struct('Obj', Ability.Key, [['id', T.vec(T.u64)]]);
    expect(failure(prim.m)).toEqual(suiError(`First field of struct Obj must be of type ${SUI_HEX}::object::UID, Vector(U64) type found`));

    const other = user();
    const fake = other.extern(addr('2'), 'object', 'ID', Ability.Store);
    other.struct('Obj', Ability.Key, [['id', T.dt(fake)]]);
    expect(failure(other.m)).toEqual(suiError(`First field of struct Obj must be of type ${SUI_HEX}::object::UID, ${SUI_HEX}::object::ID type found`));

    const e = user();
    e.enum('X', Ability.Key | Ability.Store);
    expect(failure(e.m)).toEqual(suiError("Enum X cannot have the 'key' ability. Enums cannot have the 'key' ability."));
  });
});

describe('global storage access', () => {
  it('rejects the deprecated global storage instructions', () => {
    const b = user();
    b.struct('R', Ability.Key, [['id', T.dt(b.uid())]]);
    b.fn('f', [], { code: [{ $kind: 'ExistsDeprecated', index: 0 }, { $kind: 'Pop' }, { $kind: 'ImmBorrowGlobalGenericDeprecated', index: 3 }, { $kind: 'Ret' }] });
    expect(failure(b.m)).toEqual(
      suiError('Access to Move global storage is not allowed. Found in function f: [Exists(StructDefinitionIndex(0)), ImmBorrowGlobalGeneric(StructDefInstantiationIndex(3))]'),
    );
  });
});

describe('entry points', () => {
  const old: SuiVerifierConfig = { ...LATEST_SUI_VERIFIER_CONFIG, disableEntryPointSignatureCheck: false };

  it('checks init: private, not entry, not generic, no returns, TxContext last, not called', () => {
    const id = `${ZERO_HEX}::m`;
    const cases: [Parameters<Builder['fn']>[2], string][] = [
      [{ visibility: 'Public' }, `${id}. 'init' function must be private`],
      [{ entry: true }, `${id}. 'init' cannot be 'entry'`],
      [{ typeParams: [0] }, `${id}. 'init' function cannot have type parameters`],
      [{ returns: [T.u64] }, `${id}, 'init' function cannot have return values`],
    ];
    for (const [opts, message] of cases) {
      const b = user();
      b.fn('init', [T.mut(T.dt(b.txContext()))], opts);
      expect(failure(b.m)).toEqual(suiError(message));
    }
    const none = user();
    none.fn('init', []);
    expect(failure(none.m)).toEqual(suiError(`Expected at least one and at most two parameters for ${id}::init`));
    const wrong = user();
    wrong.fn('init', [T.u64]);
    expect(failure(wrong.m)).toEqual(suiError(`Expected last parameter for ${id}::init to be &mut ${SUI_HEX}::tx_context::TxContext or &${SUI_HEX}::tx_context::TxContext, but found u64`));
    const calls = user();
    const init = calls.fn('init', [T.ref(T.dt(calls.txContext()))]);
    calls.fn('g', [T.ref(T.dt(calls.txContext()))], { code: [{ $kind: 'MoveLoc', index: 0 }, { $kind: 'Call', index: init }, { $kind: 'Ret' }] });
    expect(failure(calls.m)).toEqual(suiError(`${id}::init at offset 1. Cannot call a module's 'init' function from another Move function`));
  });

  it('checks entry signatures only while `disable_entry_point_signature_check` is off', () => {
    const b = user();
    const potato = b.struct('Potato', 0, [['v', T.u64]]);
    b.fn('eat', [T.dt(potato)], { entry: true });
    expect(failure(b.m)).toBeNull();
    expect(failure(b.m, old)).toEqual(suiError('Invalid entry point parameter type. Expected primitive or object type. Got: 0x0::m::Potato'));
  });

  it('accepts primitives, strings, options, objects, vectors of objects, Receiving and a trailing TxContext', () => {
    const b = user();
    const obj = b.struct('Obj', Ability.Key | Ability.Store, [['id', T.dt(b.uid())]]);
    const str = b.extern(addr('1'), 'string', 'String', Ability.Copy | Ability.Drop | Ability.Store);
    const opt = b.extern(addr('1'), 'option', 'Option', Ability.Copy | Ability.Drop | Ability.Store, 1);
    const recv = b.extern(addr('2'), 'transfer', 'Receiving', Ability.Drop, 1);
    const clock = b.extern(addr('2'), 'clock', 'Clock', Ability.Key);
    const params = [T.u64, T.vec(T.vec(T.bool)), T.dt(str), T.inst(opt, [T.u64]), T.mut(T.dt(obj)), T.vec(T.dt(obj)), T.inst(recv, [T.dt(obj)]), T.ref(T.dt(clock)), T.tp(0)];
    b.fn('e', [...params, T.mut(T.dt(b.txContext()))], { entry: true, typeParams: [Ability.Drop], returns: [T.u64] });
    expect(failure(b.m, old)).toBeNull();
  });

  it('rejects a mutable Clock or Random, a reference return and a return without drop', () => {
    const mk = (f: (b: Builder) => void) => {
      const b = user();
      f(b);
      return failure(b.m, old);
    };
    expect(mk((b) => b.fn('e', [T.mut(T.dt(b.extern(addr('2'), 'clock', 'Clock', Ability.Key)))], { entry: true }))).toEqual(
      suiError('Invalid entry point parameter type. Clock must be passed by immutable reference. got: &mut 0x2::clock::Clock'),
    );
    expect(mk((b) => b.fn('e', [T.mut(T.dt(b.extern(addr('2'), 'random', 'Random', Ability.Key)))], { entry: true }))).toEqual(
      suiError('Invalid entry point parameter type. Random must be passed by immutable reference. got: &mut 0x2::random::Random'),
    );
    expect(mk((b) => b.fn('e', [], { entry: true, returns: [T.ref(T.u64)] }))).toEqual(suiError('Invalid entry point return type. Expected a non reference type.'));
    expect(mk((b) => b.fn('e', [], { entry: true, returns: [T.dt(b.struct('P', 0, [['v', T.u64]]))] }))).toEqual(
      suiError("Invalid entry point return type. The specified return type does not have the 'drop' ability: 0x0::m::P"),
    );
  });
});

describe('tx context restrictions', () => {
  const build = (address: string, extraMut: boolean) => {
    const b = new Builder(addr(address), 'f');
    const ctx = T.mut(T.dt(b.txContext()));
    b.fn('g', extraMut ? [T.mut(T.u64), ctx] : [ctx], { returns: [T.mut(T.u64)], code: null });
    return b.m;
  };
  it('a system function taking &mut TxContext and returning &mut needs another &mut parameter', () => {
    expect(failure(build('2', false))).toEqual(
      suiError(
        `${SUI_HEX}::f::g. Function takes \`&mut TxContext\` and returns a mutable reference, but has no non-\`TxContext\` \`&mut U\` parameter. ` +
          '`TxContext` cannot serve as the mutable root for a returned reference; add a mutable reference parameter of another type or return by value.',
      ),
    );
    expect(failure(build('2', true))).toBeNull();
    expect(failure(build('2', false), { ...LATEST_SUI_VERIFIER_CONFIG, frameworkTxContextMutRestrictions: false })).toBeNull();
    expect(failure(build('42', false))).toBeNull();
  });
});

describe('private generics', () => {
  const v1: SuiVerifierConfig = { ...LATEST_SUI_VERIFIER_CONFIG, privateGenericsVerifierV2: false };
  const callTransfer = (fn: string, own: boolean) => {
    const b = user();
    const mine = b.struct('Obj', Ability.Key, [['id', T.dt(b.uid())]]);
    const theirs = b.extern(addr('2'), 'coin', 'CoinMetadata', Ability.Key | Ability.Store, 1);
    const ty = own ? T.dt(mine) : T.inst(theirs, [T.u64]);
    const f = b.externFn(addr('2'), 'transfer', fn, [T.tp(0), { $kind: 'Address' }], [Ability.Key]);
    b.fn('f', [ty, { $kind: 'Address' }], { code: [{ $kind: 'MoveLoc', index: 0 }, { $kind: 'MoveLoc', index: 1 }, b.callGeneric(f, [ty]), { $kind: 'Ret' }] });
    return b.m;
  };

  it('v1: internal transfer of a type of the module is fine, of another module is not', () => {
    expect(failure(callTransfer('transfer', true), v1)).toBeNull();
    expect(failure(callTransfer('public_transfer', false), v1)).toBeNull();
    expect(failure(callTransfer('transfer', false), v1)).toEqual(
      suiError(
        `${ZERO_HEX}::m::f. Invalid call to '${SUI_HEX}::transfer::transfer' on an object of type '0x2::coin::CoinMetadata<u64>'. ` +
          "The transferred object's type must be defined in the current module. " +
          `If the object has the 'store' type ability, you can use the non-internal variant instead, i.e. '${SUI_HEX}::transfer::public_transfer'`,
      ),
    );
  });

  it('v2: the same, with the v2 message; event::emit and internal::permit too', () => {
    expect(failure(callTransfer('share_object', true))).toBeNull();
    expect(failure(callTransfer('share_object', false))).toEqual(
      suiError(
        `${ZERO_HEX}::m::f. Invalid call to 'sui::transfer::share_object'. Type argument #0 must be a type defined in the current module, found '0x2::coin::CoinMetadata<u64>'. ` +
          "If the type has the 'store' ability, use the public variant instead: 'sui::transfer::public_share_object'.",
      ),
    );
    const b = user();
    const permit = b.externFn(addr('1'), 'internal', 'permit', [], [0]);
    b.fn('f', [], { code: [b.callGeneric(permit, [T.u64]), { $kind: 'Ret' }] });
    expect(failure(b.m)).toEqual(suiError(`${ZERO_HEX}::m::f. Invalid call to 'std::internal::permit'. Type argument #0 must be a type defined in the current module, found 'u64'.`));
    const e = user();
    const emit = e.externFn(addr('2'), 'event', 'emit', [T.tp(0)], [Ability.Copy | Ability.Drop]);
    e.fn('f', [T.u64], { code: [{ $kind: 'MoveLoc', index: 0 }, e.callGeneric(emit, [T.u64]), { $kind: 'Ret' }] });
    expect(failure(e.m, v1)).toEqual(suiError(`${ZERO_HEX}::m::f. Invalid call to '${SUI_HEX}::event::emit' with an event type 'u64'. The event's type must be defined in the current module`));
  });

  it('v2: a public function of sui::transfer missing from the table is an invariant violation', () => {
    const b = new Builder(addr('2'), 'transfer');
    b.fn('public_teleport', [], { visibility: 'Public' });
    expect(failure(b.m)).toEqual({
      kind: 'InvariantViolation',
      message: `Unknown function '${SUI_HEX}::transfer::public_teleport'. All functions in '${SUI_HEX}::transfer' must be listed in FUNCTIONS_TO_CHECK`,
    });
    expect(failure(b.m, v1)).toBeNull();
  });
});

describeWithFixtures('the framework and corpus pass the Sui verifier', ['corpus'], () => {
  it('every module of every corpus package, at the latest protocol and with the older passes', () => {
    const dirs = findPackageDirs(fixturePath('corpus'));
    expect(dirs.length).toBeGreaterThan(5);
    const configs: SuiVerifierConfig[] = [LATEST_SUI_VERIFIER_CONFIG, { ...LATEST_SUI_VERIFIER_CONFIG, privateGenericsVerifierV2: false, disableEntryPointSignatureCheck: false }];
    let modules = 0;
    for (const dir of dirs) {
      const pkg = loadPackageDir(dir);
      for (const { name, module } of pkg.modules) {
        for (const config of configs) {
          const f = failure(module, config);
          expect(f, `${path.basename(dir)}::${name}`).toBeNull();
        }
        modules++;
      }
    }
    expect(modules).toBeGreaterThan(100);
  });
});
