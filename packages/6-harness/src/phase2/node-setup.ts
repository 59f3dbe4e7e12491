/**
 * Before Phase II runs plans on a node (`--simulation-mode dry-run|dev-inspect`): the
 * original's preflight (the endpoint answers; a dry run for an agent that is not a mock needs
 * a sender other than 0x0 that owns a `Coin<SUI>`), the sender's inventory (its owned objects
 * by type, capped as the original's ~200), the gas coin (the one given, which must be the
 * sender's, else its first `Coin<SUI>`) and the gas price (given, else the reference gas price
 * of the epoch the latest checkpoint ran in, else 1000). Failures are
 * {@link NodeSetupError}s with stable codes.
 */
import { canonicalAddress, errorMessage, SmiError } from '@smi/bytecode';
import { decodeBcs, type ObjectRef, suiBcs } from '@smi/ptb';
import type { OwnedObjectInfo, SuiDataSource } from '@smi/simulation';
import { fetchObject } from './node-tx.js';
import { canonicalBaseType, normalizeTypeString } from './score.js';

/** How plans run on a node. */
export type NodeSimulationMode = 'dry-run' | 'dev-inspect';

/** The gas price used when neither given nor learnt from the node (the original's helper paid the reference price). */
export const DEFAULT_NODE_GAS_PRICE = 1000n;

/** The most owned objects the inventory keeps (the original's cap). */
export const NODE_INVENTORY_CAP = 200;

const SUI_COIN = normalizeTypeString('0x2::coin::Coin<0x2::sui::SUI>');
const ZERO = canonicalAddress('0x0');

/** Why plans cannot run on the node. */
export class NodeSetupError extends SmiError<'ENDPOINT_UNREACHABLE' | 'NODE_REQUEST_FAILED' | 'SENDER_IS_ZERO' | 'SENDER_NOT_FUNDED' | 'GAS_COIN_NOT_FOUND' | 'GAS_COIN_NOT_OWNED'> {
  override readonly name = 'NodeSetupError';
  constructor(code: 'ENDPOINT_UNREACHABLE' | 'NODE_REQUEST_FAILED' | 'SENDER_IS_ZERO' | 'SENDER_NOT_FUNDED' | 'GAS_COIN_NOT_FOUND' | 'GAS_COIN_NOT_OWNED', message: string) {
    super(code, message);
  }
}

/** What the preflight needs. */
export interface NodeSetupOptions {
  source: SuiDataSource;
  mode: NodeSimulationMode;
  sender: string;
  /** A gas coin id (else the sender's first `Coin<SUI>`). */
  gasCoin?: string;
  /** MIST per gas unit (else the reference gas price). */
  gasPrice?: bigint;
  /** No dev-inspect fallback when a dry run fails to run. */
  requireDryRun: boolean;
  /** The agent is not a mock: a dry run needs a real, funded sender (the original's preflight). */
  fundedSender: boolean;
}

/** The node, checked, with what every plan run on it shares. */
export interface NodeContext {
  source: SuiDataSource;
  mode: NodeSimulationMode;
  requireDryRun: boolean;
  sender: string;
  /** The latest checkpoint when the preflight ran. */
  checkpoint: bigint;
  /** The coin that pays (`null`: none; only a dev-inspect runs without). */
  gasCoin: ObjectRef | null;
  /** The gas coin was given (else it is the sender's first `Coin<SUI>`). */
  gasCoinGiven: boolean;
  /** The sender's `Coin<SUI>` ids, the gas coin first (`sender_sui_coin`). */
  senderCoins: string[];
  gasPrice: bigint;
  gasPriceFrom: 'given' | 'reference' | 'default';
  /** The sender's owned objects (at most {@link NODE_INVENTORY_CAP}), types normalized. */
  owned: OwnedObjectInfo[];
  /** What the preflight could not do and worked around (the gas price it could not learn). */
  warnings: string[];
}

/** The reference gas price of the epoch the latest checkpoint's first transaction ran in. */
async function referenceGasPrice(source: SuiDataSource, checkpoint: bigint): Promise<bigint> {
  const digests = await source.checkpointTransactions(checkpoint);
  if (digests.length === 0) throw new Error(`checkpoint ${checkpoint} has no transactions`);
  const tx = await source.getTransaction(digests[0]);
  const effects = decodeBcs(suiBcs.TransactionEffects, tx.effectsBcs);
  const epoch = effects.$kind === 'V2' ? effects.V2.executedEpoch : effects.V1.executedEpoch;
  return (await source.getEpoch(epoch)).referenceGasPrice;
}

/** Check the node and the sender, and gather what plans need. */
export async function prepareNode(o: NodeSetupOptions): Promise<NodeContext> {
  const { source } = o;
  const sender = canonicalAddress(o.sender);
  let checkpoint: bigint;
  try {
    checkpoint = await source.latestCheckpoint();
  } catch (e) {
    throw new NodeSetupError('ENDPOINT_UNREACHABLE', `the node at ${source.endpoint} does not answer: ${errorMessage(e)}`);
  }
  if (o.mode === 'dry-run' && o.fundedSender && sender === ZERO) {
    throw new NodeSetupError('SENDER_IS_ZERO', 'a dry run for this agent needs a real sender (--sender): 0x0 owns no coins');
  }
  let owned: OwnedObjectInfo[] = [];
  if (sender !== ZERO) {
    try {
      owned = await source.listOwnedObjects(sender);
    } catch (e) {
      throw new NodeSetupError('NODE_REQUEST_FAILED', `the objects of ${sender} cannot be listed: ${errorMessage(e)}`);
    }
  }
  owned = owned.map((x) => ({ ...x, id: canonicalAddress(x.id), type: normalizeTypeString(x.type) }));
  const coins = owned.filter((x) => x.type === SUI_COIN);
  let gasCoin: ObjectRef | null = null;
  if (o.gasCoin !== undefined) {
    const id = canonicalAddress(o.gasCoin);
    let fetched;
    try {
      fetched = await fetchObject(source, id);
    } catch (e) {
      throw new NodeSetupError('GAS_COIN_NOT_FOUND', `gas coin ${id}: ${errorMessage(e)}`);
    }
    if (fetched.owner.$kind !== 'AddressOwner' || canonicalAddress(fetched.owner.AddressOwner) !== sender) {
      throw new NodeSetupError('GAS_COIN_NOT_OWNED', `gas coin ${id} is not owned by the sender ${sender}`);
    }
    gasCoin = fetched.ref;
  } else if (coins.length > 0) {
    gasCoin = { objectId: coins[0].id, version: coins[0].version, digest: coins[0].digest };
  }
  if (o.mode === 'dry-run' && o.fundedSender && coins.length === 0 && gasCoin === null) {
    throw new NodeSetupError('SENDER_NOT_FUNDED', `the sender ${sender} owns no Coin<SUI> at ${source.endpoint}: a dry run has nothing to pay gas with`);
  }
  const senderCoins = [...(gasCoin ? [gasCoin.objectId] : []), ...coins.map((c) => c.id).filter((id) => id !== gasCoin?.objectId)];
  const warnings: string[] = [];
  let gasPrice = o.gasPrice ?? DEFAULT_NODE_GAS_PRICE;
  let gasPriceFrom: NodeContext['gasPriceFrom'] = o.gasPrice !== undefined ? 'given' : 'default';
  if (o.gasPrice === undefined) {
    try {
      gasPrice = await referenceGasPrice(source, checkpoint);
      gasPriceFrom = 'reference';
    } catch (e) {
      warnings.push(`the reference gas price could not be learnt (${errorMessage(e)}); paying ${DEFAULT_NODE_GAS_PRICE}`);
    }
  }
  return {
    source,
    mode: o.mode,
    requireDryRun: o.requireDryRun,
    sender,
    checkpoint,
    gasCoin,
    gasCoinGiven: o.gasCoin !== undefined,
    senderCoins,
    gasPrice,
    gasPriceFrom,
    owned: owned.slice(0, NODE_INVENTORY_CAP),
    warnings,
  };
}

/** The first owned object of `type` (by base type). */
export function ownedOfType(node: NodeContext, type: string): string | undefined {
  const base = canonicalBaseType(type);
  return node.owned.find((x) => canonicalBaseType(x.type) === base)?.id;
}
