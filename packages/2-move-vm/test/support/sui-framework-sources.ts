/**
 * Move helper modules of the `sui-framework-*` acceptance tests, compiled offline against
 * the real framework (`compileDemo`, package `demo` at 0x0). They drive framework APIs the
 * way a published package would: inside one call, with hot potatoes, witnesses and
 * objects that can only be made in their own module. Stub dependencies carry no source
 * macros, so loops are plain `while`.
 */

/** Collections in one object: every framework collection, plus raw dynamic (object) fields. */
export const REGISTRY = `
module demo::registry;

use std::string::String;
use sui::bag::{Self, Bag};
use sui::dynamic_field as df;
use sui::dynamic_object_field as dof;
use sui::event;
use sui::linked_table::{Self, LinkedTable};
use sui::object_bag::{Self, ObjectBag};
use sui::object_table::{Self, ObjectTable};
use sui::table::{Self, Table};
use sui::table_vec::{Self, TableVec};
use sui::vec_map::{Self, VecMap};

public struct Registry has key {
    id: UID,
    names: Table<address, String>,
    scores: LinkedTable<String, u64>,
    log: TableVec<u64>,
    badges: ObjectTable<u64, Badge>,
    misc: Bag,
    vault: ObjectBag,
    tags: VecMap<String, bool>,
}

public struct Badge has key, store { id: UID, level: u8 }

public struct Registered has copy, drop { who: address, name: String }

public fun new(ctx: &mut TxContext): Registry {
    Registry {
        id: object::new(ctx),
        names: table::new(ctx),
        scores: linked_table::new(ctx),
        log: table_vec::empty(ctx),
        badges: object_table::new(ctx),
        misc: bag::new(ctx),
        vault: object_bag::new(ctx),
        tags: vec_map::empty(),
    }
}

public fun share(r: Registry) { transfer::share_object(r) }

public fun register(r: &mut Registry, name: String, ctx: &TxContext) {
    let who = ctx.sender();
    r.names.add(who, name);
    event::emit(Registered { who, name });
}

public fun name_of(r: &Registry, who: address): String { *r.names.borrow(who) }

/// Adds points (a new entry at the back, or onto the existing one) and logs them.
public fun score(r: &mut Registry, name: String, points: u64) {
    if (r.scores.contains(name)) {
        let s = r.scores.borrow_mut(name);
        *s = *s + points;
    } else {
        r.scores.push_back(name, points);
    };
    r.log.push_back(points);
}

/// Sum of the scores, walking the linked table from the front.
public fun total(r: &Registry): u64 {
    let mut sum = 0;
    let mut key = *r.scores.front();
    while (key.is_some()) {
        let k = key.extract();
        sum = sum + *r.scores.borrow(k);
        key = *r.scores.next(k);
    };
    sum
}

public fun drop_front(r: &mut Registry): (String, u64) { r.scores.pop_front() }

public fun log_length(r: &Registry): u64 { r.log.length() }

/// A badge stored in the object table under the next number; it gets a dynamic field of its own.
public fun award(r: &mut Registry, level: u8, ctx: &mut TxContext): ID {
    let mut badge = Badge { id: object::new(ctx), level };
    df::add(&mut badge.id, b"level", level);
    let id = object::id(&badge);
    let n = r.badges.length();
    r.badges.add(n, badge);
    id
}

/// Raises the level of badge \`n\`, writing through two levels of children.
public fun level_up(r: &mut Registry, n: u64) {
    let badge = r.badges.borrow_mut(n);
    badge.level = badge.level + 1;
    let l: &mut u8 = df::borrow_mut(&mut badge.id, b"level");
    *l = *l + 1;
}

public fun level_of(r: &Registry, n: u64): (u8, u8) {
    let badge = r.badges.borrow(n);
    (badge.level, *df::borrow(&badge.id, b"level"))
}

/// Takes badge \`n\` out and destroys it (its own field first).
public fun burn_badge(r: &mut Registry, n: u64) {
    let mut badge = r.badges.remove(n);
    let _: u8 = df::remove(&mut badge.id, b"level");
    let Badge { id, level: _ } = badge;
    id.delete();
}

public fun stash<V: store>(r: &mut Registry, key: String, v: V) { r.misc.add(key, v) }

public fun unstash<V: store>(r: &mut Registry, key: String): V { r.misc.remove(key) }

public fun misc_has<V: store>(r: &Registry, key: String): bool { r.misc.contains_with_type<String, V>(key) }

public fun vault_put<V: key + store>(r: &mut Registry, key: u64, v: V) { r.vault.add(key, v) }

public fun vault_take<V: key + store>(r: &mut Registry, key: u64): V { r.vault.remove(key) }

public fun tag(r: &mut Registry, name: String, flag: bool) {
    if (r.tags.contains(&name)) { *r.tags.get_mut(&name) = flag } else { r.tags.insert(name, flag) }
}

public fun tags(r: &Registry): VecMap<String, bool> { r.tags }

/// Raw dynamic fields on the registry's own UID.
public fun attach<V: store>(r: &mut Registry, key: vector<u8>, v: V) { df::add(&mut r.id, key, v) }

public fun attach_object<V: key + store>(r: &mut Registry, key: vector<u8>, v: V) { dof::add(&mut r.id, key, v) }

public fun detach_object<V: key + store>(r: &mut Registry, key: vector<u8>): V { dof::remove(&mut r.id, key) }

public fun new_badge(level: u8, ctx: &mut TxContext): Badge { Badge { id: object::new(ctx), level } }

/// Pushes onto a \`vector<u64>\` stored as a raw dynamic field (created empty when absent).
public fun push_raw(r: &mut Registry, key: vector<u8>, x: u64) {
    if (!df::exists_(&r.id, key)) df::add(&mut r.id, key, vector<u64>[]);
    let v: &mut vector<u64> = df::borrow_mut(&mut r.id, key);
    v.push_back(x);
}
`;

/** A witness-made currency for `balance::create_supply` (no one-time witness needed). */
export const GEMS = `
module demo::gems;

use sui::balance::{Self, Supply};
use sui::coin::{Self, Coin};
use sui::event;

public struct Gem has drop {}

public struct Mint has key { id: UID, supply: Supply<Gem>, minted: u64 }

public struct Minted has copy, drop { amount: u64, total: u64 }

public fun new_mint(ctx: &mut TxContext): Mint {
    Mint { id: object::new(ctx), supply: balance::create_supply(Gem {}), minted: 0 }
}

public fun share(m: Mint) { transfer::share_object(m) }

public fun freeze_mint(m: Mint) { transfer::freeze_object(m) }

public fun mint(m: &mut Mint, amount: u64, ctx: &mut TxContext): Coin<Gem> {
    let b = m.supply.increase_supply(amount);
    m.minted = m.minted + amount;
    event::emit(Minted { amount, total: m.supply.supply_value() });
    coin::from_balance(b, ctx)
}

public fun burn(m: &mut Mint, c: Coin<Gem>): u64 { m.supply.decrease_supply(c.into_balance()) }

public fun supply(m: &Mint): u64 { m.supply.supply_value() }

/// Mints \`each\` for every recipient and sends it; returns the ids of the coins.
public fun airdrop(m: &mut Mint, to: vector<address>, each: u64, ctx: &mut TxContext): vector<ID> {
    let mut all = m.mint(each * to.length(), ctx);
    let mut ids = vector[];
    let mut i = 0;
    while (i < to.length()) {
        let part = all.split(each, ctx);
        ids.push_back(object::id(&part));
        transfer::public_transfer(part, to[i]);
        i = i + 1;
    };
    all.destroy_zero();
    ids
}
`;

/** A currency made in \`init\` with its one-time witness; the test calls \`init\` with the OTW value. */
export const MYCOIN = `
module demo::mycoin;

use sui::coin;

public struct MYCOIN has drop {}

fun init(otw: MYCOIN, ctx: &mut TxContext) {
    let (cap, metadata) = coin::create_currency(otw, 6, b"MYC", b"My Coin", b"closed loop", option::none(), ctx);
    transfer::public_freeze_object(metadata);
    transfer::public_transfer(cap, ctx.sender());
}
`;

/** A closed-loop token rule: a stamp any caller can add, required for transfers once set. */
export const LOYALTY = `
module demo::loyalty;

use std::string::String;
use sui::coin::TreasuryCap;
use sui::token::{Self, ActionRequest, TokenPolicy, TokenPolicyCap};

public struct Stamp has drop {}

public fun require_stamp<T>(policy: &mut TokenPolicy<T>, cap: &TokenPolicyCap<T>, ctx: &mut TxContext) {
    policy.add_rule_for_action<T, Stamp>(cap, token::transfer_action(), ctx);
}

public fun stamp<T>(request: &mut ActionRequest<T>, ctx: &mut TxContext) { token::add_approval(Stamp {}, request, ctx) }

/// Mint, stamp and transfer in one call; returns what the policy confirmed.
public fun reward<T>(cap: &mut TreasuryCap<T>, policy: &TokenPolicy<T>, amount: u64, to: address, ctx: &mut TxContext): (String, u64, address, Option<address>) {
    let t = token::mint(cap, amount, ctx);
    let mut request = token::transfer(t, to, ctx);
    stamp(&mut request, ctx);
    policy.confirm_request(request, ctx)
}
`;

/** A kiosk item type with its one-time witness (the Publisher comes from \`init\`). */
export const SWORD = `
module demo::sword;

use sui::event;
use sui::package;

public struct SWORD has drop {}

public struct Sword has key, store { id: UID, power: u64 }

public struct Forged has copy, drop { id: ID, power: u64 }

fun init(otw: SWORD, ctx: &mut TxContext) {
    package::claim_and_keep(otw, ctx);
}

public fun forge(power: u64, ctx: &mut TxContext): Sword {
    let sword = Sword { id: object::new(ctx), power };
    event::emit(Forged { id: object::id(&sword), power });
    sword
}

public fun power(s: &Sword): u64 { s.power }
`;

/** A royalty rule of a transfer policy: pay \`bps\` of the price into the policy. */
export const ROYALTY = `
module demo::royalty;

use sui::coin::Coin;
use sui::sui::SUI;
use sui::transfer_policy::{Self as policy, TransferPolicy, TransferPolicyCap, TransferRequest};

const EWrongAmount: u64 = 0;

public struct Rule has drop {}

public struct Config has store, drop { bps: u16 }

public fun add<T>(p: &mut TransferPolicy<T>, cap: &TransferPolicyCap<T>, bps: u16) {
    policy::add_rule(Rule {}, p, cap, Config { bps })
}

public fun fee<T>(p: &TransferPolicy<T>, paid: u64): u64 {
    let config: &Config = policy::get_rule(Rule {}, p);
    (((paid as u128) * (config.bps as u128) / 10_000) as u64)
}

public fun pay<T>(p: &mut TransferPolicy<T>, request: &mut TransferRequest<T>, payment: Coin<SUI>) {
    let amount = fee(p, request.paid());
    assert!(payment.value() == amount, EWrongAmount);
    policy::add_to_balance(Rule {}, p, payment);
    policy::add_receipt(Rule {}, request)
}
`;

/** A whole kiosk sale in one call: new kiosk, place and list, purchase, royalty, confirm. */
export const MARKET = `
module demo::market;

use demo::royalty;
use demo::sword::Sword;
use sui::coin::Coin;
use sui::kiosk;
use sui::sui::SUI;
use sui::transfer_policy::TransferPolicy;

public fun sell(policy: &mut TransferPolicy<Sword>, sword: Sword, price: u64, payment: Coin<SUI>, fee: Coin<SUI>, ctx: &mut TxContext): Sword {
    let (mut k, cap) = kiosk::new(ctx);
    let id = object::id(&sword);
    k.place_and_list(&cap, sword, price);
    let (item, mut request) = k.purchase<Sword>(id, payment);
    royalty::pay(policy, &mut request, fee);
    policy.confirm_request(request);
    transfer::public_share_object(k);
    transfer::public_transfer(cap, ctx.sender());
    item
}
`;

/** Clock and randomness consumers. */
export const TIMED = `
module demo::timed;

use sui::clock::Clock;
use sui::random::Random;

public fun expired(clock: &Clock, deadline_ms: u64): bool { clock.timestamp_ms() >= deadline_ms }

public fun draw(r: &Random, ctx: &mut TxContext): (u64, vector<u8>, bool, u8) {
    let mut g = r.new_generator(ctx);
    let a = g.generate_u64();
    let b = g.generate_bytes(40);
    let c = g.generate_bool();
    let d = g.generate_u8_in_range(1, 6);
    (a, b, c, d)
}
`;
