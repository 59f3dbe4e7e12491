/**
 * Every public macro of the framework, compiled against our stub declarations
 * (`@smi/bytecode`'s stub-macros), published and run: each gives the value the upstream
 * macro gives, and aborts where it aborts.
 */
import { beforeAll, expect, it } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import type { Json } from '@smi/move-vm';
import { compileAndPublish, type CompileAndPublishOutcome, fromFixtures, SimulationEnvironment } from '@smi/simulation';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';

const VECTORS = `
module mac::vectors;

public fun tabulate(): vector<u64> { vector::tabulate!(5, |i| i * i) }
public fun destroy(): u64 { let mut s = 0; vector[1u64, 2, 3].destroy!(|x| s = s * 10 + x); s }
public fun do_order(): u64 { let mut s = 0; vector[1u64, 2, 3].do!(|x| s = s * 10 + x); s }
public fun do_ref(): u64 { let v = vector[4u64, 5]; let mut s = 0; v.do_ref!(|x| s = s * 10 + *x); s }
public fun do_mut(): vector<u64> { let mut v = vector[1u64, 2]; v.do_mut!(|x| *x = *x * 3); v }
public fun map(): vector<u64> { vector[1u64, 2, 3].map!(|x| x + 10) }
public fun map_ref(): vector<u64> { let v = vector[1u64, 2]; v.map_ref!(|x| *x * 7) }
public fun filter(): vector<u64> { vector[1u64, 2, 3, 4, 5, 6].filter!(|x| *x % 2 == 0) }
public fun partition(): (vector<u64>, vector<u64>) { vector[1u64, 2, 3, 4].partition!(|x| *x > 2) }
public fun find_index(): (Option<u64>, Option<u64>) { let v = vector[3u64, 8, 9]; (v.find_index!(|x| *x > 5), v.find_index!(|x| *x > 50)) }
public fun find_indices(): vector<u64> { vector[3u64, 8, 9, 1].find_indices!(|x| *x > 5) }
public fun count(): u64 { vector[3u64, 8, 9, 1].count!(|x| *x < 5) }
public fun fold(): u64 { vector[1u64, 2, 3].fold!(100, |acc, x| acc - x) }
public fun any_all(): vector<bool> {
    let v = vector[2u64, 4, 6];
    vector[v.any!(|x| *x == 4), v.any!(|x| *x == 5), v.all!(|x| *x % 2 == 0), v.all!(|x| *x < 5)]
}
public fun zip_do(): u64 { let mut s = 0; vector[1u64, 2].zip_do!(vector[10u64, 20], |a, b| s = s * 100 + a + b); s }
public fun zip_do_reverse(): u64 { let mut s = 0; vector[1u64, 2].zip_do_reverse!(vector[10u64, 20], |a, b| s = s * 100 + a + b); s }
public fun zip_do_ref(): u64 { let (a, b) = (vector[1u64, 2], vector[3u64, 4]); let mut s = 0; a.zip_do_ref!(&b, |x, y| s = s + *x * *y); s }
public fun zip_do_mut(): vector<u64> { let (mut a, mut b) = (vector[1u64, 2], vector[3u64, 4]); a.zip_do_mut!(&mut b, |x, y| *x = *x + *y); a }
public fun zip_map(): vector<u64> { vector[1u64, 2].zip_map!(vector[5u64, 6], |a, b| a * b) }
public fun zip_map_ref(): vector<u64> { let (a, b) = (vector[1u64, 2], vector[5u64, 6]); a.zip_map_ref!(&b, |x, y| *x + *y) }
public fun zip_mismatch() { vector[1u64].zip_do!(vector[1u64, 2], |_, _| ()) }
public fun insertion_sort(): vector<u64> { let mut v = vector[5u64, 1, 4, 2, 3]; v.insertion_sort_by!(|a, b| *a <= *b); v }
public fun merge_sort(): vector<u64> { let mut v = vector[9u64, 7, 5, 3, 1, 8, 6, 4, 2, 0]; v.merge_sort_by!(|a, b| *a >= *b); v }
public fun is_sorted(): vector<bool> {
    let (a, b, e) = (vector[1u64, 2, 2, 3], vector[2u64, 1], vector<u64>[]);
    vector[a.is_sorted_by!(|x, y| *x <= *y), b.is_sorted_by!(|x, y| *x <= *y), e.is_sorted_by!(|x, y| *x <= *y)]
}
public fun take_while(): vector<u64> { vector[1u64, 2, 7, 1].take_while!(|x| *x < 5) }
public fun skip_while(): vector<u64> { vector[1u64, 2, 7, 1].skip_while!(|x| *x < 5) }
`;

const OPTIONS = `
module mac::options;

public fun destroy_do(): u64 {
    let mut s = 0;
    option::some(4u64).destroy!(|x| s = s + x);
    option::none<u64>().destroy!(|x| s = s + x);
    option::some(5u64).do!(|x| s = s * 10 + x);
    s
}
public fun do_ref_mut(): u64 {
    let mut o = option::some(3u64);
    let mut s = 0;
    o.do_mut!(|x| *x = *x + 1);
    o.do_ref!(|x| s = *x);
    s
}
public fun or_and(): vector<u64> {
    vector[
        option::none<u64>().or!(option::some(1)).destroy_some(),
        option::some(2u64).or!(option::some(9)).destroy_some(),
        option::some(3u64).and!(|x| option::some(x * 10)).destroy_some(),
        (&option::some(4u64)).and_ref!(|x| option::some(*x + 1)).destroy_some(),
    ]
}
public fun maps(): vector<u64> {
    let mut o = option::some(7u64);
    vector[
        option::some(1u64).map!(|x| x + 1).destroy_some(),
        (&option::some(2u64)).map_ref!(|x| *x * 2).destroy_some(),
        o.map_mut!(|x| { *x = *x + 1; *x }).destroy_some(),
        *o.borrow(),
    ]
}
public fun predicates(): vector<bool> {
    let (s, n) = (option::some(5u64), option::none<u64>());
    vector[
        option::some(5u64).filter!(|x| *x > 3).is_some(),
        option::some(5u64).filter!(|x| *x > 9).is_some(),
        s.is_some_and!(|x| *x == 5),
        n.is_some_and!(|x| *x == 5),
        n.is_none_or!(|x| *x == 1),
        s.is_none_or!(|x| *x == 1),
    ]
}
public fun folds(): vector<u64> {
    let mut o = option::some(6u64);
    vector[
        option::some(1u64).fold!(0, |x| x + 100),
        option::none<u64>().fold!(42, |x| x + 100),
        (&option::some(2u64)).fold_ref!(0, |x| *x + 1),
        o.fold_mut!(0, |x| { *x = 0; 9 }),
        *o.borrow(),
    ]
}
public fun extract_destroy(): vector<u64> {
    let mut o = option::some(8u64);
    let a = o.extract_or!(1);
    let b = o.extract_or!(1);
    vector[a, b, option::some(3u64).destroy_or!(0), option::none<u64>().destroy_or!(11)]
}
`;

const NUMBERS = `
module mac::numbers;

public fun max_values(): (u8, u16, u32, u64, u128, u256) {
    (std::u8::max_value!(), std::u16::max_value!(), std::u32::max_value!(), std::u64::max_value!(), std::u128::max_value!(), std::u256::max_value!())
}
public fun loops(): vector<u64> {
    let mut a = 0; 5u64.do!(|i| a = a + i);
    let mut b = 0; 5u64.do_eq!(|i| b = b + i);
    let mut c = 0; 3u64.range_do!(6, |i| c = c * 10 + i);
    let mut d = 0; 3u64.range_do_eq!(6, |i| d = d * 10 + i);
    let mut e = 0; 6u64.range_do_eq!(3, |_| e = e + 1);
    let mut f = 0; 255u8.range_do_eq!(255, |i| f = f + (i as u64));
    let mut g = 0; 2u16.do!(|_| g = g + 1); 2u32.do!(|_| g = g + 1); 2u128.do!(|_| g = g + 1); 2u256.do!(|_| g = g + 1);
    vector[a, b, c, d, e, f, g]
}
public fun shifts(): vector<bool> {
    vector[
        std::macros::num_checked_shl!(1u8, 7, 8) == option::some(128),
        std::macros::num_checked_shl!(1u8, 8, 8).is_none(),
        std::macros::num_checked_shr!(128u8, 7, 8) == option::some(1),
        std::macros::num_lossless_shl!(3u8, 7, 8).is_none(),
        std::macros::num_lossless_shl!(3u8, 6, 8) == option::some(192),
        std::macros::num_lossless_shr!(3u8, 1, 8).is_none(),
        std::macros::num_lossless_shr!(4u8, 2, 8) == option::some(1),
        std::macros::num_lossless_div!(9u64, 3) == option::some(3),
        std::macros::num_lossless_div!(10u64, 3).is_none(),
        std::macros::num_lossless_div!(10u64, 0).is_none(),
    ]
}
`;

const SUI = `
module mac::suis;

use sui::bcs;
use sui::dynamic_field as df;
use sui::dynamic_object_field as dof;

public struct Holder has key { id: UID }
public struct Child has key, store { id: UID, v: u64 }
public struct Key() has copy, drop;

public fun bcs_macros(): (vector<u64>, Option<u8>, Option<u8>) {
    let mut r = bcs::new(bcs::to_bytes(&vector[7u64, 8]));
    let v = r.peel_vec!(|b| b.peel_u64());
    let mut o = bcs::new(bcs::to_bytes(&option::some(5u8)));
    let some = o.peel_option!(|b| b.peel_u8());
    let mut n = bcs::new(bcs::to_bytes(&option::none<u8>()));
    (v, some, n.peel_option!(|b| b.peel_u8()))
}
public fun fields(ctx: &mut TxContext): vector<u64> {
    let mut h = Holder { id: object::new(ctx) };
    let mut out = vector[];
    out.push_back(*df::borrow_or_add!(&mut h.id, 1u8, 10u64));
    out.push_back(*df::borrow_or_add!(&mut h.id, 1u8, 99u64));
    *df::borrow_mut_or_add!(&mut h.id, 2u8, 20u64) = 21;
    df::get_do!(&h.id, 2u8, |v: &u64| out.push_back(*v));
    df::get_do!(&h.id, 3u8, |v: &u64| out.push_back(*v));
    df::get_mut_do!(&mut h.id, 1u8, |v: &mut u64| *v = *v + 1);
    out.push_back(df::get_fold!(&h.id, 1u8, 0, |v: &u64| *v));
    out.push_back(df::get_fold!(&h.id, 9u8, 77, |v: &u64| *v));
    out.push_back(df::get_mut_fold!(&mut h.id, 2u8, 0, |v: &mut u64| { *v = 0; 5 }));
    let c = dof::borrow_or_add!(&mut h.id, 4u8, Child { id: object::new(ctx), v: 40 });
    out.push_back(c.v);
    dof::borrow_mut_or_add!(&mut h.id, 4u8, Child { id: object::new(ctx), v: 0 }).v = 41;
    dof::get_do!(&h.id, 4u8, |c: &Child| out.push_back(c.v));
    dof::get_mut_do!(&mut h.id, 4u8, |c: &mut Child| c.v = 42);
    out.push_back(dof::get_fold!(&h.id, 4u8, 0, |c: &Child| c.v));
    out.push_back(dof::get_mut_fold!(&mut h.id, 5u8, 8, |c: &mut Child| c.v));
    transfer::share_object(h);
    out
}
public fun party_transfers(to: address, ctx: &mut TxContext) {
    sui::party::single_owner(to).transfer!(Holder { id: object::new(ctx) });
    sui::party::single_owner(to).public_transfer!(Child { id: object::new(ctx), v: 1 });
}
public fun scratch(ctx: &mut TxContext): vector<u64> {
    let mut out = vector[];
    sui::scratch::internal_add!(ctx, Key(), 5u64);
    out.push_back(sui::scratch::internal_read!<Key, u64>(ctx, Key()));
    sui::scratch::internal_get_mut_do!(ctx, Key(), |v: &mut u64| *v = *v + 1);
    sui::scratch::internal_get_do!(ctx, Key(), |v: &u64| out.push_back(*v));
    out.push_back(sui::scratch::internal_get_fold!(ctx, Key(), 0, |v: &u64| *v * 10));
    out.push_back(sui::scratch::internal_get_mut_fold!(ctx, Key(), 0, |v: &mut u64| { *v = 1; 2 }));
    out.push_back(if (sui::scratch::internal_exists!(ctx, Key())) 1 else 0);
    out.push_back(if (sui::scratch::internal_exists_with_type!<Key, u64>(ctx, Key())) 1 else 0);
    out.push_back(sui::scratch::internal_read_opt!<Key, u64>(ctx, Key()).destroy_some());
    out.push_back(sui::scratch::internal_replace!<Key, u64, u64>(ctx, Key(), 9).destroy_some());
    out.push_back(sui::scratch::internal_remove!<Key, u64>(ctx, Key()));
    out.push_back(sui::scratch::internal_remove_opt!<Key, u64>(ctx, Key()).destroy_or!(3));
    out
}
`;

function values(outcome: { transaction: { status: unknown }; returnValues: { value: Json }[] }): Json[] {
  expect(outcome.transaction.status).toEqual({ $kind: 'Success' });
  return outcome.returnValues.map((r) => r.value);
}

const n = (...xs: number[]) => xs.map(String);

describeWithFixtures('framework macros from the stubs, compiled and run', ['fixtures', 'framework'], () => {
  let env: SimulationEnvironment;
  let out: CompileAndPublishOutcome;
  const call = (fn: string, args: Json[] = []) => values(env.call(`${out.packageId}::${fn}`, args));
  beforeAll(async () => {
    const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
    env = SimulationEnvironment.create({ packages: packages.filter((p) => ['0x1', '0x2'].map((a) => canonicalAddress(a)).includes(p.id)), protocolConfig });
    out = await compileAndPublish(env, {
      files: { 'sources/vectors.move': VECTORS, 'sources/options.move': OPTIONS, 'sources/numbers.move': NUMBERS, 'sources/suis.move': SUI },
      packageName: 'mac',
    });
  }, 60_000);

  it('vector macros', () => {
    expect(call('vectors::tabulate')).toEqual([n(0, 1, 4, 9, 16)]);
    expect(call('vectors::destroy')).toEqual(['321']);
    expect(call('vectors::do_order')).toEqual(['123']);
    expect(call('vectors::do_ref')).toEqual(['45']);
    expect(call('vectors::do_mut')).toEqual([n(3, 6)]);
    expect(call('vectors::map')).toEqual([n(11, 12, 13)]);
    expect(call('vectors::map_ref')).toEqual([n(7, 14)]);
    expect(call('vectors::filter')).toEqual([n(2, 4, 6)]);
    expect(call('vectors::partition')).toEqual([n(3, 4), n(1, 2)]);
    expect(call('vectors::find_index')).toEqual(['1', null]);
    expect(call('vectors::find_indices')).toEqual([n(1, 2)]);
    expect(call('vectors::count')).toEqual(['2']);
    expect(call('vectors::fold')).toEqual(['94']);
    expect(call('vectors::any_all')).toEqual([[true, false, true, false]]);
    expect(call('vectors::zip_do')).toEqual(['1122']);
    expect(call('vectors::zip_do_reverse')).toEqual(['2211']);
    expect(call('vectors::zip_do_ref')).toEqual(['11']);
    expect(call('vectors::zip_do_mut')).toEqual([n(4, 6)]);
    expect(call('vectors::zip_map')).toEqual([n(5, 12)]);
    expect(call('vectors::zip_map_ref')).toEqual([n(6, 8)]);
    expect(call('vectors::insertion_sort')).toEqual([n(1, 2, 3, 4, 5)]);
    expect(call('vectors::merge_sort')).toEqual([n(9, 8, 7, 6, 5, 4, 3, 2, 1, 0)]);
    expect(call('vectors::is_sorted')).toEqual([[true, false, true]]);
    expect(call('vectors::take_while')).toEqual([n(1, 2)]);
    expect(call('vectors::skip_while')).toEqual([n(7, 1)]);
  });

  it('zip_do! of vectors of different lengths aborts in the caller, as upstream (assert! without a code)', () => {
    const r = env.call(`${out.packageId}::vectors::zip_mismatch`);
    expect(r.transaction.status.$kind).toBe('Failure');
    const status = JSON.stringify(r.transaction.status, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    expect(status).toMatch(/MoveAbort/);
    expect(status).toMatch(/vectors/);
  });

  it('option macros', () => {
    expect(call('options::destroy_do')).toEqual(['45']);
    expect(call('options::do_ref_mut')).toEqual(['4']);
    expect(call('options::or_and')).toEqual([n(1, 2, 30, 5)]);
    expect(call('options::maps')).toEqual([n(2, 4, 8, 8)]);
    expect(call('options::predicates')).toEqual([[true, false, true, false, true, false]]);
    expect(call('options::folds')).toEqual([n(101, 42, 3, 9, 0)]);
    expect(call('options::extract_destroy')).toEqual([n(8, 1, 3, 11)]);
  });

  it('integer macros: max values of every width, loops, checked and lossless shifts', () => {
    expect(call('numbers::max_values')).toEqual([255, 65535, 4294967295, '18446744073709551615', (2n ** 128n - 1n).toString(), (2n ** 256n - 1n).toString()]);
    expect(call('numbers::loops')).toEqual([n(10, 15, 345, 3456, 0, 255, 8)]);
    expect(call('numbers::shifts')).toEqual([Array(10).fill(true)]);
  });

  it('sui macros: bcs peel_vec/peel_option, dynamic (object) fields, party transfers, scratch', () => {
    expect(call('suis::bcs_macros')).toEqual([n(7, 8), 5, null]);
    expect(call('suis::fields')).toEqual([n(10, 10, 21, 11, 77, 5, 40, 41, 42, 8)]);
    const to = canonicalAddress('0xa11ce');
    const party = env.call(`${out.packageId}::suis::party_transfers`, [to]);
    expect(party.transaction.status).toEqual({ $kind: 'Success' });
    const created = party.transaction.written.filter((w) => w.kind === 'created').map((w) => env.getObject(w.id)?.owner.$kind);
    expect(created).toEqual(['ConsensusAddressOwner', 'ConsensusAddressOwner']);
    expect(call('suis::scratch')).toEqual([n(5, 6, 60, 2, 1, 1, 1, 1, 9, 3)]);
  });
});
