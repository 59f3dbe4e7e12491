/**
 * Shared setup of the executor behaviour tests (`ptb-*.test.ts`): a framework-only
 * environment, a small Move package compiled offline and published once per file, and
 * helpers to read a transaction's failure.
 */
import { expect } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import { compileMovePackage } from '@smi/move-compiler';
import { objectTypeTag } from '@smi/ptb';
import type { Json } from '@smi/move-vm';
import { compileAndPublish, type CompileAndPublishOutcome, decodeValue, fromFixtures, type OwnerSpec, SimulationEnvironment, type TransactionOutcome } from '@smi/simulation';
import { FIXTURES_ROOT } from '../../../test-support/fixtures.js';

export const SUI_COIN = '0x2::coin::Coin<0x2::sui::SUI>';
export const FRAMEWORK = ['0x1', '0x2', '0x3'].map((a) => canonicalAddress(a));

/** The test package: one module of small functions, one with a one-time witness. */
export const HELPER_SOURCES: Record<string, string> = {
  'sources/h.move': `
module helper::h {
    use std::string::String;
    use std::ascii;

    public struct Obj has key, store { id: UID, value: u64 }
    public struct KeyOnly has key { id: UID }
    public struct Potato { value: u64 }
    public struct Token has store { value: u64 }
    public struct Copyable has copy, store { value: u64 }
    public struct Box has key, store { id: UID, inner: Obj }

    public fun new_obj(value: u64, ctx: &mut TxContext): Obj { Obj { id: object::new(ctx), value } }
    public fun new_key_only(ctx: &mut TxContext): KeyOnly { KeyOnly { id: object::new(ctx) } }
    public fun transfer_key_only(k: KeyOnly, to: address) { transfer::transfer(k, to) }
    public fun share_new(value: u64, ctx: &mut TxContext) { transfer::public_share_object(Obj { id: object::new(ctx), value }) }
    public fun freeze_new(value: u64, ctx: &mut TxContext) { transfer::public_freeze_object(Obj { id: object::new(ctx), value }) }
    public fun mint(value: u64, to: address, ctx: &mut TxContext) { transfer::public_transfer(Obj { id: object::new(ctx), value }, to) }
    public fun value(o: &Obj): u64 { o.value }
    public fun set_value(o: &mut Obj, v: u64) { o.value = v }
    public fun bump(o: &mut Obj) { o.value = o.value + 1 }
    public fun destroy(o: Obj): u64 { let Obj { id, value } = o; id.delete(); value }
    public fun borrow_value(o: &Obj): &u64 { &o.value }
    public fun borrow_then_take(_a: &Obj, b: Obj): u64 { destroy(b) }
    public fun take_then_borrow(b: Obj, _a: &Obj): u64 { destroy(b) }
    public fun pair(): (u64, u64) { (1, 2) }
    public fun add(a: u64, b: u64): u64 { a + b }
    public fun add_to(x: &mut u64, v: u64) { *x = *x + v }
    public fun read(x: &u64): u64 { *x }
    public fun str_len(s: String): u64 { s.length() }
    public fun ascii_len(s: ascii::String): u64 { s.length() }
    public fun id_of(o: &Obj): ID { object::id(o) }
    public fun same_id(a: ID, b: address): bool { a.to_address() == b }
    public fun sum(v: vector<u64>): u64 { let mut s = 0; let mut i = 0; while (i < v.length()) { s = s + v[i]; i = i + 1; }; s }
    public fun destroy_all(mut v: vector<Obj>): u64 {
        let mut s = 0;
        while (!v.is_empty()) { s = s + destroy(v.pop_back()); };
        v.destroy_empty();
        s
    }
    public fun potato(value: u64): Potato { Potato { value } }
    public fun eat(p: Potato): u64 { let Potato { value } = p; value }
    public fun peek(p: &Potato, x: u64): u64 { p.value + x }
    public fun ref_and_val(x: &u64, y: u64): u64 { *x + y }
    public fun wrap(o: Obj, ctx: &mut TxContext): Box { Box { id: object::new(ctx), inner: o } }
    public fun token(value: u64): Token { Token { value } }
    public fun burn(t: Token): u64 { let Token { value } = t; value }
    public fun copyable(value: u64): Copyable { Copyable { value } }
    public fun copyable_value(c: Copyable): u64 { let Copyable { value } = c; value }
    public fun copyable_peek(c: &Copyable): u64 { c.value }
    public fun abort_with(code: u64) { abort code }
    public fun set_then_abort(o: &mut Obj, v: u64) { o.value = v; abort 9 }

    entry fun private_entry(o: &mut Obj, v: u64) { o.value = v }
    entry fun private_entry_value(v: u64): u64 { v }
    entry fun private_entry_eat(p: Potato): u64 { eat(p) }
    public entry fun public_entry(o: &mut Obj) { o.value = o.value * 2 }
    fun private_fun(): u64 { 1 }
    public(package) fun package_fun(): u64 { 2 }
}

module helper::registry {
    /// The one-time witness.
    public struct REGISTRY has drop {}
    public struct Registry has key { id: UID, witnessed: bool, creator: address }

    fun init(witness: REGISTRY, ctx: &mut TxContext) {
        let witnessed = sui::types::is_one_time_witness(&witness);
        transfer::share_object(Registry { id: object::new(ctx), witnessed, creator: ctx.sender() })
    }

    public fun witnessed(r: &Registry): bool { r.witnessed }
}
`,
};

/** A framework-only environment (0x1, 0x2, 0x3) at the newest protocol version. */
export function newEnv(): SimulationEnvironment {
  const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
  return SimulationEnvironment.create({ packages: packages.filter((p) => FRAMEWORK.includes(p.id)), protocolConfig });
}

/** An environment with the helper package published. */
export async function envWithHelper(): Promise<{ env: SimulationEnvironment; pkg: string; published: CompileAndPublishOutcome }> {
  const env = newEnv();
  const published = await compileAndPublish(env, { files: HELPER_SOURCES });
  return { env, pkg: published.packageId, published };
}

/** Modules of `files` compiled against the environment's framework (not published). */
export async function compileOnly(env: SimulationEnvironment, files: Record<string, string>): Promise<Uint8Array[]> {
  const dep = (id: string, name: string) => {
    const p = env.vm.packageById(canonicalAddress(id));
    if (p === undefined) throw new Error(`${id} is not loaded`);
    return { name, address: p.originalId, modules: p.modules.map((m) => m.module) };
  };
  const out = await compileMovePackage({
    files: { 'Move.toml': '[package]\nname = "helper"\nedition = "2024"\n\n[addresses]\nhelper = "0x0"\n', ...files },
    dependencies: [dep('0x1', 'MoveStdlib'), dep('0x2', 'Sui')],
  });
  return out.modules.map((m) => m.bytes);
}

/** Failure kind, failing command and (for `CommandArgumentError`) argument and kind. */
export interface FailureSummary {
  kind: string;
  command: number | null;
  argIdx?: number;
  argKind?: string;
}

/** The failure of a transaction as a small record (throws when it succeeded). */
export function failureOf(out: TransactionOutcome): FailureSummary {
  if (out.status.$kind !== 'Failure') throw new Error('the transaction succeeded');
  const e = out.status.error as { $kind: string; CommandArgumentError?: { argIdx: number; kind: { $kind: string } } };
  const s: FailureSummary = { kind: e.$kind, command: out.status.command };
  if (e.CommandArgumentError !== undefined) {
    s.argIdx = e.CommandArgumentError.argIdx;
    s.argKind = e.CommandArgumentError.kind.$kind;
  }
  return s;
}

/** Assert success (showing the failure when not). */
export function expectSuccess(out: TransactionOutcome): void {
  if (out.status.$kind === 'Failure') expect.fail(`failed: ${out.status.message} (command ${out.status.command})`);
}

/** The ids of objects created by a transaction, with their types. */
export function createdOf(out: TransactionOutcome): { id: string; type: string | null }[] {
  return out.written.filter((w) => w.kind === 'created').map((w) => ({ id: w.id, type: w.object.data.$kind === 'Move' ? objectTypeTag(w.object) : null }));
}

/** The `k`-th value command `cmd` returned, decoded to JSON. */
export function returned(env: SimulationEnvironment, out: TransactionOutcome, cmd: number, k = 0): Json {
  const v = out.commandResults[cmd]?.returnValues[k];
  if (v === undefined) throw new Error(`command ${cmd} has no return value ${k}`);
  return decodeValue(env, v.type, v.bcs).value;
}

/** A helper `Obj` of `value` made outside a transaction (owned by the sender unless `owner`). */
export function makeObj(env: SimulationEnvironment, pkg: string, value: number, owner?: OwnerSpec): string {
  return env.createObject({ type: `${pkg}::h::Obj`, fields: { value }, ...(owner ? { owner } : {}) }).id;
}

/** A `Coin<SUI>` of `balance` owned by the sender. */
export function makeCoin(env: SimulationEnvironment, balance: bigint | number, type = SUI_COIN): string {
  return env.createObject({ type, fields: { balance: balance.toString() } }).id;
}

/** Balance of a stored coin. */
export function balanceOf(env: SimulationEnvironment, id: string): bigint {
  const v = env.getObject(id)?.value as { balance: { value: string } } | undefined;
  if (v === undefined) throw new Error(`coin ${id} does not exist`);
  return BigInt(v.balance.value);
}

/** `value` field of a stored helper `Obj`. */
export function objValue(env: SimulationEnvironment, id: string): string {
  return (env.getObject(id)!.value as { value: string }).value;
}
