/**
 * Limits on the values a transaction builds and serializes, per protocol version:
 * - `max_ptb_value_size` (protocol 80 to 103, upstream v3 `execution.rs`): a `MakeMoveVec`
 *   result and a dev-inspect pure value are bounded by 1 MiB divided by the type's
 *   amplification (128 without a primitive layout: 8192 bytes); `MoveObjectTooBig`, then
 *   from `max_ptb_value_size_v2` (82) `MoveVectorElemTooBig` / `MoveRawValueTooBig`;
 * - `max_type_to_layout_nodes` (256, 512 from protocol 60; enum variants count from 72):
 *   `TOO_MANY_TYPE_NODES` before execution version 4 (protocol 119), where the values a
 *   call returns are laid out too (before 104); `VM_MAX_TYPE_NODES_REACHED` after, for events
 *   (at the call) and written objects (no command).
 * Cases from Sui's adapter tests `programmable/large_vector_v81`,
 * `programmable/large_dev_inspect_pure_v81` and `entry_points/large_enum{,_v58}`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fromFixtures, SimulationEnvironment, type TransactionOutcome } from '@smi/simulation';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { compileOnly, expectSuccess, newEnv } from './ptb-support.js';

const u8s = Array.from({ length: 16 }, () => 'u8').join(', ');
const zeros = Array.from({ length: 16 }, () => '0').join(', ');
const SOURCES = {
  'sources/m.move': `
module helper::m {
    use sui::event;

    public struct Data has copy, drop, store { f: vector<u8> }
    public enum X1 has copy, drop, store { Big1(${u8s}) }
    public enum X2 has copy, drop, store { V1(X1, X1, X1), V2(X1, X1, X1), V3(X1, X1, X1) }
    public enum X3 has copy, drop, store { X2(X2, X2, X2), U64(u64) }
    public enum X4 has copy, drop, store { X2(X3, X3, X3), U64(u64) }
    public struct S has key, store { id: UID, inner: X4 }

    public fun data(): Data { Data { f: vector::tabulate!(1024, |_| 0) } }
    public fun destroy(_: Data) {}
    public fun x1(): X1 { X1::Big1(${zeros}) }
    public fun x3(): X3 { X3::U64(0) }
    public fun x4(): X4 { X4::U64(0) }
    public fun e_x4() { event::emit(X4::U64(0)) }
    public fun s_x4(ctx: &mut TxContext) { transfer::public_transfer(S { id: object::new(ctx), inner: X4::U64(0) }, ctx.sender()) }
}
`,
};

/** Failure kind with its payload, and the failing command. */
function failure(out: TransactionOutcome): { error: unknown; command: number | null } {
  if (out.status.$kind !== 'Failure') throw new Error('the transaction succeeded');
  return { error: out.status.error, command: out.status.command };
}

describeWithFixtures('PTB value limits per protocol version', ['fixtures', 'framework-snapshots'], () => {
  let modules: Uint8Array[];
  const envs = new Map<number, { env: SimulationEnvironment; pkg: string }>();
  beforeAll(async () => {
    modules = await compileOnly(newEnv(), SOURCES);
  });

  /** An environment at protocol `v` (`0`: the newest) with the test package published. */
  function at(v: number): { env: SimulationEnvironment; pkg: string } {
    let e = envs.get(v);
    if (e === undefined) {
      const { packages, protocolConfig } = v === 0 ? fromFixtures(FIXTURES_ROOT) : fromFixtures(FIXTURES_ROOT, v);
      const env = SimulationEnvironment.create({ packages, protocolConfig });
      e = { env, pkg: env.publish(modules).packageId };
      envs.set(v, e);
    }
    return e;
  }

  /** `MakeMoveVec<Data>` of 8 copies of a 1026-byte `Data`: 1 + 8 * 1026 = 8209 bytes. */
  function vecOfData(v: number): TransactionOutcome {
    const { env, pkg } = at(v);
    const tx = env.tx();
    const d = tx.moveCall(`${pkg}::m::data`);
    tx.makeMoveVec(
      `${pkg}::m::Data`,
      Array.from({ length: 8 }, () => d),
    );
    return env.execute(tx.build());
  }

  /** Dev inspect: `destroy(Data)` given 8193 pure bytes (a `vector<u8>` of 8191 zeros). */
  function pureData(v: number): TransactionOutcome {
    const { env, pkg } = at(v);
    const bytes = new Uint8Array(8193);
    bytes.set([0xff, 0x3f]); // ULEB128 of 8191
    const tx = env.tx();
    tx.moveCall(`${pkg}::m::destroy`, [tx.pureBytes(bytes)]);
    return env.execute(tx.build(), { checks: 'relaxed' });
  }

  describe('max_ptb_value_size', () => {
    it('starts at protocol 80 with MoveObjectTooBig at the first element past the bound', () => {
      expectSuccess(vecOfData(79));
      expect(failure(vecOfData(80))).toEqual({ error: { $kind: 'MoveObjectTooBig', MoveObjectTooBig: { objectSize: 8209n, maxObjectSize: 8192n } }, command: 1 });
      expect(failure(pureData(81))).toEqual({ error: { $kind: 'MoveObjectTooBig', MoveObjectTooBig: { objectSize: 8193n, maxObjectSize: 8192n } }, command: 0 });
    });

    it('protocol 82 (max_ptb_value_size_v2) reports MoveVectorElemTooBig and MoveRawValueTooBig', () => {
      expect(failure(vecOfData(82))).toEqual({ error: { $kind: 'MoveVectorElemTooBig', MoveVectorElemTooBig: { valueSize: 8209n, maxScaledSize: 8192n } }, command: 1 });
      expect(failure(pureData(82))).toEqual({ error: { $kind: 'MoveRawValueTooBig', MoveRawValueTooBig: { valueSize: 8193n, maxScaledSize: 8192n } }, command: 0 });
    });

    it('primitive types are bounded by 1 MiB only; the newer executor (protocol 104+) has no bound', () => {
      const { env } = at(81);
      const tx = env.tx();
      const v = tx.makeMoveVec(
        'u64',
        Array.from({ length: 8 }, () => tx.pure('u64', 0)),
      );
      tx.makeMoveVec(
        'vector<u64>',
        Array.from({ length: 8 }, () => v),
      );
      expectSuccess(env.execute(tx.build()));
      expectSuccess(vecOfData(104));
      expectSuccess(pureData(0));
    });
  });

  describe('max_type_to_layout_nodes', () => {
    const call = (v: number, fn: string): TransactionOutcome => {
      const { env, pkg } = at(v);
      const tx = env.tx();
      tx.moveCall(`${pkg}::m::${fn}`);
      return env.execute(tx.build());
    };
    const verification = { $kind: 'VMVerificationOrDeserializationError', VMVerificationOrDeserializationError: true };
    const primitive = { $kind: 'MovePrimitiveRuntimeError', MovePrimitiveRuntimeError: null };

    it('protocol 58: a returned value whose layout has more than 257 nodes fails with TOO_MANY_TYPE_NODES', () => {
      expectSuccess(call(58, 'x1'));
      // X3: 1 + 3 * (1 + 9 * (1 + 16)) + 1 = 464 nodes.
      expect(failure(call(58, 'x3'))).toEqual({ error: verification, command: 0 });
    });

    it('protocol 60 raises the limit to 512; protocol 72 counts enum variants', () => {
      expectSuccess(call(60, 'x3'));
      expect(failure(call(60, 'x4'))).toEqual({ error: verification, command: 0 });
      expectSuccess(call(72, 'x3')); // 502 nodes with the variants
    });

    it('execution version 4 (protocol 119+): returns are not laid out; events and written objects are (VM_MAX_TYPE_NODES_REACHED)', () => {
      expectSuccess(call(0, 'x4'));
      expect(failure(call(0, 'e_x4'))).toEqual({ error: primitive, command: 0 });
      expect(failure(call(0, 's_x4'))).toEqual({ error: primitive, command: null });
      expect(failure(call(100, 'e_x4'))).toEqual({ error: verification, command: 0 });
    });
  });
});
