/**
 * Issue 5 acceptance, part 2b: `balance`, `coin` and the closed-loop `token`, with Move
 * helpers compiled offline: `demo::gems` (a `Supply` from `balance::create_supply` with a
 * plain witness, inside a shared `Mint`), `demo::mycoin` (`coin::create_currency` in
 * `init`: the test calls `init` with the one-time-witness value `MYCOIN { dummy_field:
 * false }` made through the VM API, which is how the TreasuryCap for `token` is obtained)
 * and `demo::loyalty` (a token rule). Results and effects are checked with BCS and ids
 * computed by hand.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import { MoveVector, VecKind, type MoveVM, type TypedValue } from '@smi/move-vm';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { compileDemo } from './support/compile.js';
import { bcs, bytesVec, concat, expectAbort, hex, moveString, stringOf, uleb, val } from './support/golden.js';
import { GEMS, LOYALTY, MYCOIN } from './support/sui-framework-sources.js';
import { SESSION_SENDER, SUI_ADDR, SuiSession, ZERO_ADDR, fullTag, objectIdOfValue, owner, suiVm } from './support/sui-session.js';

const GEM = '0x0::gems::Gem';
const MYC = '0x0::mycoin::MYCOIN';
const BOB = canonicalAddress('0xb0b');
const CAROL = canonicalAddress('0xca401');
const Z = ZERO_ADDR.slice(2);

describeWithFixtures('sui framework: balance, coin, token', ['fixtures', 'framework'], () => {
  let vm: MoveVM;
  beforeAll(async () => {
    const demo = await compileDemo({ 'gems.move': GEMS, 'mycoin.move': MYCOIN, 'loyalty.move': LOYALTY });
    vm = suiVm([demo.pkg]);
  });

  describe('balance', () => {
    it('create_supply / increase_supply / split / join / withdraw_all / decrease_supply, with the upstream abort codes', () => {
      const s = new SuiSession(vm);
      let supply = s.value('0x2::balance::create_supply', [GEM], [val([false])]);
      let out: TypedValue[];
      [supply, out] = s.mut('0x2::balance::increase_supply', [GEM], supply, [val(100n)]);
      let bal = out[0].value;
      expect(hex(out[0].bcs)).toBe(hex(bcs.u64(100)));
      [bal, out] = s.mut('0x2::balance::split', [GEM], bal, [val(30n)]);
      const part = out[0].value;
      expect(s.value('0x2::balance::value', [GEM], [val(bal)])).toBe(70n);
      expectAbort(s.call('0x2::balance::split', [GEM], [val(bal), val(71n)]), 2n, `${SUI_ADDR}::balance`, 'split');
      [bal, out] = s.mut('0x2::balance::join', [GEM], bal, [val(part)]);
      expect(out[0].value).toBe(100n);
      expectAbort(s.call('0x2::balance::destroy_zero', [GEM], [val(bal)]), 0n, `${SUI_ADDR}::balance`, 'destroy_zero');
      [bal, out] = s.mut('0x2::balance::withdraw_all', [GEM], bal);
      expect(s.value('0x2::balance::value', [GEM], [val(bal)])).toBe(0n);
      ok(s.call('0x2::balance::destroy_zero', [GEM], [val(bal)]));
      const all = out[0].value;
      const max = (1n << 64n) - 1n;
      expectAbort(s.call('0x2::balance::increase_supply', [GEM], [val(supply), val(max)]), 1n, `${SUI_ADDR}::balance`, 'increase_supply');
      [supply, out] = s.mut('0x2::balance::decrease_supply', [GEM], supply, [val(all)]);
      expect(out[0].value).toBe(100n);
      expect(s.value('0x2::balance::supply_value', [GEM], [val(supply)])).toBe(0n);
      // balances are not objects: nothing recorded
      expect(s.results().writes).toEqual([]);
      expect(s.results().generatedIds).toEqual([]);
    });
  });

  describe('coin', () => {
    it('zero / from_balance / split / join / divide_into_n / into_balance / destroy_zero: ids created and deleted', () => {
      const s = new SuiSession(vm);
      let supply = s.value('0x2::balance::create_supply', [GEM], [val([false])]);
      let out: TypedValue[];
      [supply, out] = s.mut('0x2::balance::increase_supply', [GEM], supply, [val(1000n)]);
      let coin = s.value('0x2::coin::from_balance', [GEM], [val(out[0].value), s.ctx]);
      expect(coin).toEqual([[[s.freshId(0)]], [1000n]]);
      [coin, out] = s.mut('0x2::coin::split', [GEM], coin, [val(400n), s.ctx]);
      const c400 = out[0].value;
      expect(objectIdOfValue(c400)).toBe(s.freshId(1));
      [coin, out] = s.mut('0x2::coin::divide_into_n', [GEM], coin, [val(3n), s.ctx]);
      const parts = (out[0].value as MoveVector).toArray();
      expect(parts.map((p) => (p as unknown[])[1])).toEqual([[200n], [200n]]);
      expect(s.value('0x2::coin::value', [GEM], [val(coin)])).toBe(200n);
      expectAbort(s.call('0x2::coin::divide_into_n', [GEM], [val(coin), val(0n), s.ctx]), 1n, `${SUI_ADDR}::coin`, 'divide_into_n');
      expectAbort(s.call('0x2::coin::divide_into_n', [GEM], [val(coin), val(201n), s.ctx]), 2n, `${SUI_ADDR}::coin`, 'divide_into_n');
      [coin] = s.mut('0x2::coin::join', [GEM], coin, [val(parts[0])]);
      expect(s.value('0x2::coin::value', [GEM], [val(coin)])).toBe(400n);
      const zero = s.value('0x2::coin::zero', [GEM], [s.ctx]);
      ok(s.call('0x2::coin::destroy_zero', [GEM], [val(zero)]));
      const bal = s.value('0x2::coin::into_balance', [GEM], [val(c400)]);
      expect(bal).toEqual([400n]);
      ok(s.call('0x2::transfer::public_transfer', [`0x2::coin::Coin<${GEM}>`], [val(coin), val(BOB)]));
      ok(s.call('0x2::transfer::public_transfer', [`0x2::coin::Coin<${GEM}>`], [val(parts[1]), val(CAROL)]));

      const res = s.results();
      // ids: 0 coin, 1 c400 (into_balance), 2 and 3 the parts (2 joined into coin), 4 zero (destroyed)
      expect(res.createdIds).toEqual([s.freshId(0), s.freshId(3)]);
      expect(res.generatedIds).toEqual([0, 1, 2, 3, 4].map((n) => s.freshId(n)));
      expect(res.deletedIds).toEqual([]);
      const coinTag = fullTag(`0x2::coin::Coin<${GEM}>`);
      expect(res.writes.map((w) => [w.id, w.owner, w.typeTag, hex(w.bcs)])).toEqual([
        [s.freshId(0), owner.address(BOB), coinTag, hex(concat(bcs.address(s.freshId(0)), bcs.u64(400)))],
        [s.freshId(3), owner.address(CAROL), coinTag, hex(concat(bcs.address(s.freshId(3)), bcs.u64(200)))],
      ]);
    });

    it('an input coin deleted by coin::join is recorded as deleted; put / take move value through a balance', () => {
      const input = canonicalAddress('0x1c0');
      const s = new SuiSession(vm, { runtime: { inputObjects: [{ id: input, owner: owner.address(SESSION_SENDER), version: 9n }] } });
      const mine = s.value('0x2::coin::zero', [GEM], [s.ctx]);
      let target: unknown = mine;
      [target] = s.mut('0x2::coin::join', [GEM], target, [val([[[input]], [25n]])]);
      let bal: unknown = [0n];
      [bal] = s.mut('0x2::coin::put', [GEM], bal, [val(target)]);
      let out: TypedValue[];
      [bal, out] = s.mut('0x2::coin::take', [GEM], bal, [val(10n), s.ctx]);
      expect(bal).toEqual([15n]);
      expect(out[0].value).toEqual([[[s.freshId(1)]], [10n]]);
      const res = s.results();
      expect(res.deletedIds).toEqual([input]);
      expect(res.createdIds).toEqual([s.freshId(1)]);
    });

    it('demo::gems: a Mint object with a Supply; airdrop mints, splits and sends in one call; Minted events; share and freeze', () => {
      const s = new SuiSession(vm);
      let mint = s.value('0x0::gems::new_mint', [], [s.ctx]);
      const mintId = s.freshId(0);
      let out: TypedValue[];
      const recipients = MoveVector.fromValues(VecKind.Boxed, [BOB, CAROL]);
      [mint, out] = s.mut('0x0::gems::airdrop', [], mint, [val(recipients), val(50n), s.ctx]);
      // ids: 1 the minted coin (destroyed at zero), 2 and 3 the parts
      expect(hex(out[0].bcs)).toBe(hex(bcs.vector([bcs.address(s.freshId(2)), bcs.address(s.freshId(3))])));
      [mint, out] = s.mut('0x0::gems::mint', [], mint, [val(7n), s.ctx]);
      [mint, out] = s.mut('0x0::gems::burn', [], mint, [val(out[0].value)]);
      expect(out[0].value).toBe(7n); // decrease_supply returns the amount burnt
      expect(s.value('0x0::gems::supply', [], [val(mint)])).toBe(100n);
      ok(s.call('0x0::gems::share', [], [val(mint)]));

      const res = s.results();
      expect(res.events.map((e) => [e.typeTag, hex(e.bcs)])).toEqual([
        [fullTag('0x0::gems::Minted'), hex(concat(bcs.u64(100), bcs.u64(100)))],
        [fullTag('0x0::gems::Minted'), hex(concat(bcs.u64(7), bcs.u64(107)))],
      ]);
      const coinTag = fullTag(`0x2::coin::Coin<${GEM}>`);
      expect(res.writes.map((w) => [w.id, w.owner, w.typeTag, hex(w.bcs)])).toEqual([
        [s.freshId(2), owner.address(BOB), coinTag, hex(concat(bcs.address(s.freshId(2)), bcs.u64(50)))],
        [s.freshId(3), owner.address(CAROL), coinTag, hex(concat(bcs.address(s.freshId(3)), bcs.u64(50)))],
        // Mint { id, supply: Supply { value }, minted }
        [mintId, owner.shared(), fullTag('0x0::gems::Mint'), hex(concat(bcs.address(mintId), bcs.u64(100), bcs.u64(107)))],
      ]);
      expect(res.createdIds).toEqual([mintId, s.freshId(2), s.freshId(3)]);

      const f = new SuiSession(vm);
      const m2 = f.value('0x0::gems::new_mint', [], [f.ctx]);
      ok(f.call('0x0::gems::freeze_mint', [], [val(m2)]));
      expect(f.results().writes.map((w) => w.owner)).toEqual([owner.immutable()]);
    });
  });

  describe('coin::create_currency in init, with a one-time witness made through the VM API', () => {
    it('TreasuryCap to the sender, CoinMetadata frozen; a non-OTW witness aborts EBadWitness', () => {
      const s = new SuiSession(vm);
      ok(s.call('0x0::mycoin::init', [], [val([false]), s.ctx]));
      const [capId, metaId] = [s.freshId(0), s.freshId(1)];
      const res = s.results();
      expect(res.writes.map((w) => [w.id, w.owner, w.typeTag])).toEqual([
        [metaId, owner.immutable(), fullTag(`0x2::coin::CoinMetadata<${MYC}>`)],
        [capId, owner.address(s.sender), fullTag(`0x2::coin::TreasuryCap<${MYC}>`)],
      ]);
      expect(hex(s.write(capId).bcs)).toBe(hex(concat(bcs.address(capId), bcs.u64(0))));
      // CoinMetadata { id, decimals, name, symbol, description, icon_url }
      expect(hex(s.write(metaId).bcs)).toBe(hex(concat(bcs.address(metaId), bcs.u8(6), bcs.bytes('My Coin'), bcs.bytes('MYC'), bcs.bytes('closed loop'), bcs.option(null))));
      const noUrl = val([MoveVector.empty(VecKind.Boxed)]);
      const args = [val([false]), val(0), val(bytesVec('G')), val(bytesVec('G')), val(bytesVec('')), noUrl, s.ctx];
      expectAbort(s.call('0x2::coin::create_currency', [GEM], args), 0n, `${SUI_ADDR}::coin`, 'create_currency');
    });
  });

  describe('token (closed loop)', () => {
    /** A session holding MYCOIN's TreasuryCap (from init) and a fresh policy + cap. */
    function setup(): { s: SuiSession; cap: unknown; policy: unknown; pcap: unknown } {
      const s = new SuiSession(vm);
      ok(s.call('0x0::mycoin::init', [], [val([false]), s.ctx]));
      const cap = s.write(s.freshId(0)).value;
      const [policy, pcap] = s.run('0x2::token::new_policy', [MYC], [val(cap), s.ctx]).map((x) => x.value);
      expect(objectIdOfValue(policy)).toBe(s.freshId(2));
      expect(pcap).toEqual([[[s.freshId(3)]], [s.freshId(2)]]);
      return { s, cap, policy, pcap };
    }
    const action = (name: string): unknown[] => moveString(name);

    it('mint, split, transfer: the request is confirmed only once the action is allowed; the token goes to the recipient', () => {
      const t = setup();
      const { s, policy } = t;
      let { cap } = t;
      let out: TypedValue[];
      [cap, out] = s.mut('0x2::token::mint', [MYC], cap, [val(100n), s.ctx]);
      let tok = out[0].value;
      expect(tok).toEqual([[[s.freshId(4)]], [100n]]);
      expect(s.value('0x2::coin::total_supply', [MYC], [val(cap)])).toBe(100n);
      [tok, out] = s.mut('0x2::token::split', [MYC], tok, [val(30n), s.ctx]);
      const t30 = out[0].value;
      expectAbort(s.call('0x2::token::split', [MYC], [val(tok), val(71n), s.ctx]), 3n, `${SUI_ADDR}::token`, 'split');
      const request = s.value('0x2::token::transfer', [MYC], [val(t30), val(BOB), s.ctx]);
      expect(stringOf(s.value('0x2::token::action', [MYC], [val(request)]))).toBe('transfer');
      expect(s.value('0x2::token::amount', [MYC], [val(request)])).toBe(30n);
      expect(s.value('0x2::token::sender', [MYC], [val(request)])).toBe(s.sender);
      expectAbort(s.call('0x2::token::confirm_request', [MYC], [val(policy), val(request), s.ctx]), 0n, `${SUI_ADDR}::token`, 'confirm_request');
      ok(s.call('0x2::token::keep', [MYC], [val(tok), s.ctx]));
      const res = s.results();
      const tokTag = fullTag(`0x2::token::Token<${MYC}>`);
      expect(res.writes.filter((w) => w.typeTag === tokTag).map((w) => [w.id, w.owner, hex(w.bcs)])).toEqual([
        [s.freshId(5), owner.address(BOB), hex(concat(bcs.address(s.freshId(5)), bcs.u64(30)))],
        [s.freshId(4), owner.address(s.sender), hex(concat(bcs.address(s.freshId(4)), bcs.u64(70)))],
      ]);
    });

    it('allow transfer → confirm_request returns (name, amount, sender, Some(recipient)); spend → confirm_request_mut → flush lowers the supply', () => {
      const t = setup();
      const { s, pcap } = t;
      let { cap, policy } = t;
      const transferName = s.run('0x2::token::transfer_action', [], [])[0];
      expect(hex(transferName.bcs)).toBe(hex(bcs.bytes('transfer')));
      [policy] = s.mut('0x2::token::allow', [MYC], policy, [val(pcap), val(transferName.value), s.ctx]);
      expect(s.value('0x2::token::is_allowed', [MYC], [val(policy), val(action('transfer'))])).toBe(true);
      let out: TypedValue[];
      [cap, out] = s.mut('0x2::token::mint', [MYC], cap, [val(60n), s.ctx]);
      const request = s.value('0x2::token::transfer', [MYC], [val(out[0].value), val(BOB), s.ctx]);
      const confirmed = s.run('0x2::token::confirm_request', [MYC], [val(policy), val(request), s.ctx]);
      expect(hex(concat(...confirmed.map((x) => x.bcs)))).toBe(hex(concat(bcs.bytes('transfer'), bcs.u64(60), bcs.address(s.sender), bcs.option(bcs.address(BOB)))));

      // spend: not allowed yet (EUnknownAction 0); then allowed, the balance lands in the policy
      [cap, out] = s.mut('0x2::token::mint', [MYC], cap, [val(25n), s.ctx]);
      const spendReq = s.value('0x2::token::spend', [MYC], [val(out[0].value), s.ctx]);
      expect(hex(s.run('0x2::token::spent', [MYC], [val(spendReq)])[0].bcs)).toBe(hex(bcs.option(bcs.u64(25))));
      expectAbort(s.call('0x2::token::confirm_request_mut', [MYC], [val(policy), val(spendReq), s.ctx]), 0n, `${SUI_ADDR}::token`, 'confirm_request_mut');
      [policy] = s.mut('0x2::token::allow', [MYC], policy, [val(pcap), val(action('spend')), s.ctx]);
      [policy] = s.mut('0x2::token::confirm_request_mut', [MYC], policy, [val(spendReq), s.ctx]);
      expect(s.value('0x2::token::spent_balance', [MYC], [val(policy)])).toBe(25n);
      expect(s.value('0x2::coin::total_supply', [MYC], [val(cap)])).toBe(85n);
      const r = s.call('0x2::token::flush', [MYC], [val(policy), val(cap), s.ctx]);
      ok(r);
      if (r.$kind !== 'Success') return;
      expect(r.returnValues[0].value).toBe(25n);
      cap = r.mutatedReferences.find((m) => m.argIndex === 1)?.value.value;
      policy = r.mutatedReferences.find((m) => m.argIndex === 0)?.value.value;
      expect(s.value('0x2::coin::total_supply', [MYC], [val(cap)])).toBe(60n);
      expect(s.value('0x2::token::spent_balance', [MYC], [val(policy)])).toBe(0n);

      ok(s.call('0x2::token::share_policy', [MYC], [val(policy)]));
      const res = s.results();
      const policyId = s.freshId(2);
      expect(res.events.map((e) => [e.typeTag, hex(e.bcs)])).toEqual([[fullTag(`0x2::token::TokenPolicyCreated<${MYC}>`), hex(concat(bcs.address(policyId), bcs.bool(true)))]]);
      const pw = s.write(policyId);
      expect(pw.owner).toEqual(owner.shared());
      // TokenPolicy { id, spent_balance, rules: VecMap<String, VecSet<TypeName>> } with two empty rule sets
      expect(hex(pw.bcs)).toBe(hex(concat(bcs.address(policyId), bcs.u64(0), uleb(2), bcs.bytes('transfer'), uleb(0), bcs.bytes('spend'), uleb(0))));
      // the spent token's UID was deleted in the transaction that made it
      expect(res.createdIds).not.toContain(s.freshId(6));
    });

    it('a rule (demo::loyalty::Stamp): without the stamp ENotApproved (1); stamped, it confirms; reward() does it all in one call', () => {
      const t = setup();
      const { s, pcap } = t;
      let { cap, policy } = t;
      [policy] = s.mut('0x2::token::allow', [MYC], policy, [val(pcap), val(action('transfer')), s.ctx]);
      [policy] = s.mut('0x0::loyalty::require_stamp', [MYC], policy, [val(pcap), s.ctx]);
      const stampName = `${Z}::loyalty::Stamp`;
      expect(hex(s.run('0x2::token::rules', [MYC], [val(policy), val(action('transfer'))])[0].bcs)).toBe(hex(concat(uleb(1), bcs.bytes(stampName))));
      let out: TypedValue[];
      [cap, out] = s.mut('0x2::token::mint', [MYC], cap, [val(5n), s.ctx]);
      let request = s.value('0x2::token::transfer', [MYC], [val(out[0].value), val(CAROL), s.ctx]);
      expectAbort(s.call('0x2::token::confirm_request', [MYC], [val(policy), val(request), s.ctx]), 1n, `${SUI_ADDR}::token`, 'confirm_request');
      [request] = s.mut('0x0::loyalty::stamp', [MYC], request, [s.ctx]);
      expect(hex(s.run('0x2::token::approvals', [MYC], [val(request)])[0].bcs)).toBe(hex(concat(uleb(1), bcs.bytes(stampName))));
      ok(s.call('0x2::token::confirm_request', [MYC], [val(policy), val(request), s.ctx]));

      [cap, out] = s.mut('0x0::loyalty::reward', [MYC], cap, [val(policy), val(9n), val(BOB), s.ctx]);
      expect(hex(concat(...out.map((x) => x.bcs)))).toBe(hex(concat(bcs.bytes('transfer'), bcs.u64(9), bcs.address(s.sender), bcs.option(bcs.address(BOB)))));
      expect(s.value('0x2::coin::total_supply', [MYC], [val(cap)])).toBe(14n);
      const tokTag = fullTag(`0x2::token::Token<${MYC}>`);
      expect(
        s
          .results()
          .writes.filter((w) => w.typeTag === tokTag)
          .map((w) => [w.owner, hex(w.bcs.subarray(32))]),
      ).toEqual([
        [owner.address(CAROL), hex(bcs.u64(5))],
        [owner.address(BOB), hex(bcs.u64(9))],
      ]);
    });

    it('to_coin confirmed with the treasury cap ignores the rules; the coin is an ordinary Coin<MYCOIN>', () => {
      const t = setup();
      const { s } = t;
      let { cap } = t;
      let out: TypedValue[];
      [cap, out] = s.mut('0x2::token::mint', [MYC], cap, [val(12n), s.ctx]);
      const [coin, request] = s.run('0x2::token::to_coin', [MYC], [val(out[0].value), s.ctx]).map((x) => x.value);
      expect((coin as unknown[])[1]).toEqual([12n]);
      [cap, out] = s.mut('0x2::token::confirm_with_treasury_cap', [MYC], cap, [val(request), s.ctx]);
      expect(stringOf(out[0].value)).toBe('to_coin');
      expect(hex(out[3].bcs)).toBe('00');
    });
  });
});

/** The call succeeded. */
function ok(r: ReturnType<SuiSession['call']>): void {
  if (r.$kind !== 'Success') throw new Error(`expected Success, got ${r.$kind}: ${r.$kind === 'Aborted' ? `${r.abortCode} at ${r.location.module}::${r.location.function}` : r.message}`);
}
