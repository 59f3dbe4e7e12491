/**
 * Sui's own verifier passes through a real `Publish`: modules of upstream's
 * `sui-verifier-transactional-tests` (Move IR, compiled here against the framework) fail
 * with `SuiMoveVerificationError` and upstream's message (addresses, printed as 64 hex
 * digits, shown as upstream's snapshots show them: `_` for the package, `sui` for 0x2), or publish.
 */
import { beforeAll, expect, it } from 'vitest';
import { canonicalAddress, type CompiledModule } from '@smi/bytecode';
import { compileIrModule } from '@smi/move-ir';
import { fromFixtures, SimulationEnvironment } from '@smi/simulation';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';

const SUI = '0'.repeat(63) + '2';
const FRAMEWORK = ['0x1', '0x2'].map((a) => canonicalAddress(a));

/** Addresses as upstream's snapshots show them: `sui` for 0x2, `_` for the published package. */
function snapshotNames(message: string): string {
  return message.replace(/\b[0-9a-f]{64}\b/g, (a) => (a === SUI ? 'sui' : '_'));
}

interface Outcome {
  kind: string;
  message?: string;
}

describeWithFixtures('Sui verifier passes on Publish (upstream sui-verifier-transactional-tests)', ['fixtures', 'framework'], () => {
  let env: SimulationEnvironment;
  const deps = (address: string, name: string): CompiledModule | undefined => env.vm.packageById(canonicalAddress(address))?.modules.find((m) => m.name === name)?.module;
  const publish = (source: string, on: SimulationEnvironment = env): Outcome => {
    const previous = env;
    env = on;
    try {
      const bytes = compileIrModule(source, { dependencies: deps }).bytes;
      const tx = on.tx();
      const cap = tx.publish([bytes], FRAMEWORK);
      tx.transferObjects([cap], tx.pure('address', on.sender));
      const out = on.execute(tx.build());
      if (out.status.$kind !== 'Failure') return { kind: 'Success' };
      return { kind: (out.status.error as { $kind: string }).$kind, message: snapshotNames(out.status.message) };
    } finally {
      env = previous;
    }
  };
  const rejected = (message: string): Outcome => ({ kind: 'SuiMoveVerificationError', message });

  beforeAll(() => {
    const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
    env = SimulationEnvironment.create({ packages: packages.filter((p) => FRAMEWORK.includes(p.id) || p.id === canonicalAddress('0x3')), protocolConfig });
  });

  it('one_time_witness/bool_field: a valid one-time witness publishes and init receives it', () => {
    expect(
      publish(`mvir 0x0::m {
    import 0x2::tx_context;
    public struct M has drop { some_field: bool }
    fun init(_otw: Self::M, _ctx: &mut tx_context::TxContext) {
        label l0:
        return;
    }
}`),
    ).toEqual({ kind: 'Success' });
  });

  it('one_time_witness/instantiate: packing the witness outside init', () => {
    expect(
      publish(`mvir 0x0::m {
    import 0x2::tx_context;
    public struct M has drop { dummy: bool }
    fun init(_otw: Self::M, _ctx: &mut tx_context::TxContext) {
        label l0:
        return;
    }
    fun pack(): Self::M {
        label l0:
        return M { dummy: false };
    }
}`),
    ).toEqual(rejected(`one-time witness type _::m::M is instantiated in the _::m::pack function and must never be`));
  });

  it('one_time_witness/no_drop, wrong_init_type, no_init_arg and wrong_field_type_with_init', () => {
    expect(
      publish(`mvir 0x0::m {
    import 0x2::tx_context;
    public struct M { dummy: bool }
    fun init(otw: Self::M, _ctx: &mut tx_context::TxContext) {
        label l0:
        M {} = move(otw);
        _ = ();
        return;
    }
}`),
    ).toEqual(rejected(`one-time witness type candidate _::m::M must have a single ability: drop`));
    const firstParam = rejected(
      `init function of a module containing one-time witness type candidate must have _::m::M as the first parameter (a struct which has no fields or a single field of type bool)`,
    );
    expect(
      publish(`mvir 0x0::m {
    import 0x2::tx_context;
    public struct M has drop { dummy: bool }
    public struct N has drop { dummy: bool }
    fun init(_otw: Self::N, _ctx: &mut tx_context::TxContext) {
        label l0:
        return;
    }
}`),
    ).toEqual(firstParam);
    expect(
      publish(`mvir 0x0::m {
    import 0x2::tx_context;
    public struct M has drop { dummy: bool }
    fun init(_ctx: &mut tx_context::TxContext) {
        label l0:
        return;
    }
}`),
    ).toEqual(firstParam);
    expect(
      publish(`mvir 0x0::m {
    import 0x2::tx_context;
    public struct M has drop { value: u64 }
    fun init(_otw: Self::M, _ctx: &mut tx_context::TxContext) {
        label l0:
        return;
    }
}`),
    ).toEqual(
      rejected(
        `Expected last (and at most second) parameter for _::m::init to be &mut sui::tx_context::TxContext or &sui::tx_context::TxContext; ` +
          `optional first parameter must be of one-time witness type whose name is the same as the capitalized module name (_::m::M) and which has no fields or a single field of type bool`,
      ),
    );
  });

  it('one_time_witness/type_param: the entry points pass rejects the generic init first', () => {
    expect(
      publish(`mvir 0x0::m {
    import 0x2::tx_context;
    public struct M<phantom T> has drop { dummy: bool }
    fun init<T>(_otw: Self::M<T>, _ctx: &mut tx_context::TxContext) {
        label l0:
        return;
    }
}`),
    ).toEqual(rejected(`_::m. 'init' function cannot have type parameters`));
  });

  it('init/not_private and init/cannot_call_init', () => {
    expect(
      publish(`mvir 0x0::m {
    import 0x2::tx_context;
    public fun init(ctx: &mut tx_context::TxContext) {
        label l0:
        abort 0;
    }
}`),
    ).toEqual(rejected(`_::m. 'init' function must be private`));
    expect(
      publish(`mvir 0x0::m {
    import 0x2::tx_context;
    fun init(ctx: &mut tx_context::TxContext) {
        label l0:
        abort 0;
    }
    public entry fun init_again(ctx: &mut tx_context::TxContext) {
        label l0:
        Self::init(move(ctx));
        return;
    }
}`),
    ).toEqual(rejected(`_::m::init at offset 1. Cannot call a module's 'init' function from another Move function`));
  });

  it('enums/enum_with_key_only and a key struct without id', () => {
    expect(
      publish(`mvir 0x0::f {
    public enum X has key {
        A { }
    }
}`),
    ).toEqual(rejected("Enum X cannot have the 'key' ability. Enums cannot have the 'key' ability."));
    expect(
      publish(`mvir 0x0::f {
    public struct S has key { value: u64 }
}`),
    ).toEqual(rejected("First field of struct S must be 'id', value found"));
  });

  it('private_generics: transfer::transfer of a type of another module (v2 message at the latest protocol)', () => {
    expect(
      publish(`mvir 0x0::m {
    import 0x2::transfer;
    import 0x2::coin;
    import 0x2::sui;
    fun t(c: coin::Coin<sui::SUI>) {
        label l0:
        transfer::transfer<coin::Coin<sui::SUI>>(move(c), 0x1);
        return;
    }
}`),
    ).toEqual(
      rejected(
        `_::m::t. Invalid call to 'sui::transfer::transfer'. Type argument #0 must be a type defined in the current module, found '0x2::coin::Coin<0x2::sui::SUI>'. ` +
          "If the type has the 'store' ability, use the public variant instead: 'sui::transfer::public_transfer'.",
      ),
    );
  });

  it('entry_points/clock_mut: rejected before protocol 108, accepted after (signature check disabled)', () => {
    const source = `mvir 0x0::m {
    import 0x2::clock;
    public entry fun no_clock_mut(l0: &mut clock::Clock) {
        label l0:
        abort 0;
    }
}`;
    expect(publish(source)).toEqual({ kind: 'Success' });
    const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT, 100);
    const old = SimulationEnvironment.create({ packages, protocolConfig });
    expect(publish(source, old)).toEqual(rejected('Invalid entry point parameter type. Clock must be passed by immutable reference. got: &mut 0x2::clock::Clock'));
  });
});
