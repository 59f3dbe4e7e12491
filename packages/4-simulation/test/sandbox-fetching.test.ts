/**
 * SandboxSession with a fetcher (`sandbox-exec --enable-fetching`): a request that needs a
 * package or an object the session does not hold fetches it from the node (the real mainnet
 * packages and objects of `fixtures/replay`, or a chain made from another session's objects),
 * adds it and goes on; the response lists what was fetched and the state file keeps it. What
 * the node cannot give is a clear error that leaves nothing half-added.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import { suiBcs } from '@smi/ptb';
import { DataSourceError, fromFixtures, SandboxSession, type SandboxResponse, type SuiDataSource } from '@smi/simulation';
import { chainFromReplayFixtures, chainSource, emptyChain, type FakeChain } from '../../../test-support/fake-chain.js';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';

/** The lending package (version 4) of a fixture transaction; its linkage adds the oracle package. */
const LENDING = canonicalAddress('0xb2345915de1f9bd661e9ab27eb27e376cdf6391359ea64fbfdb4550b092c1aa0');
const ORACLE = canonicalAddress('0xca441b44943c16be0e6e23c5a955bb971537ea3289ae8016fbf33fffe1fd210f');
/** A `Coin<SUI>` of a fixture transaction, at version 4346051, and its owner. */
const COIN = canonicalAddress('0x1520bcb11fd3a4b8bc175d2e0d33dff295cede495737bd3820ff94a440549004');
const RAY = 10n ** 27n;

let fixtures: ReturnType<typeof fromFixtures> | undefined;
function session(fetcher?: SuiDataSource, extra: { maxFetches?: number; onFetch?: (f: unknown) => void } = {}): SandboxSession {
  fixtures ??= fromFixtures(FIXTURES_ROOT);
  return SandboxSession.create({ ...fixtures, ...(fetcher ? { fetcher } : {}), ...extra });
}

function fixtureSource(): SuiDataSource {
  return chainSource(chainFromReplayFixtures(FIXTURES_ROOT));
}

/** A source that answers every call but `getObject(failing)`, which fails with `code`. */
function failingOn(source: SuiDataSource, failing: string, code: 'UNAVAILABLE' | 'NOT_FOUND'): SuiDataSource & { asked: string[] } {
  const asked: string[] = [];
  return {
    ...source,
    asked,
    getObject: async (id, version) => {
      asked.push(id);
      if (canonicalAddress(id) === failing) throw new DataSourceError(code, `scripted ${code} for ${id}`);
      return source.getObject(id, version);
    },
  };
}

type Data = Record<string, unknown>;
function okData(r: SandboxResponse): Data {
  expect(r.error, r.error).toBeUndefined();
  expect(r.success).toBe(true);
  return r.data as Data;
}

async function objectCount(s: SandboxSession): Promise<number> {
  return (okData(await s.handle({ action: 'get_state' })) as { object_count: number }).object_count;
}

const COUNTER = `module demo::board;
use sui::dynamic_field;
public struct Board has key { id: UID }
public fun create(ctx: &mut TxContext) { transfer::share_object(Board { id: object::new(ctx) }) }
public fun put(b: &mut Board, key: u64, value: u64) { dynamic_field::add(&mut b.id, key, value) }
public fun get(b: &Board, key: u64): u64 { *dynamic_field::borrow(&b.id, key) }
`;

/** A chain holding what another session made: a package with a shared `Board` and one dynamic field under it. */
async function boardChain(): Promise<{ chain: FakeChain; pkg: string; board: string; field: string }> {
  const a = session();
  const compiled = okData(await a.handle({ action: 'compile_move', package_name: 'demo', module_name: 'board', source: COUNTER }));
  const pkg = compiled.package_id as string;
  const created = await a.handle({ action: 'call_function', package: pkg, module: 'board', function: 'create' });
  const board = created.effects?.created.find((c) => c.object_type?.endsWith('::board::Board'))?.id as string;
  okData(await a.handle({ action: 'call_function', package: pkg, module: 'board', function: 'put', args: [board, 7, 42] }));
  const field = a.env.listObjects().find((v) => v.owner.$kind === 'ObjectOwner' && v.owner.address === board)?.id as string;
  expect(field).toBeDefined();
  const chain = emptyChain();
  for (const id of [pkg, board, field]) {
    const o = a.env.store.getObject(id);
    if (o === undefined) throw new Error(`no ${id}`);
    const version = o.data.$kind === 'Move' ? o.data.Move.version : o.data.Package.version;
    chain.objects.set(id, new Map([[version, suiBcs.Object.serialize(o).toBytes()]]));
  }
  return { chain, pkg, board, field };
}

describeWithFixtures('sandbox fetching', ['fixtures', 'replay'], () => {
  it('inspect_object of an object only the node has: fetched (current version) and answered', async () => {
    const heard: unknown[] = [];
    const s = session(fixtureSource(), { onFetch: (f) => heard.push(f) });
    const before = await objectCount(s);
    const r = await s.handle({ action: 'inspect_object', object_id: COIN });
    const data = okData(r);
    expect(data).toMatchObject({
      object_id: COIN,
      type: '0x0000000000000000000000000000000000000000000000000000000000000002::coin::Coin<0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI>',
      version: 4346051,
    });
    expect((data.decoded as { balance: unknown }).balance).toBeDefined();
    expect(r.fetched).toEqual([{ kind: 'object', id: COIN, version: 4346051 }]);
    expect(heard).toEqual(r.fetched);
    expect(await objectCount(s)).toBe(before + 1);
    // Held now: asked again, nothing is fetched.
    const again = await s.handle({ action: 'inspect_object', object_id: COIN });
    expect(again.success).toBe(true);
    expect(again.fetched).toBeUndefined();
  });

  it('call_function into a package only the node has: the package and its linkage are fetched, the call answered', async () => {
    const s = session(fixtureSource());
    const r = await s.handle({ action: 'call_function', package: LENDING, module: 'ray_math', function: 'ray_mul', args: [(2n * RAY).toString(), (3n * RAY).toString()] });
    const data = okData(r) as { returns: { value: unknown }[] };
    expect(data.returns[0].value).toBe((6n * RAY).toString());
    expect(r.fetched).toEqual([
      { kind: 'package', id: LENDING, version: 4 },
      { kind: 'package', id: ORACLE, version: 1 },
    ]);
    const state = okData(await s.handle({ action: 'get_state' })) as { loaded_packages: string[] };
    expect(state.loaded_packages).toEqual(expect.arrayContaining([LENDING, ORACLE]));
  });

  it('execute_ptb needing an object and a package only the node has: both fetched, the transaction runs', async () => {
    const source = fixtureSource();
    const owner = (suiBcs.Object.parse((await source.getObject(COIN)).bcs).owner as { AddressOwner: string }).AddressOwner;
    const s = session(source);
    const r = await s.handle({
      action: 'execute_ptb',
      sender: owner,
      inputs: [
        { type: 'object', object_id: COIN },
        { type: 'pure', value: 5, value_type: 'u64' },
        { type: 'pure', value: '40', value_type: 'u256' },
        { type: 'pure', value: '2', value_type: 'u256' },
      ],
      commands: [
        { type: 'split_coins', coin: 0, amounts: [1] },
        { type: 'transfer_objects', objects: [{ result: 0 }], recipient: owner },
        { type: 'move_call', package: LENDING, module: 'safe_math', function: 'add', args: [2, 3] },
      ],
    });
    expect(r.error, r.error).toBeUndefined();
    expect(r.success).toBe(true);
    expect(r.effects?.status).toBe('success');
    expect(r.effects?.created).toHaveLength(1);
    expect(r.effects?.return_values?.find((v) => v.command_index === 2)?.decoded).toEqual(['42']);
    expect(r.fetched?.map((f) => `${f.kind}:${f.id}`)).toEqual([`object:${COIN}`, `package:${LENDING}`, `package:${ORACLE}`]);
    // One transaction ran: the failed tries left nothing behind (the coin is at its fetched version + the one transaction).
    expect(r.effects?.mutated.find((m) => m.id === COIN)?.version).toBe(r.effects?.lamport_version);
  });

  it('a missing object the node does not have either: a clear MissingObject error, nothing added', async () => {
    const s = session(fixtureSource());
    const before = await objectCount(s);
    const missing = canonicalAddress('0xdead');
    const r = await s.handle({ action: 'inspect_object', object_id: missing });
    expect(r).toMatchObject({ success: false, error_category: 'MissingObject', fetch_error: { kind: 'object', id: missing, code: 'NOT_FOUND' } });
    expect(r.error).toMatch(new RegExp(`could not fetch object ${missing} from memory:: NOT_FOUND`));
    expect(r.fetched).toBeUndefined();
    expect(await objectCount(s)).toBe(before);
  });

  it('a dependency the node cannot give (UNAVAILABLE): the package is not half-added; the error names the dependency', async () => {
    const source = failingOn(fixtureSource(), ORACLE, 'UNAVAILABLE');
    const s = session(source);
    const r = await s.handle({ action: 'call_function', package: LENDING, module: 'safe_math', function: 'add', args: ['1', '2'] });
    expect(r).toMatchObject({ success: false, error_category: 'MissingPackage', fetch_error: { kind: 'package', id: ORACLE, code: 'UNAVAILABLE' } });
    expect(r.error).toMatch(/could not fetch package 0x[0-9a-f]{64} .*UNAVAILABLE/);
    const state = okData(await s.handle({ action: 'get_state' })) as { loaded_packages: string[] };
    expect(state.loaded_packages).not.toContain(LENDING);
    const list = await s.handle({ action: 'list_objects', include_packages: true });
    expect(JSON.stringify(list.data)).not.toContain(LENDING);
  });

  it('the fetch limit stops a request with FETCH_LIMIT', async () => {
    const s = session(fixtureSource(), { maxFetches: 1 });
    const r = await s.handle({ action: 'call_function', package: LENDING, module: 'safe_math', function: 'add', args: ['1', '2'] });
    expect(r).toMatchObject({ success: false, error_category: 'MissingPackage', fetch_error: { kind: 'package', id: ORACLE, code: 'FETCH_LIMIT' } });
  });

  it("without a fetcher nothing is fetched (today's behaviour)", async () => {
    const s = session();
    const r = await s.handle({ action: 'inspect_object', object_id: COIN });
    expect(r).toMatchObject({ success: false, error_category: 'MissingObject' });
    expect(r.fetched).toBeUndefined();
    expect(r.fetch_error).toBeUndefined();
  });

  it('a dynamic-field child read at run time is fetched when the transaction fails without it', async () => {
    const { chain, pkg, board, field } = await boardChain();
    const s = session(chainSource(chain));
    const r = await s.handle({ action: 'call_function', package: pkg, module: 'board', function: 'get', args: [board, 7] });
    const data = okData(r) as { returns: { value: unknown }[] };
    expect(data.returns[0].value).toBe('42');
    expect(r.fetched?.map((f) => `${f.kind}:${f.id}`)).toEqual([`package:${pkg}`, `object:${board}`, `object:${field}`]);
    // The try that aborted for want of the child was undone: one transaction ran.
    expect(s.env.captureState().counters.tx).toBe(1n);
    // A key that exists nowhere: the abort stands (the child the node lacks is no fetch error).
    const none = await s.handle({ action: 'call_function', package: pkg, module: 'board', function: 'get', args: [board, 8] });
    expect(none).toMatchObject({ success: false, error_category: 'ContractAbort' });
    expect(none.fetch_error).toBeUndefined();
  });

  it('the state saved after a fetch holds what was fetched: a session without a fetcher reads it', async () => {
    const s = session(fixtureSource());
    okData(await s.handle({ action: 'inspect_object', object_id: COIN }));
    okData(await s.handle({ action: 'call_function', package: LENDING, module: 'safe_math', function: 'add', args: ['1', '2'] }));
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'smi-fetching-')), 'state.json');
    s.saveState(file);
    const offline = session();
    offline.loadState(file);
    const inspected = okData(await offline.handle({ action: 'inspect_object', object_id: COIN }));
    expect(inspected).toMatchObject({ object_id: COIN, version: 4346051 });
    const call = okData(await offline.handle({ action: 'call_function', package: LENDING, module: 'safe_math', function: 'add', args: ['1', '2'] })) as { returns: { value: unknown }[] };
    expect(call.returns[0].value).toBe('3');
  });
});
