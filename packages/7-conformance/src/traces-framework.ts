/**
 * The Sui framework (0x2) a `sui move test` run had: the published framework of one protocol
 * version (`fixtures/framework-snapshots/<version>`) with its `tx_context` module as the test
 * build has it. `sui move test` compiles the framework in test mode, so `#[test_only]`
 * functions (`tx_context::dummy`, `new`, the native `replace`) sit among the published ones and
 * shift their indices (`binary_member_index` in a trace); published bytecode has none of them.
 * We compile `tx_context.move` of that framework in test mode with the Sui compiler (WASM) and
 * check that everything but its test-only functions is the published module's bytecode. The
 * other modules the traces run keep their published layout (their test-only functions, if
 * any, come after the ones called), and the stdlib is the snapshot's too: the latest one's
 * `vector::singleton` and `vector::is_empty` are not those of the traces.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { canonicalAddress, deserializeModule, disassembleFunction, loadSnapshotFile, type CompiledModule, type MovePackage, type PackageModule, SmiError } from '@smi/bytecode';
import { loadProtocolConfig, type ProtocolConfig } from '@smi/move-vm';
import { frameworkSnapshotFor, moveCompilerImportFailed } from '@smi/simulation';
import { snapshotVersions } from './traces-choose.js';

/**
 * `sui::tx_context` of the Sui framework at protocols 78 to 86 (upstream
 * `crates/sui-framework/packages/sui-framework/sources/tx_context.move`, Apache-2.0): the
 * published part of its bytecode is that of those snapshots, and its test-only functions
 * are those of the traces (`new` at index 14, `dummy` at 16, `replace` at 25).
 */
export const TX_CONTEXT_TEST_SOURCE = `// Copyright (c) Mysten Labs, Inc.
// SPDX-License-Identifier: Apache-2.0

module sui::tx_context;

#[test_only]
/// Number of bytes in an tx hash (which will be the transaction digest)
const TX_HASH_LENGTH: u64 = 32;

#[test_only]
/// Expected an tx hash of length 32, but found a different length
const EBadTxHashLength: u64 = 0;

#[allow(unused_field)]
/// Information about the transaction currently being executed.
/// This cannot be constructed by a transaction--it is a privileged object created by
/// the VM and passed in to the entrypoint of the transaction as \`&mut TxContext\`.
public struct TxContext has drop {
    /// The address of the user that signed the current transaction
    sender: address,
    /// Hash of the current transaction
    tx_hash: vector<u8>,
    /// The current epoch number
    epoch: u64,
    /// Timestamp that the epoch started at
    epoch_timestamp_ms: u64,
    /// Counter recording the number of fresh id's created while executing
    /// this transaction. Always 0 at the start of a transaction
    ids_created: u64,
}

/// Return the address of the user that signed the current
/// transaction
public fun sender(_self: &TxContext): address {
    native_sender()
}
native fun native_sender(): address;

/// Return the transaction digest (hash of transaction inputs).
/// Please do not use as a source of randomness.
public fun digest(self: &TxContext): &vector<u8> {
    &self.tx_hash
}

/// Return the current epoch
public fun epoch(_self: &TxContext): u64 {
    native_epoch()
}
native fun native_epoch(): u64;

/// Return the epoch start time as a unix timestamp in milliseconds.
public fun epoch_timestamp_ms(_self: &TxContext): u64 {
    native_epoch_timestamp_ms()
}
native fun native_epoch_timestamp_ms(): u64;

/// Return the adress of the transaction sponsor or \`None\` if there was no sponsor.
public fun sponsor(_self: &TxContext): Option<address> {
    option_sponsor()
}

/// Create an \`address\` that has not been used. As it is an object address, it will never
/// occur as the address for a user.
/// In other words, the generated address is a globally unique object ID.
public fun fresh_object_address(_ctx: &mut TxContext): address {
    fresh_id()
}
native fun fresh_id(): address;

#[allow(unused_function)]
/// Return the number of id's created by the current transaction.
/// Hidden for now, but may expose later
fun ids_created(_self: &TxContext): u64 {
    native_ids_created()
}
native fun native_ids_created(): u64;

#[allow(unused_function)]
// native function to retrieve gas price, currently not exposed
native fun native_gas_price(): u64;

#[allow(unused_function)]
// native function to retrieve gas budget, currently not exposed
native fun native_gas_budget(): u64;

// ==== test-only functions ====

#[test_only]
/// Create a \`TxContext\` for testing
public fun new(
    sender: address,
    tx_hash: vector<u8>,
    epoch: u64,
    epoch_timestamp_ms: u64,
    ids_created: u64,
): TxContext {
    assert!(tx_hash.length() == TX_HASH_LENGTH, EBadTxHashLength);
    replace(
        sender,
        tx_hash,
        epoch,
        epoch_timestamp_ms,
        ids_created,
        native_gas_price(),
        native_gas_budget(),
        native_sponsor(),
    );
    // return an empty TxContext given all the info is held on the native side (call above)
    TxContext {
        sender: @0x0,
        tx_hash,
        epoch: 0,
        epoch_timestamp_ms: 0,
        ids_created: 0,
    }
}

#[test_only]
/// Create a \`TxContext\` for testing, with a potentially non-zero epoch number.
public fun new_from_hint(
    addr: address,
    hint: u64,
    epoch: u64,
    epoch_timestamp_ms: u64,
    ids_created: u64,
): TxContext {
    new(addr, dummy_tx_hash_with_hint(hint), epoch, epoch_timestamp_ms, ids_created)
}

#[test_only]
/// Create a dummy \`TxContext\` for testing
public fun dummy(): TxContext {
    let tx_hash = x"3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532";
    new(@0x0, tx_hash, 0, 0, 0)
}

#[test_only]
/// Utility for creating 256 unique input hashes.
/// These hashes are guaranteed to be unique given a unique \`hint: u64\`
fun dummy_tx_hash_with_hint(hint: u64): vector<u8> {
    let mut tx_hash = std::bcs::to_bytes(&hint);
    while (tx_hash.length() < TX_HASH_LENGTH) tx_hash.push_back(0);
    tx_hash
}

#[test_only]
public fun get_ids_created(self: &TxContext): u64 {
    ids_created(self)
}

#[test_only]
/// Return the most recent created object ID.
public fun last_created_object_id(_self: &TxContext): address {
    last_created_id()
}
#[test_only]
native fun last_created_id(): address;

#[test_only]
public fun increment_epoch_number(self: &mut TxContext) {
    let epoch = self.epoch() + 1;
    replace(
        native_sender(),
        self.tx_hash,
        epoch,
        native_epoch_timestamp_ms(),
        native_ids_created(),
        native_gas_price(),
        native_gas_budget(),
        native_sponsor(),
    );
}

#[test_only]
public fun increment_epoch_timestamp(self: &mut TxContext, delta_ms: u64) {
    let epoch_timestamp_ms = self.epoch_timestamp_ms() + delta_ms;
    replace(
        native_sender(),
        self.tx_hash,
        native_epoch(),
        epoch_timestamp_ms,
        native_ids_created(),
        native_gas_price(),
        native_gas_budget(),
        native_sponsor(),
    );
}

fun option_sponsor(): Option<address> {
    let sponsor = native_sponsor();
    if (sponsor.length() == 0) option::none() else option::some(sponsor[0])
}
native fun native_sponsor(): vector<address>;

#[test_only]
native fun replace(
    sender: address,
    tx_hash: vector<u8>,
    epoch: u64,
    epoch_timestamp_ms: u64,
    ids_created: u64,
    gas_price: u64,
    gas_budget: u64,
    sponsor: vector<address>,
);

#[allow(unused_function)]
/// Native function for deriving an ID via hash(tx_hash || ids_created)
native fun derive_id(tx_hash: vector<u8>, ids_created: u64): address;
`;

/** Packages and protocol config a trace calling into 0x2 runs with. */
export interface TraceFramework {
  /** Protocol version of the snapshot. */
  version: number;
  /** 0x1 and 0x2 of the snapshot (the packages a test depending on Sui has), 0x2 with the test build's `tx_context`. */
  packages: MovePackage[];
  /** The protocol config of `version` (native costs, object runtime limits). */
  protocolConfig: ProtocolConfig;
}

/** Codes of {@link TraceFrameworkError}. */
export type TraceFrameworkErrorCode = 'NO_SNAPSHOT' | 'COMPILE_FAILED' | 'NOT_THE_PUBLISHED_MODULE';

/** The test-mode framework of a trace could not be made. */
export class TraceFrameworkError extends SmiError<TraceFrameworkErrorCode> {
  override readonly name = 'TraceFrameworkError';
  constructor(code: TraceFrameworkErrorCode, message: string) {
    super(code, message);
  }
}

const STD = canonicalAddress('0x1');
const SUI = canonicalAddress('0x2');
/** Table indices in a disassembly (`LdConst[1]`, `Call[4]`): they differ between builds. */
const TABLE_INDEX = /\[\d+\]/g;

function functionNames(m: CompiledModule): string[] {
  return m.functionDefs.map((d) => m.identifiers[m.functionHandles[d.function].name]);
}

/**
 * Names of the functions of `published` whose disassembly differs in `test` (table indices
 * aside), or that `test` lacks: empty when `test` is `published` plus test-only functions.
 */
export function publishedPartDiffers(published: CompiledModule, test: CompiledModule): string[] {
  const testNames = new Set(functionNames(test));
  return functionNames(published).filter((n) => !testNames.has(n) || disassembleFunction(published, n).replace(TABLE_INDEX, '') !== disassembleFunction(test, n).replace(TABLE_INDEX, ''));
}

/** The test build of `tx_context` against `stdlib`, at 0x2. */
async function compileTxContext(stdlib: MovePackage): Promise<PackageModule> {
  // Loaded on first use: the WASM compiler is only needed for traces that call into 0x2.
  const { compileMovePackage, MoveCompileError } = await import('@smi/move-compiler').catch(moveCompilerImportFailed);
  const files = {
    // The stdlib named explicitly, as the framework's own manifest does.
    'Move.toml': [
      '[package]',
      'name = "Sui"',
      'edition = "2024.beta"',
      '',
      '[dependencies]',
      'MoveStdlib = { git = "https://github.com/MystenLabs/sui.git", subdir = "crates/sui-framework/packages/move-stdlib", rev = "framework/mainnet" }',
      '',
      '[addresses]',
      'sui = "0x2"',
      'std = "0x1"',
      '',
    ].join('\n'),
    'sources/tx_context.move': TX_CONTEXT_TEST_SOURCE,
  };
  try {
    const out = await compileMovePackage({
      files,
      dependencies: [{ name: 'MoveStdlib', address: '0x1', modules: stdlib.modules.map((m) => m.module) }],
      testMode: true,
      address: '0x2',
      silenceWarnings: true,
    });
    const m = out.modules.find((x) => x.name === 'tx_context');
    if (m === undefined) throw new TraceFrameworkError('COMPILE_FAILED', 'the compiler produced no tx_context module');
    return { name: m.name, bytes: m.bytes, module: deserializeModule(m.bytes) };
  } catch (e) {
    if (e instanceof MoveCompileError) throw new TraceFrameworkError('COMPILE_FAILED', `tx_context.move (test mode): ${e.message}`);
    throw e;
  }
}

const testBuilds = new Map<string, Promise<PackageModule>>();

/**
 * Whether the snapshot of `version` has the `tx_context` whose test build the traces ran: its
 * published part is that of {@link TX_CONTEXT_TEST_SOURCE}. The test build is compiled once
 * per fixtures root (against its newest snapshot's stdlib: the bytecode names stdlib
 * functions, not versions) and compared with each snapshot's published module, so snapshots
 * are ruled out without compiling for each.
 */
export async function hasTraceTxContext(fixturesRoot: string, version: number): Promise<boolean> {
  const snapshots = path.join(fixturesRoot, 'fixtures', 'framework-snapshots');
  const key = path.join(snapshots, String(version));
  let verdict = txContextVerdicts.get(key);
  if (verdict === undefined) {
    verdict = readTxContextVerdict(fixturesRoot, snapshots, version);
    txContextVerdicts.set(key, verdict);
    verdict.catch(() => txContextVerdicts.delete(key));
  }
  return verdict;
}

/** {@link hasTraceTxContext}'s answers, by snapshot folder: each snapshot's 0x2 is read once per process. */
const txContextVerdicts = new Map<string, Promise<boolean>>();

async function readTxContextVerdict(fixturesRoot: string, snapshots: string, version: number): Promise<boolean> {
  let build = testBuilds.get(snapshots);
  if (build === undefined) {
    const newest = snapshotVersions(fixturesRoot)[0];
    if (newest === undefined) return false;
    build = compileTxContext(loadSnapshotFile(path.join(snapshots, String(newest), STD)));
    testBuilds.set(snapshots, build);
    build.catch(() => testBuilds.delete(snapshots));
  }
  const test = await build;
  const file = path.join(snapshots, String(version), SUI);
  if (!existsSync(file)) return false;
  const published = loadSnapshotFile(file).modules.find((m) => m.name === 'tx_context');
  return published !== undefined && publishedPartDiffers(published.module, test.module).length === 0;
}

const cache = new Map<string, Promise<TraceFramework>>();

/**
 * The framework of protocol `version` as `sui move test` builds it (see the module comment),
 * from `<fixturesRoot>/fixtures/framework-snapshots/<version>`; cached per root and version.
 *
 * @throws {TraceFrameworkError} `NO_SNAPSHOT` when there is no snapshot of exactly `version`;
 * `COMPILE_FAILED`; `NOT_THE_PUBLISHED_MODULE` when the snapshot's `tx_context` is not the
 * published part of {@link TX_CONTEXT_TEST_SOURCE}.
 */
export function traceFramework(fixturesRoot: string, version: number): Promise<TraceFramework> {
  const key = `${path.resolve(fixturesRoot)}@${version}`;
  let p = cache.get(key);
  if (p === undefined) {
    p = makeTraceFramework(fixturesRoot, version);
    cache.set(key, p);
    p.catch(() => cache.delete(key));
  }
  return p;
}

async function makeTraceFramework(fixturesRoot: string, version: number): Promise<TraceFramework> {
  const snap = frameworkSnapshotFor(fixturesRoot, version);
  if (snap === undefined || snap.version !== version) {
    throw new TraceFrameworkError('NO_SNAPSHOT', `no framework snapshot of protocol ${version} in ${path.join(fixturesRoot, 'fixtures', 'framework-snapshots')}`);
  }
  const stdlib = snap.packages.find((p) => p.originalId === STD);
  const sui = snap.packages.find((p) => p.originalId === SUI);
  const published = sui?.modules.find((m) => m.name === 'tx_context');
  if (stdlib === undefined || sui === undefined || published === undefined) {
    throw new TraceFrameworkError('NO_SNAPSHOT', `the snapshot of protocol ${version} lacks 0x1, 0x2 or 0x2::tx_context`);
  }
  const test = await compileTxContext(stdlib);
  const differs = publishedPartDiffers(published.module, test.module);
  if (differs.length > 0) {
    throw new TraceFrameworkError('NOT_THE_PUBLISHED_MODULE', `tx_context of protocol ${version} is not the published part of the test source (differs in ${differs.join(', ')})`);
  }
  const testSui: MovePackage = { ...sui, modules: sui.modules.map((m) => (m.name === 'tx_context' ? test : m)) };
  return {
    version,
    packages: [stdlib, testSui],
    protocolConfig: loadProtocolConfig(fixturesRoot, version),
  };
}
