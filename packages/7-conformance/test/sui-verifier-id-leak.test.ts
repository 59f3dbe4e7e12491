/**
 * Sui's `id_leak_verifier` through a real `Publish`: every module of upstream's
 * `sui-verifier-transactional-tests/tests/id_leak` (Move IR, compiled here against the
 * framework) publishes, or fails with `SuiMoveVerificationError` and the message upstream's
 * snapshot shows (the Display of its `PartialVMError`; addresses as `_` for the package).
 */
import { beforeAll, expect, it } from 'vitest';
import { canonicalAddress, type CompiledModule } from '@smi/bytecode';
import { compileIrModule } from '@smi/move-ir';
import { fromFixtures, SimulationEnvironment } from '@smi/simulation';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';

const FRAMEWORK = ['0x1', '0x2'].map((a) => canonicalAddress(a));

/** Addresses as upstream's snapshots show them: `sui` for 0x2, `_` for the published package. */
function snapshotNames(message: string): string {
  return message.replace(/\b[0-9a-f]{64}\b/g, (a) => (a === '0'.repeat(63) + '2' ? 'sui' : '_'));
}

interface Outcome {
  kind: string;
  message?: string;
}

/** Upstream's rejection of a `Pack` of an object with a UID that is not fresh, in `module::function`. */
const leak = (fn: string): Outcome => ({
  kind: 'SuiMoveVerificationError',
  message:
    `PartialVMError with status UNKNOWN_VERIFICATION_ERROR with sub status 1 and message Invalid object creation in _::${fn}. ` +
    'Object created without a newly created UID. The UID must come directly from `sui::object::new`, or `sui::derived_object::claim`. ' +
    'For tests, it can also come from `sui::test_scenario::new_object`',
});

/** `id_leak/direct_leak_through_call`: an unpacked UID passed on by itself (also the second half of `indirect_leak_through_call`). */
const PASS_UNPACKED_UID = `mvir 0x0::m {
    import 0x2::object;

    public struct Foo has key {
        id: object::UID,
    }

    fun transfer(id: object::UID) {
        label l0:
        abort 0;
    }

    fun foo(f: Self::Foo, v: &mut vector<object::UID>) {
        let id: object::UID;
        label l0:
        Foo { id } = move(f);
        Self::transfer(move(id));
        return;
    }

}`;

describeWithFixtures('id_leak_verifier on Publish (upstream sui-verifier-transactional-tests/id_leak)', ['fixtures', 'framework'], () => {
  let env: SimulationEnvironment;
  const deps = (address: string, name: string): CompiledModule | undefined => env.vm.packageById(canonicalAddress(address))?.modules.find((m) => m.name === name)?.module;
  const publish = (source: string): Outcome => {
    const bytes = compileIrModule(source, { dependencies: deps }).bytes;
    const tx = env.tx();
    const cap = tx.publish([bytes], FRAMEWORK);
    tx.transferObjects([cap], tx.pure('address', env.sender));
    const out = env.execute(tx.build());
    if (out.status.$kind !== 'Failure') return { kind: 'Success' };
    return { kind: (out.status.error as { $kind: string }).$kind, message: snapshotNames(out.status.message) };
  };

  beforeAll(() => {
    const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
    env = SimulationEnvironment.create({ packages: packages.filter((p) => FRAMEWORK.includes(p.id)), protocolConfig });
  });

  it('id_leak/derived_object_no_leak: a UID from derived_object::claim is fresh', () => {
    expect(
      publish(`mvir 0x0::m {
    import 0x2::object;
    import 0x2::derived_object;
    import 0x2::tx_context;

    public struct A has key {
        id: object::UID
    }

    fun no_leak(parent: &mut object::UID, ctx: &mut tx_context::TxContext) {
        let id: object::UID;
        label l0:
        id = derived_object::claim<u64>(move(parent), 0u64);
        abort 0;
    }
}`),
    ).toEqual({ kind: 'Success' });
  });

  it('id_leak/direct_leak_through_call: an unpacked UID passed to a function is fine (nothing is packed with it)', () => {
    expect(publish(PASS_UNPACKED_UID)).toEqual({ kind: 'Success' });
  });

  it('id_leak/indirect_leak_through_call: repacking an unpacked UID as an argument is rejected; passing the UID itself is fine', () => {
    expect(
      publish(`mvir 0x0::m {
    import 0x2::object;

    public struct Foo has key {
        id: object::UID,
    }

    fun transfer(id: Self::Foo) {
        label l0:
        abort 0;
    }

    fun foo(f: Self::Foo, v: &mut vector<object::UID>) {
        let id: object::UID;
        label l0:
        Foo { id } = move(f);
        Self::transfer(Foo { id: move(id) });
        return;
    }

}`),
    ).toEqual(leak('m::foo'));
    expect(publish(PASS_UNPACKED_UID)).toEqual({ kind: 'Success' });
  });

  it('id_leak/infinite_loop: infinite loops re-creating UIDs reach a fix point and publish', () => {
    expect(
      publish(`mvir 0x0::m {
    import 0x2::object;
    import 0x2::tx_context;

    public struct Obj has key {
        id: object::UID,
    }

    public entry fun loop_forever(ctx: &mut tx_context::TxContext) {
        let tmp: object::UID;
        let uid: object::UID;
        let obj: Self::Obj;
    label B0:
        tmp = object::new(copy(ctx));
        obj = Obj { id: move(tmp) };
        Obj { id: uid } = move(obj);
    label B1:
        object::delete(move(uid));
        uid = object::new(copy(ctx));
        jump B1;
    }
}`),
    ).toEqual({ kind: 'Success' });
    expect(
      publish(`mvir 0x0::m {
    import 0x2::object;
    import 0x2::tx_context;

    public struct Obj has key {
        id: object::UID,
    }

    public entry fun loop_forever(ctx: &mut tx_context::TxContext) {
        let tmp: object::UID;
        let uid: object::UID;
        let obj: Self::Obj;
    label B0:
        tmp = object::new(copy(ctx));
        obj = Obj { id: move(tmp) };
        Obj { id: uid } = move(obj);
        jump B1;
    label B1:
        object::delete(move(uid));
        tmp = object::new(copy(ctx));
        obj = Obj { id: move(tmp) };
        jump B2;
    label B2:
        Obj { id: uid } = move(obj);
        object::delete(move(uid));
        uid = object::new(copy(ctx));
        jump B1;
    }
}`),
    ).toEqual({ kind: 'Success' });
  });

  it('id_leak/loop: a UID replaced by object::new in a loop is still fresh after it', () => {
    expect(
      publish(`mvir 0x0::m {
    import 0x2::object;
    import 0x2::tx_context;
    import 0x2::transfer;

    public struct Obj has key {
        id: object::UID,
    }

    public entry fun transmute(ctx: &mut tx_context::TxContext) {
        let id: object::UID;
        let obj: Self::Obj;
        let i: u64;
        label l0:
        i = 0;
        id = object::new(copy(ctx));
        label loop_start:
            jump_if (copy(i) > 10) loop_end;
            object::delete(move(id));
            id = object::new(copy(ctx));
            i = move(i) + 1;
            jump loop_start;
        label loop_end:
        obj = Obj { id: move(id) };
        transfer::transfer<Self::Obj>(move(obj), tx_context::sender(freeze(copy(ctx))));
        return;
    }

}`),
    ).toEqual({ kind: 'Success' });
  });

  it('id_leak/through_call_with_borrow_field: a function packing an object with its UID parameter is rejected', () => {
    expect(
      publish(`mvir 0x0::m {
    import 0x2::object;
    import 0x2::transfer;

    public struct S has copy, drop { f: u64 }

    public struct Object has key { id: object::UID }

    fun new(id: object::UID): Self::Object {
        label l0:
        return Object { id: move(id) };
    }

    entry fun bad(obj: Self::Object) {
        let id: object::UID;
        let s: Self::S;
        let new: Self::Object;
        label l0:

        s = S { f: 0 };
        Object { id: id } = move(obj);
        (move(id));
        _ = (&(&s).S::f);
        new = Self::new();
        transfer::transfer<Self::Object>(move(new), 0x42);
        return;
    }

}`),
    ).toEqual(leak('m::new'));
  });

  it('id_leak/through_direct_return: returning an unpacked UID is fine', () => {
    expect(
      publish(`mvir 0x0::m {
    import 0x2::object;

    public struct Foo has key {
        id: object::UID,
    }

    fun foo(f: Self::Foo): object::UID {
        let id: object::UID;
        label l0:
        Foo { id } = move(f);
        return move(id);
    }

}`),
    ).toEqual({ kind: 'Success' });
  });

  it('id_leak/through_indirect_return: returning an object repacked with an unpacked UID is rejected', () => {
    expect(
      publish(`mvir 0x0::m {
    import 0x2::object;

    public struct Foo has key {
        id: object::UID,
    }

    fun foo(f: Self::Foo): Self::Foo {
        let id: object::UID;
        label l0:
        Foo { id } = move(f);
        return Foo { id: move(id) };
    }

}`),
    ).toEqual(leak('m::foo'));
  });

  it('id_leak/through_pack: a UID passed through a non-key struct is not fresh; packing a non-key struct with it is fine', () => {
    expect(
      publish(`mvir 0x0::test {
    import 0x2::object;
    import 0x2::transfer;
    import 0x2::tx_context;

    public struct A has key {
        id: object::UID
    }

    public struct C has key {
        id: object::UID
    }

    public struct B {
        id: object::UID
    }

    public entry fun test(x: Self::A) {
        let id: object::UID;
        let b: Self::B;
        let c: Self::C;

        label l0:
        A { id } = move(x);
        b = B { id: move(id) };
        B { id } = move(b);
        c = C { id: move(id) };

        transfer::transfer<Self::C>(move(c), 0x1);
        return;
    }
}`),
    ).toEqual(leak('test::test'));
    expect(
      publish(`mvir 0x0::m {
    import 0x2::object;

    public struct Foo has key {
        id: object::UID,
    }

    public struct Bar {
        id: object::UID,
        v: u64,
    }

    fun foo(f: Self::Foo) {
        let id: object::UID;
        let b: Self::Bar;
        label l0:
        Foo { id } = move(f);
        b = Bar { id: move(id), v: 0 };
        abort 0;
    }

}`),
    ).toEqual({ kind: 'Success' });
  });

  it('id_leak/through_reference: writing a UID through a reference fails the Move bytecode verifier first', () => {
    const out = publish(`mvir 0x0::m {
    import 0x2::object;

    public struct Foo has key {
        id: object::UID,
    }

    fun foo(f: Self::Foo, ref: &mut object::UID) {
        let id: object::UID;
        label l0:
        Foo { id } = move(f);
        *move(ref) = move(id);
        return;
    }

}`);
    // Upstream: VMError { major_status: WRITEREF_WITHOUT_DROP_ABILITY, indices: [(FunctionDefinition, 0)], offsets: [(FunctionDefinitionIndex(0), 5)] }
    expect(out.kind).toBe('VMVerificationOrDeserializationError');
    expect(out.message).toMatch(/^WRITEREF_WITHOUT_DROP_ABILITY \(0x[0-9a-f]{64}::m; FunctionDefinition 0; offset 5 /);
  });

  it('id_leak/through_vector: pushing an unpacked UID into a vector is fine', () => {
    expect(
      publish(`mvir 0x0::m {
    import 0x2::object;

    public struct Foo has key {
        id: object::UID,
    }

    fun foo(f: Self::Foo, v: &mut vector<object::UID>) {
        let id: object::UID;
        label l0:
        Foo { id } = move(f);
        vec_push_back<object::UID>(move(v), move(id));
        return;
    }

}`),
    ).toEqual({ kind: 'Success' });
  });

  it('id_leak/transmute: turning a Cat into a Dog with its UID is rejected', () => {
    expect(
      publish(`mvir 0x0::m {
    import 0x2::object;
    import 0x2::tx_context;
    import 0x2::transfer;

    public struct Cat has key {
        id: object::UID,
    }

    public struct Dog has key {
        id: object::UID,
    }

    public entry fun transmute(cat: Self::Cat, ctx: &mut tx_context::TxContext) {
        let cat_id: object::UID;
        let dog: Self::Dog;
        label l0:
        Cat { id: cat_id } = move(cat);
        dog = Dog { id: move(cat_id) };
        transfer::transfer<Self::Dog>(move(dog), tx_context::sender(freeze(copy(ctx))));
        return;
    }

}`),
    ).toEqual(leak('m::transmute'));
  });
});
