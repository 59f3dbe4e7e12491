/**
 * The inhabit tests' own Move package (`demo` at 0xd3e0), compiled offline once per test
 * file against the real framework, with one function per situation the benchmark must
 * tell apart; and the framework and corpus from the shared fixtures.
 */
import { canonicalAddress, deserializeModule, findPackageDirs, loadPackageDir, type MovePackage, packageFromBytes, serializeModule } from '@smi/bytecode';
import { compileMovePackage } from '@smi/move-compiler';
import { fromFixtures } from '@smi/simulation';
import type { BenchmarkOptions, BenchmarkRow } from '@smi/inhabit';
import { FIXTURES_ROOT, fixturePath } from '../../../test-support/fixtures.js';

export const DEMO = canonicalAddress('0xd3e0');

/** The demo package's source: each function is a case the tests name. */
export const DEMO_SOURCE = `
module demo::shop {
    use sui::coin::Coin;
    use sui::sui::SUI;
    use sui::clock::Clock;
    use std::string::String;

    public struct SHOP has drop {}
    public struct AdminCap has key, store { id: UID }
    public struct Shop has key { id: UID, items: u64, owner: address }
    public struct Item has key, store { id: UID, price: u64 }
    public struct Receipt { amount: u64 }
    public struct Config has store, drop { fee: u64 }
    public struct Secret has key { id: UID }
    public struct Board has key { id: UID, posts: u64 }
    public struct Plaque has key, store { id: UID }
    public struct Wrapped has drop { config: Config }
    public struct Ticket { serial: u64 }
    public struct Registry has key { id: UID, entries: sui::table::Table<u64, u64> }
    public struct Token has drop { v: u64 }

    fun init(_otw: SHOP, ctx: &mut TxContext) {
        transfer::transfer(AdminCap { id: object::new(ctx) }, ctx.sender());
        transfer::share_object(Shop { id: object::new(ctx), items: 0, owner: ctx.sender() });
        transfer::share_object(Registry { id: object::new(ctx), entries: sui::table::new(ctx) });
    }

    // Constructors.
    public fun new_config(fee: u64): Config { Config { fee } }
    public fun new_item(price: u64, ctx: &mut TxContext): Item { Item { id: object::new(ctx), price } }
    public fun start_purchase(amount: u64): Receipt { Receipt { amount } }
    public fun create_board(ctx: &mut TxContext) { transfer::share_object(Board { id: object::new(ctx), posts: 0 }) }
    public fun make_plaque(ctx: &mut TxContext) { transfer::public_freeze_object(Plaque { id: object::new(ctx) }) }
    public fun wrap_config(c: Config): Wrapped { Wrapped { config: c } }
    fun make_secret(ctx: &mut TxContext): Secret { Secret { id: object::new(ctx) } }

    // Tier B hits.
    public fun fee_of(c: &Config): u64 { c.fee }
    public fun unwrap_fee(w: &Wrapped): u64 { w.config.fee }
    public fun add_item(_cap: &AdminCap, shop: &mut Shop, item: Item) {
        shop.items = shop.items + 1;
        let Item { id, price: _ } = item;
        id.delete();
    }
    public fun buy(shop: &mut Shop, payment: Coin<SUI>, ctx: &mut TxContext): Item {
        assert!(payment.value() > 0, 1);
        transfer::public_transfer(payment, shop.owner);
        new_item(1, ctx)
    }
    public fun finish_purchase(r: Receipt, config: &Config): u64 { let Receipt { amount } = r; amount + config.fee }
    public fun post(board: &mut Board) { board.posts = board.posts + 1 }
    public fun read_plaque(_p: &Plaque): bool { true }
    public fun keep<T: key + store>(obj: T, ctx: &TxContext) { transfer::public_transfer(obj, ctx.sender()) }
    public fun name_len(s: String): u64 { s.length() }
    public fun leave_receipt(amount: u64): Receipt { start_purchase(amount) }
    public fun issue_ticket(serial: u64): Ticket { Ticket { serial } }
    public fun needs_large(x: u64): u64 { x - 1000 }
    public fun now(c: &Clock): u64 { c.timestamp_ms() }
    entry fun private_entry(x: u64) { assert!(x < 1000000000000, 3) }

    // Found by the search: a state set up first, another constructor, a length the code checks.
    public fun register(reg: &mut Registry, key: u64, value: u64) { reg.entries.add(key, value) }
    public fun lookup(reg: &Registry, key: u64): u64 { *reg.entries.borrow(key) }
    public fun mint_token_checked(v: u64): Token { assert!(v * 0 == 1, 9); Token { v } }
    public fun mint_token(v: u64): Token { Token { v } }
    public fun token_value(t: &Token): u64 { t.v }
    public fun check_key(key: vector<u8>): u64 { assert!(key.length() == 32, 11); 1 }

    // Tier B failures.
    public fun needs_42(x: u64) { assert!(x == 42, 7) }
    public fun never_thirds(x: u64) { assert!(x * 3 == 1000, 7) }
    public fun always_underflow(x: u8): u8 { x - 200 }
    public fun spin() { loop {} }
    public fun burn_secret(_s: &Secret) { abort 5 }
    public fun pick(v: vector<u64>, i: u64): u64 { v[i + 1] }
    public fun total_fee(cs: vector<Config>): u64 { cs.length() }

    // Tier A failures.
    public fun read_secret(s: &Secret): bool { let _ = s; true }
    public fun set_clock(_c: &mut Clock) {}
    public fun engrave(_p: &mut Plaque) {}
    public fun items_ref(shop: &Shop): &u64 { &shop.items }

    // Not targets.
    public(package) fun package_only(): u64 { 1 }
    fun private_only(ctx: &mut TxContext): Secret { make_secret(ctx) }
}
`;

let compiled: Promise<MovePackage> | null = null;

/** The demo package, compiled once. */
export function demoPackage(): Promise<MovePackage> {
  compiled ??= (async () => {
    const { packages } = fromFixtures(FIXTURES_ROOT);
    const [std, sui] = packages;
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (input: unknown) => {
      throw new Error(`network disabled in tests (${String(input)})`);
    }) as typeof fetch;
    try {
      const out = await compileMovePackage({
        files: { 'Move.toml': '[package]\nname = "demo"\nedition = "2024"\n\n[addresses]\ndemo = "0xd3e0"\n', 'sources/shop.move': DEMO_SOURCE },
        dependencies: [
          { name: 'MoveStdlib', address: std.originalId, modules: std.modules.map((m) => m.module) },
          { name: 'Sui', address: sui.originalId, modules: sui.modules.map((m) => m.module) },
        ],
        silenceWarnings: true,
      });
      // The compiler leaves the package at 0x0 (ready to publish): place it at DEMO, as a
      // package loaded from the chain would be.
      const zero = canonicalAddress('0x0');
      const placed = out.modules.map((m) => {
        const module = deserializeModule(m.bytes);
        return serializeModule({ ...module, addressIdentifiers: module.addressIdentifiers.map((a) => (a === zero ? DEMO : a)) });
      });
      return packageFromBytes(placed);
    } finally {
      globalThis.fetch = realFetch;
    }
  })();
  return compiled;
}

/** The framework and protocol config of the fixtures. */
export function framework(): Pick<BenchmarkOptions, 'framework' | 'protocolConfig'> {
  const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
  return { framework: packages, protocolConfig };
}

/** The corpus package whose id starts with `prefix`. */
export function corpusPackage(prefix: string): MovePackage {
  const dir = findPackageDirs(fixturePath('corpus')).find((d) => d.split('/').pop()?.startsWith(prefix));
  if (dir === undefined) throw new Error(`no corpus package ${prefix}`);
  return loadPackageDir(dir);
}

/** The row of `name` among `rows`. */
export function rowOf(rows: readonly BenchmarkRow[], name: string): BenchmarkRow {
  const r = rows.find((x) => x.target_function === name);
  if (r === undefined) throw new Error(`no row for ${name}`);
  return r;
}
