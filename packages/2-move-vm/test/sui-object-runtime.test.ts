/**
 * The non-crypto Sui natives through real framework functions: `0x2::address`,
 * `derived_object::derive_address` and dynamic-field ids (vectors from Sui's own tests,
 * the TS SDK tests and a mainnet checkpoint), `tx_context` (a fresh id from a mainnet
 * replay), objects created, transferred, shared, frozen and deleted with their owners,
 * events with their type and BCS, and `types::is_one_time_witness`.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { blake2b } from '@noble/hashes/blake2.js';
import { canonicalAddress, loadBundleFile } from '@smi/bytecode';
import { MoveVM, MoveVector, NativeRegistry, VariantValue, VecKind, loadProtocolConfig, type CallArg, type CallResult, type DatatypeInfo, type Type, PROTOCOL_135_STDLIB_COSTS } from '@smi/move-vm';
import { registerMoveStdlib } from '../src/natives/move-stdlib.js';
import { FIXTURES_ROOT, describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import {
  OBJECT_RUNTIME_KEY,
  ObjectRuntime,
  type ObjectRuntimeOptions,
  deriveObjectAddress,
  hashTypeAndKey,
  isOneTimeWitnessType,
  parseSuiTypeTag,
  registerSuiNatives,
  type SuiTypeTag,
} from '../src/natives/sui/index.js';
import { bcs, bytesVec, concat, expectAbort, hex, moveString, ok, ret, stringOf, val } from './support/golden.js';

const SUI = canonicalAddress('0x2');
const FRAMEWORK = ['move-stdlib', 'sui-framework', 'sui-system'];
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 of a 32-byte digest. */
function base58Digest(s: string): Uint8Array {
  let n = 0n;
  for (const c of s) n = n * 58n + BigInt(B58.indexOf(c));
  return Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));
}

const DIGEST = Uint8Array.from(Buffer.from('3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532', 'hex'));
const SENDER = canonicalAddress('0xa11ce');

function makeVm(): MoveVM {
  const natives = registerSuiNatives(registerMoveStdlib(new NativeRegistry()));
  return MoveVM.create({ packages: FRAMEWORK.map((f) => loadBundleFile(fixturePath('fixtures', 'framework', f))), natives });
}

function runtime(vm: MoveVM, extra: Partial<ObjectRuntimeOptions> = {}): ObjectRuntime {
  return new ObjectRuntime({
    tx: { sender: SENDER, digest: DIGEST, epoch: 7n, epochTimestampMs: 1_700_000_000_000n, gasPrice: 1000n, rgp: 750n, gasBudget: 50_000_000n, sponsor: null },
    bcs: vm.bcs,
    ...extra,
  });
}

function call(vm: MoveVM, rt: ObjectRuntime, target: string, typeArgs: string[], args: CallArg[]): CallResult {
  return vm.call(target, { typeArgs, args, allowPrivate: true, extensions: new Map([[OBJECT_RUNTIME_KEY, rt]]) });
}

/** Expected fresh id, computed here: blake2b256(0xf1 ‖ digest ‖ u64le(n)). */
function expectedFreshId(digest: Uint8Array, n: number): string {
  return '0x' + hex(blake2b(concat(Uint8Array.of(0xf1), digest, bcs.u64(n)), { dkLen: 32 }));
}

describeWithFixtures('sui natives: address, ids, objects, events', ['fixtures', 'framework'], () => {
  let vm: MoveVM;
  beforeAll(() => {
    vm = makeVm();
  });

  describe('0x2::address', () => {
    const a = canonicalAddress('0x1234abcd');
    it('from_bytes takes exactly 32 bytes, else aborts 0 in address::from_bytes', () => {
      const rt = runtime(vm);
      expect(ret(call(vm, rt, '0x2::address::from_bytes', [], [val(bytesVec(bcs.address(a)))])).value).toBe(a);
      expectAbort(call(vm, rt, '0x2::address::from_bytes', [], [val(bytesVec(new Uint8Array(31)))]), 0n, `${SUI}::address`, 'from_bytes');
      expectAbort(call(vm, rt, '0x2::address::from_bytes', [], [val(bytesVec(new Uint8Array(33)))]), 0n, `${SUI}::address`, 'from_bytes');
    });
    it('to_u256 / from_u256 are big-endian and inverse', () => {
      const rt = runtime(vm);
      expect(ret(call(vm, rt, '0x2::address::to_u256', [], [val(a)])).value).toBe(0x1234abcdn);
      expect(ret(call(vm, rt, '0x2::address::from_u256', [], [val(0x1234abcdn)])).value).toBe(a);
      const max = (1n << 256n) - 1n;
      expect(ret(call(vm, rt, '0x2::address::from_u256', [], [val(max)])).value).toBe('0x' + 'f'.repeat(64));
      expect(ret(call(vm, rt, '0x2::address::to_u256', [], [val('0x' + 'f'.repeat(64))])).value).toBe(max);
    });
    it('to_string, to_ascii_string, to_bytes, from_ascii_bytes', () => {
      const rt = runtime(vm);
      expect(stringOf(ret(call(vm, rt, '0x2::address::to_string', [], [val(a)])).value)).toBe(a.slice(2));
      expect(stringOf(ret(call(vm, rt, '0x2::address::to_ascii_string', [], [val(a)])).value)).toBe(a.slice(2));
      expect(hex(ret(call(vm, rt, '0x2::address::to_bytes', [], [val(a)])).bcs)).toBe(hex(bcs.bytes(bcs.address(a))));
      expect(ret(call(vm, rt, '0x2::address::from_ascii_bytes', [], [val(bytesVec(a.slice(2).toUpperCase()))])).value).toBe(a);
    });
  });

  describe('dynamic-field and derived-object ids', () => {
    const id = (a: string): unknown[] => [canonicalAddress(a)];
    const cases: [string, string, string, CallArg, string][] = [
      // derived_object_tests.move / sui-types derived_object.rs snapshot
      ['0x2', 'vector<u8>', 'foo', val(bytesVec('foo')), '0xa2b411aa9588c398d8e3bc97dddbdd430b5ded7f81545d05e33916c3ca0f30c3'],
      // TS SDK derived-objects tests
      ['0x2', 'u8', '1u8', val(1), '0x4de7696edddfb592a8dc7c8b66053b1557eb4fa1a9194322562aabf3da9e9239'],
      ['0xc0ffee', 'address', '@0x111', val(canonicalAddress('0x111')), '0x190ed830d9b453c5c620dc0385ced49cc84804644f5dbe66aa08c0e21947d1d4'],
      ['0xc0ffee', '0x1::string::String', '"foo"', val(moveString('foo')), '0x699219f4a2b6cfb8640bb853fc4ab4f497da038ec0614bfa2835aa27993399db'],
      ['0xc0ffee', 'vector<u8>', '[0,1,2]', val(bytesVec([0, 1, 2])), '0x9067661aa45d09dac59d3eec926f8cfabb6e1ec57a9803ebc170723d3b19a9e2'],
    ];
    for (const [parent, keyType, shown, key, expected] of cases) {
      it(`derived_object::derive_address(${parent}, ${keyType} ${shown})`, () => {
        expect(ret(call(vm, runtime(vm), '0x2::derived_object::derive_address', [keyType], [val(id(parent)), key])).value).toBe(expected);
      });
    }
    it('struct keys of the snapshot tests (types of a test module: hashed from their tags)', () => {
      const demo = parseSuiTypeTag('0x2::derived_object_tests::DemoStruct');
      expect(deriveObjectAddress('0x2', demo, bcs.u64(1))).toBe('0x20c58d8790a5d2214c159c23f18a5fdc347211e511186353e785ad543abcea6b');
      const generic = parseSuiTypeTag('0x2::derived_object_tests::GenericStruct<u64>');
      expect(deriveObjectAddress('0x2', generic, bcs.u64(1))).toBe('0xb497b8dcf1e297ae5fa69c040e4a08ef8240d5373bbc9d6b686ffbd7dfe04cbe');
    });
    it('hash_type_and_key<u64> (TS SDK vector)', () => {
      const parent = '0xbef336120c90707eb387d72dde9c0e9f6fea37b9f02b1ba8de271c64ad7b6db0';
      const r = call(vm, runtime(vm), '0x2::dynamic_field::hash_type_and_key', ['u64'], [val(parent), val(0n)]);
      expect(ret(r).value).toBe('0x6552700b707460a3f48d8348f7531c4bba7a9546b4cf445ba265ad2ba06b1bb3');
    });
  });

  describeWithFixtures('dynamic-field ids of a mainnet checkpoint', ['fixtures', 'checkpoints', 'checkpoint_238627324.json'], () => {
    interface JsonTag {
      vector?: JsonTag;
      struct?: { address: string; module: string; name: string; type_args: JsonTag[] };
    }
    const toTag = (j: JsonTag | string): SuiTypeTag => {
      if (typeof j === 'string') return j as SuiTypeTag;
      if (j.vector !== undefined) return { vector: toTag(j.vector) };
      const s = j.struct as NonNullable<JsonTag['struct']>;
      return { struct: { address: canonicalAddress(s.address), module: s.module, name: s.name, type_args: s.type_args.map(toTag) } };
    };
    /** Byte length of a key of this type at the start of `b` (the types this checkpoint uses). */
    const keyLength = (tag: SuiTypeTag, b: Uint8Array): number | null => {
      if (tag === 'u64') return 8;
      if (typeof tag === 'object' && 'vector' in tag && tag.vector === 'u8') return 1 + b[0];
      if (typeof tag === 'object' && 'struct' in tag && tag.struct.name === 'ID') return 32;
      if (typeof tag === 'object' && 'struct' in tag && tag.struct.name === 'BalanceKey') return 1;
      return null;
    };
    it('every Field object with a known key layout has id = hash_type_and_key(owner, key)', () => {
      const data = JSON.parse(readFileSync(fixturePath('fixtures', 'checkpoints', 'checkpoint_238627324.json'), 'utf8')) as {
        transactions: { output_objects: { data: { Move?: { type_: { Other?: { name: string; type_args: JsonTag[] } }; contents: string } }; owner: { ObjectOwner?: string } }[] }[];
      };
      const checked = new Set<string>();
      for (const tx of data.transactions) {
        for (const o of tx.output_objects) {
          const m = o.data.Move;
          const other = m?.type_.Other;
          if (m === undefined || other?.name !== 'Field' || o.owner.ObjectOwner === undefined) continue;
          const contents = Uint8Array.from(Buffer.from(m.contents, 'base64'));
          const keyTag = toTag(other.type_args[0]);
          const n = keyLength(keyTag, contents.subarray(32));
          if (n === null) continue;
          const id = '0x' + hex(contents.subarray(0, 32));
          expect(hashTypeAndKey(o.owner.ObjectOwner, keyTag, contents.subarray(32, 32 + n))).toBe(id);
          checked.add(id);
        }
      }
      expect(checked.has('0xc2add9f11c337cb7a9766dc4fd38ce7b886a9d17f122e413efead7d11fb3f5b5')).toBe(true);
      expect(checked.size).toBeGreaterThanOrEqual(6);
    });
    it('the created 0xc2add9f1… through the VM: hash_type_and_key<vector<u8>>(0x4ab8…, b"metadata")', () => {
      const parent = '0x4ab8730c8ab2b69e7e03c61c807c735c169042370fc1ee3201a07be3bb0ef2b7';
      const r = call(vm, runtime(vm), '0x2::dynamic_field::hash_type_and_key', ['vector<u8>'], [val(parent), val(bytesVec('metadata'))]);
      expect(ret(r).value).toBe('0xc2add9f11c337cb7a9766dc4fd38ce7b886a9d17f122e413efead7d11fb3f5b5');
    });
  });

  describe('tx_context', () => {
    it('fresh ids: blake2b256(0xf1 ‖ digest ‖ u64le(n)), counted by ids_created', () => {
      const rt = runtime(vm);
      const ctx = rt.txContextValue();
      for (let n = 0; n < 3; n++) {
        const r = call(vm, rt, '0x2::tx_context::fresh_object_address', [], [val(ctx)]);
        expect(ret(r).value).toBe(expectedFreshId(DIGEST, n));
      }
      expect(rt.idsCreated).toBe(3n);
      expect(ret(call(vm, rt, '0x2::tx_context::native_ids_created', [], [])).value).toBe(3n);
      expect(rt.results().createdIds).toEqual([0, 1, 2].map((n) => expectedFreshId(DIGEST, n)));
    });
    it('the package created by mainnet transaction 4fxF3X4N… is its fresh id #0', () => {
      const rt = runtime(vm, {
        tx: { sender: SENDER, digest: base58Digest('4fxF3X4N8D6JGByWdbJvCCv1iuoT8GSEhXgPHJnzNHWP'), epoch: 158n, epochTimestampMs: 0n, gasPrice: 1000n, rgp: 1000n, gasBudget: 1n, sponsor: null },
      });
      expect(ret(call(vm, rt, '0x2::tx_context::fresh_object_address', [], [val(rt.txContextValue())])).value).toBe('0x0440aedc27c9a57ea357bd8fe1525a00d60d7f442a380924a7e7c1d79853bb8b');
    });
    it('sender, epoch, timestamp, prices, sponsor and digest come from the runtime', () => {
      const sponsor = canonicalAddress('0x5');
      const rt = new ObjectRuntime({
        tx: { sender: SENDER, digest: DIGEST, epoch: 7n, epochTimestampMs: 1_700_000_000_000n, gasPrice: 1000n, rgp: 750n, gasBudget: 50_000_000n, sponsor },
        bcs: vm.bcs,
      });
      const ctx = val(rt.txContextValue());
      const get = (f: string): unknown => ret(call(vm, rt, `0x2::tx_context::${f}`, [], [ctx])).value;
      expect(get('sender')).toBe(SENDER);
      expect(get('epoch')).toBe(7n);
      expect(get('epoch_timestamp_ms')).toBe(1_700_000_000_000n);
      expect(get('reference_gas_price')).toBe(750n);
      expect(get('gas_price')).toBe(1000n);
      expect(hex(ret(call(vm, rt, '0x2::tx_context::sponsor', [], [ctx])).bcs)).toBe(hex(bcs.option(bcs.address(sponsor))));
      expect(hex(ret(call(vm, rt, '0x2::tx_context::digest', [], [ctx])).bcs)).toBe(hex(bcs.bytes(DIGEST)));
      expect(ret(call(vm, rt, '0x2::tx_context::native_gas_budget', [], [])).value).toBe(50_000_000n);
      expect(hex(ret(call(vm, runtime(vm), '0x2::tx_context::sponsor', [], [ctx])).bcs)).toBe('00');
    });
    it('derive_id records the id as created; a bad digest length is an invariant violation', () => {
      const rt = runtime(vm);
      const r = call(vm, rt, '0x2::tx_context::derive_id', [], [val(bytesVec(DIGEST)), val(5n)]);
      expect(ret(r).value).toBe(expectedFreshId(DIGEST, 5));
      expect(rt.results().createdIds).toEqual([expectedFreshId(DIGEST, 5)]);
      const bad = call(vm, rt, '0x2::tx_context::derive_id', [], [val(bytesVec(new Uint8Array(31))), val(0n)]);
      expect(bad.$kind === 'Error' && bad.code).toBe('UNKNOWN_INVARIANT_VIOLATION_ERROR');
    });
    describe('test runs: tx_context::replace (sui move test)', () => {
      const replace = registerSuiNatives(new NativeRegistry()).get(SUI, 'tx_context', 'replace');
      const native = (rt: ObjectRuntime | null, args: unknown[]): unknown[] => {
        const extensions = new Map<string, unknown>(rt === null ? [] : [[OBJECT_RUNTIME_KEY, rt]]);
        const ctx = {
          types: vm.types,
          bcs: vm.bcs,
          costs: PROTOCOL_135_STDLIB_COSTS,
          limits: { maxVectorLength: 1 << 20, maxValueDepth: null },
          charge: () => undefined,
          typeTag: () => '',
          originalIdOf: (a: string) => a,
          debugPrint: () => undefined,
          extensions,
          stackTrace: () => '',
        };
        if (replace === undefined) throw new Error('no replace native');
        return replace(ctx, [], args);
      };
      const other = canonicalAddress('0xb0b');
      // Protocol 78..87 frameworks: 8 arguments (no reference gas price); later ones 9.
      const old = [other, MoveVector.fromBytes(DIGEST), 3n, 4n, 5n, 6n, 7n, MoveVector.fromValues(VecKind.Boxed, [SENDER])];
      it('outside a test run it is an invariant violation, as upstream', () => {
        expect(() => native(runtime(vm), old)).toThrow(/non testing scenario/);
        expect(() => native(null, old)).toThrow(/non testing scenario/);
        expect(() => runtime(vm).replaceTx({ ...runtime(vm).tx, epoch: 1n })).toThrow(/non testing scenario/);
      });
      it('in a test run it replaces the transaction the natives see, ids counted from its ids_created', () => {
        const rt = runtime(vm, { isTest: true });
        expect(native(rt, old)).toEqual([]);
        expect(rt.tx).toMatchObject({ sender: other, epoch: 3n, epochTimestampMs: 4n, rgp: 750n, gasPrice: 6n, gasBudget: 7n, sponsor: SENDER });
        expect(rt.idsCreated).toBe(5n);
        expect(ret(call(vm, rt, '0x2::tx_context::native_sender', [], [])).value).toBe(other);
        expect(ret(call(vm, rt, '0x2::tx_context::fresh_id', [], [])).value).toBe(expectedFreshId(DIGEST, 5));
        const zero = new Uint8Array(32);
        native(rt, [SENDER, MoveVector.fromBytes(zero), 0n, 0n, 0n, 1n, 2n, 3n, MoveVector.fromValues(VecKind.Boxed, [])]);
        expect(rt.tx).toMatchObject({ sender: SENDER, rgp: 1n, gasPrice: 2n, gasBudget: 3n, sponsor: null });
        expect(hex(rt.tx.digest)).toBe(hex(zero));
        expect(() => native(rt, [SENDER, MoveVector.fromBytes(new Uint8Array(31)), 0n, 0n, 0n, 0n, 0n, MoveVector.fromValues(VecKind.Boxed, [])])).toThrow(/32 bytes/);
      });
    });
    it('natives that need the runtime fail clearly without one', () => {
      const r = vm.call('0x2::tx_context::native_sender', { allowPrivate: true });
      expect(r.$kind === 'Error' && r.code).toBe('UNKNOWN_INVARIANT_VIOLATION_ERROR');
      expect(r.$kind === 'Error' && r.message).toMatch(/ObjectRuntime/);
    });
  });

  describe('objects: creation, transfer, share, freeze, delete', () => {
    it('coin::mint → transfer::public_transfer records AddressOwner, a created id and the object', () => {
      const rt = runtime(vm);
      const ctx = val(rt.txContextValue());
      const supply = ok(call(vm, rt, '0x2::balance::create_supply', ['0x2::sui::SUI'], [val([false])]));
      const cap = [supply.returnValues[0].value];
      // TreasuryCap is made by coin::create_currency; here: mint a balance, wrap as Coin, transfer.
      const bal = ret(call(vm, rt, '0x2::balance::increase_supply', ['0x2::sui::SUI'], [val(cap[0]), val(100n)])).value;
      const coin = ret(call(vm, rt, '0x2::coin::from_balance', ['0x2::sui::SUI'], [val(bal), ctx])).value;
      const recipient = canonicalAddress('0xb0b');
      ok(call(vm, rt, '0x2::transfer::public_transfer', ['0x2::coin::Coin<0x2::sui::SUI>'], [val(coin), val(recipient)]));
      const res = rt.results();
      const id = expectedFreshId(DIGEST, 0);
      expect(res.createdIds).toEqual([id]);
      expect(res.writes).toHaveLength(1);
      const w = res.writes[0];
      expect(w.id).toBe(id);
      expect(w.owner).toEqual({ $kind: 'AddressOwner', address: recipient });
      expect(w.typeTag).toBe(`${SUI}::coin::Coin<${SUI}::sui::SUI>`);
      expect(hex(w.bcs)).toBe(hex(concat(bcs.address(id), bcs.u64(100))));
    });
    it('share_object of a new object is Shared; of an input owned object aborts 0 (ESharedNonNewObject)', () => {
      const rt = runtime(vm);
      const uid = ret(call(vm, rt, '0x2::object::new', [], [val(rt.txContextValue())])).value;
      // A Clock-like value would need a friend; use coin::Coin via balance::zero.
      const zero = ret(call(vm, rt, '0x2::balance::zero', ['0x2::sui::SUI'], [])).value;
      const coin = [uid, zero];
      ok(call(vm, rt, '0x2::transfer::public_share_object', ['0x2::coin::Coin<0x2::sui::SUI>'], [val(coin)]));
      expect(rt.results().writes[0].owner).toEqual({ $kind: 'Shared', initialSharedVersion: 0n });

      const owned = canonicalAddress('0x0b1ec7');
      const rt2 = runtime(vm, { inputObjects: [{ id: owned, owner: { $kind: 'AddressOwner', address: SENDER }, version: 3n }] });
      const r = call(vm, rt2, '0x2::transfer::public_share_object', ['0x2::coin::Coin<0x2::sui::SUI>'], [val([[[owned]], [0n]])]);
      expectAbort(r, 0n, `${SUI}::transfer`, 'share_object_impl');
    });
    it('freeze_object is Immutable; object::delete of an input id is recorded as deleted', () => {
      const rt = runtime(vm);
      const uid = ret(call(vm, rt, '0x2::object::new', [], [val(rt.txContextValue())])).value;
      ok(call(vm, rt, '0x2::transfer::public_freeze_object', ['0x2::coin::Coin<0x2::sui::SUI>'], [val([uid, [0n]])]));
      expect(rt.results().writes.map((w) => w.owner)).toEqual([{ $kind: 'Immutable' }]);

      const old = canonicalAddress('0x01d');
      ok(call(vm, rt, '0x2::object::delete', [], [val([[old]])]));
      const uid2 = ret(call(vm, rt, '0x2::object::new', [], [val(rt.txContextValue())])).value as unknown[];
      ok(call(vm, rt, '0x2::object::delete', [], [val(uid2)]));
      const res = rt.results();
      expect(res.deletedIds).toEqual([old]);
      expect(res.createdIds).toEqual([expectedFreshId(DIGEST, 0)]);
      expect(res.generatedIds).toEqual([expectedFreshId(DIGEST, 0), expectedFreshId(DIGEST, 1)]);
    });
    it('party transfer records ConsensusAddressOwner', () => {
      const rt = runtime(vm);
      const uid = ret(call(vm, rt, '0x2::object::new', [], [val(rt.txContextValue())])).value;
      const owner = canonicalAddress('0xca7');
      const party = ret(call(vm, rt, '0x2::party::single_owner', [], [val(owner)])).value;
      ok(call(vm, rt, '0x2::transfer::public_party_transfer', ['0x2::coin::Coin<0x2::sui::SUI>'], [val([uid, [0n]]), val(party)]));
      expect(rt.results().writes[0].owner).toEqual({ $kind: 'ConsensusAddressOwner', owner, startVersion: 0n });
    });
    it('object::borrow_uid / uid_to_address read the object id', () => {
      const rt = runtime(vm);
      const id = canonicalAddress('0x1d');
      const r = call(vm, rt, '0x2::object::id', ['0x2::coin::Coin<0x2::sui::SUI>'], [val([[[id]], [0n]])]);
      expect(ret(r).value).toEqual([id]);
    });
  });

  describe('events', () => {
    it('event::emit records the type and BCS in order', () => {
      const rt = runtime(vm);
      ok(call(vm, rt, '0x2::event::emit', ['0x1::string::String'], [val(moveString('hello'))]));
      ok(call(vm, rt, '0x2::event::emit', ['0x2::object::ID'], [val([canonicalAddress('0x42')])]));
      const ev = rt.results().events;
      expect(ev.map((e) => e.typeTag)).toEqual([`${canonicalAddress('0x1')}::string::String`, `${SUI}::object::ID`]);
      expect(hex(ev[0].bcs)).toBe(hex(bcs.bytes('hello')));
      expect(hex(ev[1].bcs)).toBe(hex(bcs.address('0x42')));
    });
    it('max_num_event_emit and max_event_emit_size are MEMORY_LIMIT_EXCEEDED with upstream sub-statuses', () => {
      const rt = runtime(vm);
      for (let i = 0; i < 1024; i++) ok(call(vm, rt, '0x2::event::emit', ['0x2::object::ID'], [val([SUI])]));
      const r = call(vm, rt, '0x2::event::emit', ['0x2::object::ID'], [val([SUI])]);
      expect(r.$kind === 'Error' && [r.code, r.subStatus]).toEqual(['MEMORY_LIMIT_EXCEEDED', 0n]);
      const big = call(vm, runtime(vm), '0x2::event::emit', ['0x1::string::String'], [val(moveString(new Uint8Array(256_000)))]);
      expect(big.$kind === 'Error' && [big.code, big.subStatus]).toEqual(['MEMORY_LIMIT_EXCEEDED', 1n]);
    });
  });

  describe('types::is_one_time_witness', () => {
    it('true only for a one-bool-field struct named as its module in upper case', () => {
      const rt = runtime(vm);
      const otw = (t: string, v: unknown): unknown => ret(call(vm, rt, '0x2::types::is_one_time_witness', [t], [val(v)])).value;
      expect(otw('0x2::sui::SUI', [false])).toBe(true);
      expect(otw('u64', 1n)).toBe(false);
      expect(otw('bool', true)).toBe(false);
      expect(otw('vector<u8>', bytesVec([]))).toBe(false);
      expect(otw('0x2::object::ID', [SUI])).toBe(false);
      // one bool field, but not named DENY_LIST
      expect(otw('0x2::deny_list::GlobalPauseKey', [false])).toBe(false);
      // an enum is never a witness
      expect(otw('0x2::coin_registry::MetadataCapState', new VariantValue(1, []))).toBe(false);
      expect(otw('0x1::option::Option<bool>', [MoveVector.fromValues(VecKind.Bool, [])])).toBe(false);
    });
    it('generic witnesses fail only under hardened_otw_check; the field type is the instantiated one', () => {
      const t = vm.types;
      const info = (module: string, name: string, field: Type, typeParams: number): DatatypeInfo => ({
        uid: t.datatypeUid(),
        address: canonicalAddress('0xabc'),
        module,
        name,
        definingId: canonicalAddress('0xabc'),
        abilities: 4,
        typeParams: Array.from({ length: typeParams }, () => ({ constraints: 0, isPhantom: false })),
        isEnum: false,
        fields: () => [{ name: 'f', type: field }],
        variants: () => [],
      });
      const plain = t.datatype(info('my_coin', 'MY_COIN', t.bool, 0), []);
      expect(isOneTimeWitnessType({ types: t }, plain, true)).toBe(true);
      const generic = t.datatype(info('w', 'W', t.typeParameter(0), 1), [t.bool]);
      expect(isOneTimeWitnessType({ types: t }, generic, true)).toBe(false);
      expect(isOneTimeWitnessType({ types: t }, generic, false)).toBe(true);
      expect(isOneTimeWitnessType({ types: t }, t.datatype(info('w', 'W', t.typeParameter(0), 1), [t.u8]), false)).toBe(false);
      expect(isOneTimeWitnessType({ types: t }, t.datatype(info('my_coin', 'My_Coin', t.bool, 0), []), true)).toBe(false);
    });
    it("protocol 1 has no hardened check (flag read from the runtime's protocol config)", () => {
      const rt = runtime(vm, { protocolConfig: loadProtocolConfig(FIXTURES_ROOT, 1) });
      expect(rt.flag('hardened_otw_check')).toBe(false);
      expect(runtime(vm, { protocolConfig: loadProtocolConfig(FIXTURES_ROOT, 135) }).flag('hardened_otw_check')).toBe(true);
    });
  });
});
