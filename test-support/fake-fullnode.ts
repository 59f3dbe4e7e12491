/**
 * An honest fake full node for tests of code that runs transactions on a node: a
 * {@link FakeChain} whose objects, owned objects, epoch and checkpoint are those of a
 * {@link SimulationEnvironment}, and whose `simulate` hook runs the `TransactionData` it is
 * sent in that environment (our own executor: with Sui's input checks for a dry run, relaxed
 * for a dev-inspect; nothing kept), answering the effects BCS (V2) and the created objects'
 * types. Serve it with `startFakeGrpc` or `startFakeGraphQL`.
 */
import { canonicalAddress } from '@smi/bytecode';
import { decodeBcs, encodeBcs, objectDigest, objectTypeTag, type ObjectRef, type ProgrammableTransaction, suiBcs, type TransactionData, transactionDigest } from '@smi/ptb';
import { type ChainSimulation, type ChainTransaction, type SimulationEnvironment, versionOf } from '@smi/simulation';
import { emptyChain, type FakeChain } from './fake-chain.js';

/** A simulation the fake ran: what it was sent. */
export interface FakeSimulation {
  checks: boolean;
  data: TransactionData;
}

/** The fake node's chain, and the simulations it ran. */
export interface FullnodeChain extends FakeChain {
  simulations: FakeSimulation[];
}

/** The reference to an object as the environment has it now. */
function refOf(env: SimulationEnvironment, id: string): ObjectRef {
  const o = env.store.getObject(id);
  if (o === undefined) throw new Error(`fake fullnode: no object ${id}`);
  return { objectId: canonicalAddress(id), version: versionOf(o), digest: objectDigest(o) };
}

/**
 * Run `ptb` in `env` and keep it (a transaction the chain executed, for its history): the
 * sender pays with `gasCoin` at the environment's gas price.
 */
export function commitTransaction(env: SimulationEnvironment, ptb: ProgrammableTransaction, o: { sender: string; gasCoin: string; gasBudget: bigint }): ChainTransaction {
  const sender = canonicalAddress(o.sender);
  const data = {
    $kind: 'V1',
    V1: {
      kind: { $kind: 'ProgrammableTransaction', ProgrammableTransaction: ptb },
      sender,
      gasData: { payment: [refOf(env, o.gasCoin)], owner: sender, price: env.config.gasPrice, budget: o.gasBudget },
      expiration: { $kind: 'None', None: true },
    },
  } as TransactionData;
  const out = env.execute(ptb, { sender, gasCoin: o.gasCoin, gasBudget: o.gasBudget });
  if (out.status.$kind !== 'Success') throw new Error(`fake fullnode: the transaction failed: ${out.status.message}`);
  if (out.digest !== transactionDigest(data)) throw new Error('fake fullnode: the transaction does not hash to its digest');
  return {
    digest: out.digest,
    transactionBcs: encodeBcs(suiBcs.TransactionData, data),
    effectsBcs: encodeBcs(suiBcs.TransactionEffects, out.effects),
    eventsBcs: null,
    checkpoint: 1n,
    timestampMs: env.config.clockMs,
    unchangedLoadedRuntimeObjects: null,
  };
}

/**
 * The chain of `env` now: every object (its current version), what `owners` own, its epoch
 * (the environment's gas price as the reference price), and one checkpoint holding `history`
 * (transactions made with {@link commitTransaction}; none: no checkpoint).
 */
export function fullnodeChain(env: SimulationEnvironment, o: { owners: readonly string[]; history?: readonly ChainTransaction[] }): FullnodeChain {
  const chain: FullnodeChain = { ...emptyChain(), simulations: [] };
  const owners = new Set(o.owners.map((a) => canonicalAddress(a)));
  for (const [id, object] of env.store.entries()) {
    chain.objects.set(canonicalAddress(id), new Map([[versionOf(object), encodeBcs(suiBcs.Object, object)]]));
    if (object.data.$kind !== 'Move' || object.owner.$kind !== 'AddressOwner' || !owners.has(canonicalAddress(object.owner.AddressOwner))) continue;
    const owner = canonicalAddress(object.owner.AddressOwner);
    chain.owned.set(owner, [...(chain.owned.get(owner) ?? []), { id: canonicalAddress(id), version: versionOf(object), digest: objectDigest(object), type: objectTypeTag(object) }]);
  }
  chain.epochs.set(env.config.epoch, { epoch: env.config.epoch, protocolVersion: env.protocolConfig.version, referenceGasPrice: env.config.gasPrice, startTimestampMs: env.config.clockMs });
  for (const tx of o.history ?? []) chain.transactions.set(tx.digest, tx);
  if (o.history !== undefined && o.history.length > 0) chain.checkpoints.push({ sequence: 1n, digests: o.history.map((t) => t.digest) });
  chain.simulate = (bytes, checks): ChainSimulation => {
    const data = decodeBcs(suiBcs.TransactionData, bytes);
    chain.simulations.push({ checks, data });
    const { kind, sender, gasData } = data.V1;
    if (kind.$kind !== 'ProgrammableTransaction') throw new Error('only programmable transactions are simulated here');
    // What a validator checks of the gas before running anything.
    if (checks && gasData.price < env.config.gasPrice) throw new Error(`gas price ${gasData.price} is under the reference gas price ${env.config.gasPrice}`);
    if (checks && gasData.payment.length === 0) throw new Error('no gas payment');
    for (const p of gasData.payment) {
      const now = refOf(env, p.objectId);
      if (now.version !== p.version || now.digest !== p.digest) throw new Error(`gas coin ${p.objectId} is not at version ${p.version}`);
    }
    const gasCoin = gasData.payment[0]?.objectId;
    const out = env.execute(kind.ProgrammableTransaction, {
      sender,
      gasBudget: gasData.budget,
      ...(gasCoin !== undefined ? { gasCoin } : {}),
      commit: false,
      checks: checks ? 'strict' : 'relaxed',
    });
    return {
      effectsBcs: encodeBcs(suiBcs.TransactionEffects, out.effects),
      eventsBcs: null,
      commandResults: null,
      createdObjects: out.written.filter((w) => w.kind === 'created' && w.object.data.$kind === 'Move').map((w) => ({ id: canonicalAddress(w.id), type: objectTypeTag(w.object) })),
    };
  };
  return chain;
}
