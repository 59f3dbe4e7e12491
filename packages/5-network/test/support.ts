// A small chain for the network tests: arbitrary bytes (nothing in @smi/network decodes them),
// except the events, which the fake GraphQL service splits into single events.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { toBase58 } from '@mysten/sui/utils';
import { type ChainSimulation, type ChainTransaction, DataSourceError } from '@smi/simulation';
import { emptyChain, type FakeChain } from '../../../test-support/fake-chain.js';
import { fakeEventsBcs } from '../../../test-support/fake-graphql.js';

/** A valid base58 digest (32 bytes of `n`). */
export function digest(n: number): string {
  return toBase58(new Uint8Array(32).fill(n));
}

/** `0x` + 64 hex of a small number. */
export function addr(n: number): string {
  return `0x${n.toString(16).padStart(64, '0')}`;
}

export const TX_FULL = digest(1);
export const TX_BARE = digest(2);
export const TX_MANY_EVENTS = digest(3);
export const TX_MISSING = digest(9);
export const OBJ_A = addr(0xa);
export const OBJ_B = addr(0xb);
export const OWNER = addr(0x0a11ce);
export const SUI_COIN = `${addr(2)}::coin::Coin<${addr(2)}::sui::SUI>`;
export const USD_COIN = `${addr(2)}::coin::Coin<${addr(0xabc)}::usd::USD>`;
export const OTHER_TYPE = `${addr(0xdead)}::m::S`;

/** A simulation answer that shows what it was given: effects = [checks ? 1 : 0, ...tx]. */
export function simulateEcho(transactionBcs: Uint8Array, checks: boolean): ChainSimulation {
  if (transactionBcs[0] === 0xff) throw new Error('invalid transaction: bad kind');
  return {
    effectsBcs: Uint8Array.from([checks ? 1 : 0, ...transactionBcs]),
    eventsBcs: fakeEventsBcs(2, 9),
    commandResults: [{ returnValues: [{ type: 'u64', bcs: Uint8Array.from([42, 0, 0, 0, 0, 0, 0, 0]) }] }, { returnValues: [] }],
    createdObjects: [{ id: addr(0xc1), type: OTHER_TYPE }],
  };
}

/** The sample chain: three transactions, an epoch, two objects, two checkpoints, five owned objects. */
export function sampleChain(options: { simulate?: boolean } = {}): FakeChain {
  const chain = emptyChain();
  const txs: ChainTransaction[] = [
    {
      digest: TX_FULL,
      transactionBcs: Uint8Array.from([1, 2, 3]),
      effectsBcs: Uint8Array.from([4, 5, 6, 7]),
      eventsBcs: fakeEventsBcs(3),
      checkpoint: 100n,
      timestampMs: 1_700_000_000_123n,
      unchangedLoadedRuntimeObjects: [{ id: addr(0x77), version: 9n }],
    },
    {
      digest: TX_BARE,
      transactionBcs: Uint8Array.from([8]),
      effectsBcs: Uint8Array.from([9]),
      eventsBcs: null,
      checkpoint: null,
      timestampMs: null,
      unchangedLoadedRuntimeObjects: null,
    },
    {
      digest: TX_MANY_EVENTS,
      transactionBcs: Uint8Array.from([10]),
      effectsBcs: Uint8Array.from([11]),
      eventsBcs: fakeEventsBcs(120, 3),
      checkpoint: 100n,
      timestampMs: 1_700_000_000_500n,
      unchangedLoadedRuntimeObjects: [],
    },
  ];
  for (const tx of txs) chain.transactions.set(tx.digest, tx);
  chain.epochs.set(7n, { epoch: 7n, protocolVersion: 68, referenceGasPrice: 750n, startTimestampMs: 1_699_999_999_000n });
  chain.objects.set(
    OBJ_A,
    new Map([
      [3n, Uint8Array.from([0xa, 3])],
      [5n, Uint8Array.from([0xa, 5])],
    ]),
  );
  chain.objects.set(OBJ_B, new Map([[1n, Uint8Array.from([0xb, 1])]]));
  chain.checkpoints.push({ sequence: 99n, digests: [TX_BARE] });
  // 120 digests: more than two GraphQL pages.
  chain.checkpoints.push({ sequence: 100n, digests: [TX_FULL, TX_MANY_EVENTS, ...Array.from({ length: 118 }, (_, i) => digest(100 + i))] });
  chain.owned.set(OWNER, [
    { id: addr(0x101), version: 1n, digest: digest(201), type: SUI_COIN },
    { id: addr(0x102), version: 2n, digest: digest(202), type: SUI_COIN },
    { id: addr(0x103), version: 3n, digest: digest(203), type: USD_COIN },
    { id: addr(0x104), version: 4n, digest: digest(204), type: OTHER_TYPE },
    { id: addr(0x105), version: 5n, digest: digest(205), type: SUI_COIN },
  ]);
  if (options.simulate !== false) chain.simulate = simulateEcho;
  return chain;
}

/** A loopback URL nothing listens on (a port taken and given back). */
export async function deadUrl(path = ''): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}${path}`;
}

/** The {@link DataSourceError} `promise` must reject with. */
export async function rejection(promise: Promise<unknown>): Promise<DataSourceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DataSourceError) return error;
    throw new Error(`rejected with something else than a DataSourceError: ${String(error)}`, { cause: error });
  }
  throw new Error('expected a rejection');
}
