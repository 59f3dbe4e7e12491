/**
 * Issue 5 acceptance, part 2d: the system objects `Clock` (0x6) and `Random` (0x8).
 *
 * - `Clock`: a value built through the VM API (`Clock { id: 0x6, timestamp_ms }`) read by
 *   `clock::timestamp_ms` and by `demo::timed::expired` (compiled offline); and the real
 *   `clock::create` / `consensus_commit_prologue`, which only the system address (0x0) may call.
 * - `Random`: built the way the chain does, offline: `random::create` (sender 0x0) shares
 *   0x8 whose `RandomInner` lives in a `versioned` dynamic field; `update_randomness_state`
 *   (sender 0x0) installs the beacon bytes; a user transaction then gets the shared object
 *   as BCS input and its inner field through a child store, and draws numbers with
 *   `random::new_generator` (directly and from `demo::timed::draw`). Every draw is checked
 *   against a JS model of the generator (HMAC-SHA3-256 blocks, bytes popped from the back).
 *   A generator "from a seed" (upstream's test-only constructor) is a value built directly.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { hmac } from '@noble/hashes/hmac.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { canonicalAddress } from '@smi/bytecode';
import { MoveVector, VecKind, type MoveVM, type StoredObject } from '@smi/move-vm';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { compileDemo } from './support/compile.js';
import { bcs, bytesVec, concat, expectAbort, hex, val } from './support/golden.js';
import { TIMED } from './support/sui-framework-sources.js';
import { SUI_ADDR, SuiSession, ZERO_ADDR, dynamicFieldId, fullTag, owner, suiVm, uidValue } from './support/sui-session.js';

const CLOCK = canonicalAddress('0x6');
const RANDOM = canonicalAddress('0x8');
const BEACON = Uint8Array.from({ length: 32 }, (_, i) => (i * 29 + 5) & 0xff);
const USER_DIGEST = Uint8Array.from({ length: 32 }, (_, i) => (i * 13 + 1) & 0xff);

/** JS model of `sui::random::RandomGenerator`. */
class Generator {
  counter = 0;
  buffer: number[] = [];
  constructor(readonly seed: Uint8Array) {}
  private block(): number[] {
    this.counter += 1;
    return [...hmac(sha3_256, this.seed, bcs.u16(this.counter))];
  }
  bytes(n: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < Math.floor(n / 32); i++) out.push(...this.block());
    if (this.buffer.length < n - out.length) this.buffer.push(...this.block());
    while (out.length < n) out.push(this.buffer.pop() as number);
    return out;
  }
  uint(numBytes: number): bigint {
    if (this.buffer.length < numBytes) this.buffer.push(...this.block());
    let r = 0n;
    for (let i = 0; i < numBytes; i++) r = (r << 8n) + BigInt(this.buffer.pop() as number);
    return r;
  }
  inRange(min: bigint, max: bigint, numBytes: number): bigint {
    if (min === max) return min;
    return min + (this.uint(numBytes) % (max - min + 1n));
  }
  shuffle<T>(v: T[]): void {
    if (v.length === 0) return;
    const end = v.length - 1;
    for (let i = 0; i < end; i++) {
      const j = Number(this.inRange(BigInt(i), BigInt(end), 10));
      [v[i], v[j]] = [v[j], v[i]];
    }
  }
}

describeWithFixtures('sui framework: Clock and Random', ['fixtures', 'framework'], () => {
  let vm: MoveVM;
  beforeAll(async () => {
    const demo = await compileDemo({ 'timed.move': TIMED });
    vm = suiVm([demo.pkg]);
  });

  describe('clock', () => {
    it('a Clock value: timestamp_ms and demo::timed::expired', () => {
      const s = new SuiSession(vm);
      const clock = val([uidValue(CLOCK), 1_700_000_123_456n]);
      expect(s.value('0x2::clock::timestamp_ms', [], [clock])).toBe(1_700_000_123_456n);
      expect(s.value('0x0::timed::expired', [], [clock, val(1_700_000_123_456n)])).toBe(true);
      expect(s.value('0x0::timed::expired', [], [clock, val(1_700_000_123_457n)])).toBe(false);
    });

    it('clock::create (system only) shares 0x6 at time 0; consensus_commit_prologue sets the time (system only)', () => {
      const user = new SuiSession(vm);
      expectAbort(user.call('0x2::clock::create', [], [user.ctx]), 0n, `${SUI_ADDR}::clock`, 'create');
      const sys = new SuiSession(vm, { sender: ZERO_ADDR });
      expect(sys.call('0x2::clock::create', [], [sys.ctx]).$kind).toBe('Success');
      const w = sys.write(CLOCK);
      expect([w.owner, w.typeTag, hex(w.bcs)]).toEqual([owner.shared(), fullTag('0x2::clock::Clock'), hex(concat(bcs.address(CLOCK), bcs.u64(0)))]);
      expect(sys.results().createdIds).toEqual([CLOCK]);
      const [clock] = sys.mut('0x2::clock::consensus_commit_prologue', [], w.value, [val(42_000n), sys.ctx]);
      expect(sys.value('0x2::clock::timestamp_ms', [], [val(clock)])).toBe(42_000n);
      expectAbort(user.call('0x2::clock::consensus_commit_prologue', [], [val(clock), val(1n), user.ctx]), 0n, `${SUI_ADDR}::clock`, 'consensus_commit_prologue');
    });
  });

  describe('random', () => {
    /** System transaction: create 0x8 and install the beacon of round 1; returns the stored objects. */
    function bootstrap(): { sys: SuiSession; versioned: string; field: string; stored: Map<string, StoredObject> } {
      const sys = new SuiSession(vm, { sender: ZERO_ADDR, epoch: 7n });
      expect(sys.call('0x2::random::create', [], [sys.ctx]).$kind).toBe('Success');
      const versioned = sys.freshId(0);
      const field = dynamicFieldId(versioned, 'u64', bcs.u64(1));
      let random = sys.write(RANDOM).value;
      // RandomInner { version, epoch, randomness_round, random_bytes }: round 0 until the first update
      expect(hex(sys.write(field).bcs)).toBe(hex(concat(bcs.address(field), bcs.u64(1), bcs.u64(1), bcs.u64(7), bcs.u64(0), bcs.bytes(new Uint8Array(0)))));
      // same epoch: only round 0 + 1 is accepted (EInvalidRandomnessUpdate 2)
      expectAbort(sys.call('0x2::random::update_randomness_state', [], [val(random), val(5n), val(bytesVec(BEACON)), sys.ctx]), 2n, `${SUI_ADDR}::random`, 'update_randomness_state');
      [random] = sys.mut('0x2::random::update_randomness_state', [], random, [val(1n), val(bytesVec(BEACON)), sys.ctx]);
      const stored = new Map<string, StoredObject>(sys.results().writes.map((w) => [w.id, { type: w.typeTag, bcs: w.bcs, version: 10n, owner: w.owner }]));
      return { sys, versioned, field, stored };
    }

    /** A user transaction with 0x8 as a shared input and its children in a child store. */
    function userSession(versioned: string, stored: Map<string, StoredObject>): SuiSession {
      return new SuiSession(vm, {
        digest: USER_DIGEST,
        runtime: {
          inputObjects: [{ id: RANDOM, owner: { $kind: 'Shared', initialSharedVersion: 1n }, version: 10n, containedUids: [RANDOM, versioned] }],
          childStore: (_parent, child) => stored.get(child),
        },
      });
    }

    it('random::create (system only) shares 0x8 with a versioned RandomInner child; update_randomness_state writes the beacon into it', () => {
      const user = new SuiSession(vm);
      expectAbort(user.call('0x2::random::create', [], [user.ctx]), 0n, `${SUI_ADDR}::random`, 'create');
      const { sys, versioned, field } = bootstrap();
      const res = sys.results();
      const r = sys.write(RANDOM);
      expect([r.owner, r.typeTag]).toEqual([owner.shared(), fullTag('0x2::random::Random')]);
      // Random { id: 0x8, inner: Versioned { id, version: 1 } }
      expect(hex(r.bcs)).toBe(hex(concat(bcs.address(RANDOM), bcs.address(versioned), bcs.u64(1))));
      const f = sys.write(field);
      expect([f.owner, f.typeTag]).toEqual([owner.object(versioned), fullTag('0x2::dynamic_field::Field<u64, 0x2::random::RandomInner>')]);
      expect(hex(f.bcs)).toBe(hex(concat(bcs.address(field), bcs.u64(1), bcs.u64(1), bcs.u64(7), bcs.u64(1), bcs.bytes(BEACON))));
      expect(res.createdIds).toEqual(expect.arrayContaining([RANDOM, versioned, field]));
      expectAbort(user.call('0x2::random::update_randomness_state', [], [val(r.value), val(2n), val(bytesVec(BEACON)), user.ctx]), 0n, `${SUI_ADDR}::random`, 'update_randomness_state');
    });

    it('new_generator in a user transaction: seed = HMAC-SHA3-256(beacon, fresh id); u128 and shuffle follow the model', () => {
      const { stored, versioned, field } = bootstrap();
      const s = userSession(versioned, stored);
      const randomArg = { $kind: 'Bcs' as const, bytes: (stored.get(RANDOM) as StoredObject).bcs };
      const genValue = s.value('0x2::random::new_generator', [], [randomArg, s.ctx]) as unknown[];
      const seed = hmac(sha3_256, BEACON, bcs.address(s.freshId(0)));
      expect(hex((genValue[0] as MoveVector).bytes())).toBe(hex(seed));
      expect(genValue.slice(1)).toEqual([0, MoveVector.fromBytes(new Uint8Array(0))]);
      const model = new Generator(seed);
      let gen: unknown = genValue;
      let out;
      [gen, out] = s.mut('0x2::random::generate_u128', [], gen);
      expect(out[0].value).toBe(model.uint(16));
      [gen, out] = s.mut('0x2::random::generate_u64_in_range', [], gen, [val(10n), val(20n)]);
      expect(out[0].value).toBe(model.inRange(10n, 20n, 16));
      const items = [1n, 2n, 3n, 4n, 5n, 6n, 7n];
      const r = s.call('0x2::random::shuffle', ['u64'], [val(gen), val(MoveVector.fromValues(VecKind.U64, items))]);
      if (r.$kind !== 'Success') throw new Error('shuffle failed');
      model.shuffle(items);
      expect((r.mutatedReferences[1].value.value as MoveVector).toArray()).toEqual(items);
      expectAbort(s.call('0x2::random::generate_u8_in_range', [], [val(gen), val(3), val(2)]), 3n, `${SUI_ADDR}::random`, 'generate_u8_in_range');
      // the inner field was read from the store, not changed
      expect(s.results().loadedChildObjects).toEqual([{ id: field, version: 10n, isModified: false }]);
      expect(s.results().writes).toEqual([]);
    });

    it('demo::timed::draw: u64, 40 bytes, bool and a die roll in one call, each as the model predicts', () => {
      const { stored, versioned } = bootstrap();
      const s = userSession(versioned, stored);
      const randomArg = { $kind: 'Bcs' as const, bytes: (stored.get(RANDOM) as StoredObject).bcs };
      const out = s.run('0x0::timed::draw', [], [randomArg, s.ctx]);
      const model = new Generator(hmac(sha3_256, BEACON, bcs.address(s.freshId(0))));
      const a = model.uint(8);
      const b = model.bytes(40);
      const c = (model.uint(1) & 1n) === 1n;
      const d = Number(model.inRange(1n, 6n, 9));
      expect([out[0].value, hex((out[1].value as MoveVector).bytes()), out[2].value, out[3].value]).toEqual([a, hex(Uint8Array.from(b)), c, d]);
      expect(d).toBeGreaterThanOrEqual(1);
      expect(d).toBeLessThanOrEqual(6);
    });

    it('a generator from a seed (built as a value): generate_u256 / generate_bytes / generate_bool match the model', () => {
      const s = new SuiSession(vm);
      const seed = Uint8Array.from({ length: 32 }, (_, i) => i);
      const model = new Generator(seed);
      let gen: unknown = [bytesVec(seed), 0, bytesVec([])];
      let out;
      [gen, out] = s.mut('0x2::random::generate_u256', [], gen);
      expect(out[0].value).toBe(model.uint(32));
      [gen, out] = s.mut('0x2::random::generate_bytes', [], gen, [val(70)]);
      expect(hex((out[0].value as MoveVector).bytes())).toBe(hex(Uint8Array.from(model.bytes(70))));
      [gen, out] = s.mut('0x2::random::generate_bool', [], gen);
      expect(out[0].value).toBe((model.uint(1) & 1n) === 1n);
      expect((gen as unknown[])[1]).toBe(model.counter);
      expect(hex(((gen as unknown[])[2] as MoveVector).bytes())).toBe(hex(Uint8Array.from(model.buffer)));
    });
  });
});
