/**
 * A Phase II target on a fake full node, for the tests of `--simulation-mode dry-run|dev-inspect`:
 * a small Move package of our own (`shop`: owned `Item`s, a `Receipt` wrapping one, a shared
 * `Counter` its `init` makes, a gas-hungry `spin`), compiled, written as a one-package corpus,
 * and published into a {@link SimulationEnvironment} whose chain a {@link fullnodeChain}
 * serves: the sender holds two `Coin<SUI>` and an `Item`, made by one real transaction (the
 * chain's only checkpoint, which tells the reference gas price, 750).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { canonicalAddress, type MovePackage, packageFromBytes } from '@smi/bytecode';
import { compileMovePackage } from '@smi/move-compiler';
import type { ProtocolConfig } from '@smi/move-vm';
import { fromFixtures, SimulationEnvironment } from '@smi/simulation';
import { commitTransaction, fullnodeChain, type FullnodeChain } from './fake-fullnode.js';
import { FIXTURES_ROOT } from './fixtures.js';

export const SHOP = canonicalAddress('0x5e0d');
export const ITEM = `${SHOP}::shop::Item`;
export const RECEIPT = `${SHOP}::shop::Receipt`;
export const COUNTER = `${SHOP}::shop::Counter`;
export const SENDER = canonicalAddress('0xa11ce');
export const PUBLISHER = canonicalAddress('0xb0b');
/** The chain's reference gas price. */
export const REFERENCE_GAS_PRICE = 750n;

const SOURCE = `module demo::shop;

public struct Item has key, store { id: UID, price: u64 }
public struct Receipt has key { id: UID, item: Item }
public struct Counter has key { id: UID, n: u64 }

fun init(ctx: &mut TxContext) { transfer::share_object(Counter { id: object::new(ctx), n: 0 }) }

public fun new_item(price: u64, ctx: &mut TxContext): Item { assert!(price > 0, 1); Item { id: object::new(ctx), price } }
public fun buy(item: Item, ctx: &mut TxContext) { transfer::transfer(Receipt { id: object::new(ctx), item }, ctx.sender()) }
public entry fun make_item(price: u64, ctx: &mut TxContext) { transfer::public_transfer(new_item(price, ctx), ctx.sender()) }
public fun bump(c: &mut Counter, item: &Item) { c.n = c.n + item.price }
public fun spin(n: u64) { let mut i = 0; while (i < n) { i = i + 1 } }
`;

/** The fixture. */
export interface Phase2NodeFixture {
  framework: MovePackage[];
  protocolConfig: ProtocolConfig;
  shop: MovePackage;
  /** A corpus holding only `shop`. */
  corpus: string;
  env: SimulationEnvironment;
  chain: FullnodeChain;
  counterId: string;
  itemId: string;
  /** The sender's coins, in the order the node lists them (the first pays gas). */
  coins: string[];
}

/** Build the fixture (compiles Move: a few seconds). */
export async function phase2NodeFixture(): Promise<Phase2NodeFixture> {
  const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
  const framework = packages.filter((p) => BigInt(p.id) <= 0xdee9n);
  const compiled = await compileMovePackage({
    files: { 'Move.toml': '[package]\nname = "demo"\nedition = "2024"\n\n[addresses]\ndemo = "0x0"\n', 'sources/shop.move': SOURCE },
    dependencies: framework.filter((p) => BigInt(p.id) <= 2n).map((p) => ({ name: BigInt(p.id) === 1n ? 'MoveStdlib' : 'Sui', address: p.originalId, modules: p.modules.map((m) => m.module) })),
    address: SHOP,
  });
  const shop = packageFromBytes(
    compiled.modules.map((m) => m.bytes),
    { id: SHOP },
  );
  const corpus = mkdtempSync(path.join(os.tmpdir(), 'smi-p2-node-corpus-'));
  const dir = path.join(corpus, SHOP, 'bytecode_modules');
  mkdirSync(dir, { recursive: true });
  for (const m of compiled.modules) writeFileSync(path.join(dir, `${m.name}.mv`), m.bytes);
  writeFileSync(path.join(corpus, SHOP, 'metadata.json'), JSON.stringify({ id: SHOP }));

  const env = SimulationEnvironment.create({ packages: [...framework, shop], protocolConfig, sender: SENDER, gasPrice: REFERENCE_GAS_PRICE });
  const init = env.runPackageInits(SHOP, { sender: PUBLISHER });
  if (init.status.$kind !== 'Success') throw new Error(`shop init failed: ${init.status.message}`);
  const counterId = env.listObjects({ movesOnly: true }).find((o) => o.type === COUNTER)?.id;
  if (counterId === undefined) throw new Error('no Counter');
  const first = env.createObject({ type: '0x2::coin::Coin<0x2::sui::SUI>', fields: { balance: { value: '50000000000' } }, owner: { $kind: 'AddressOwner', address: SENDER } }).id;
  // One real transaction: an Item for the sender, and a second coin split off the first.
  const tx = env.tx();
  tx.moveCall(`${SHOP}::shop::make_item`, [tx.pure('u64', '5')]);
  const [coin] = tx.splitCoins(tx.gas, [tx.pure('u64', '1000000000')]);
  tx.transferObjects([coin], tx.pure('address', SENDER));
  const history = commitTransaction(env, tx.build(), { sender: SENDER, gasCoin: first, gasBudget: 50_000_000n });
  const owned = env.listObjects({ movesOnly: true }).filter((o) => o.owner.$kind === 'AddressOwner' && canonicalAddress((o.owner as { address: string }).address) === SENDER);
  const itemId = owned.find((o) => o.type === ITEM)?.id;
  if (itemId === undefined) throw new Error('no Item');
  const chain = fullnodeChain(env, { owners: [SENDER, PUBLISHER], history: [history] });
  const coins = (chain.owned.get(SENDER) ?? []).filter((o) => o.type.includes('::coin::Coin<')).map((o) => o.id);
  return { framework, protocolConfig, shop, corpus, env, chain, counterId, itemId, coins };
}
