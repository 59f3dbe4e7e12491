/**
 * The dynamic-field children a transaction read, when the node could not say which
 * (`unchanged_loaded_runtime_objects` unknown: GraphQL has no such field, the archive and
 * nodes serving old transactions answer it empty). The transaction is replayed; every child it
 * reads that the snapshot lacks is fetched as it was when read (the latest version at or below
 * the root object's version it was read through: GraphQL `object(rootVersion:)`; else as of
 * the transaction's checkpoint; else the current version, labelled so), added, and the replay
 * runs again, until it asks for nothing new.
 */
import { canonicalAddress, errorMessage } from '@smi/bytecode';
import type { ProtocolConfig } from '@smi/move-vm';
import { objectVersionOf, suiBcs } from '@smi/ptb';
import { type ChainObject, DataSourceError, type SuiDataSource } from '../data-source.js';
import type { FetchedReplay } from './fetch.js';
import { replaySnapshot } from './replay.js';

/** A child fetched for a replay, and how its version was chosen. */
export interface FetchedChild {
  id: string;
  /** Its version, or `null` when no version existed then (the transaction only checked for it). */
  version: bigint | null;
  /** `root-version`: exact; `at-checkpoint`: as of the transaction's checkpoint; `current`: the node's latest (right only if unchanged since). */
  how: 'root-version' | 'at-checkpoint' | 'current';
}

/** Options of {@link fetchRuntimeChildren}. */
export interface FetchRuntimeChildrenOptions {
  protocolConfig: ProtocolConfig;
  permissiveCrypto?: boolean;
  /** Replays at most this many times (default 8): each round may find children of children. */
  maxRounds?: number;
  onFetch?: (what: string) => void;
}

/**
 * Find and fetch the children transaction `f` reads and lacks; they are added to its
 * snapshot (objects and `loadedChildObjects`). A transaction whose node reported its runtime
 * objects needs none of this.
 */
export async function fetchRuntimeChildren(source: SuiDataSource, f: FetchedReplay, options: FetchRuntimeChildrenOptions): Promise<FetchedChild[]> {
  const out: FetchedChild[] = [];
  const tried = new Set<string>();
  const rounds = Math.max(1, options.maxRounds ?? 8);
  for (let round = 0; round < rounds; round++) {
    const missing = new Map<string, bigint | undefined>();
    try {
      replaySnapshot(f.snapshot, {
        protocolConfig: options.protocolConfig,
        packages: f.packages,
        natives: { permissiveCrypto: options.permissiveCrypto ?? false },
        onChildMiss: (child, bound) => {
          const id = canonicalAddress(child);
          if (!tried.has(id) && !missing.has(id)) missing.set(id, bound);
        },
      });
    } catch {
      // A replay that cannot run says nothing about children; the replay proper reports why.
      break;
    }
    if (missing.size === 0) break;
    for (const [id, bound] of missing) {
      tried.add(id);
      let answer: ChainObject;
      let how: FetchedChild['how'];
      try {
        if (bound !== undefined && source.getObjectBounded !== undefined) {
          options.onFetch?.(`child ${id} at or below v${bound}`);
          [answer, how] = [await source.getObjectBounded(id, bound), 'root-version'];
        } else if (f.checkpoint !== null && source.getObjectAtCheckpoint !== undefined) {
          options.onFetch?.(`child ${id} at checkpoint ${f.checkpoint}`);
          [answer, how] = [await source.getObjectAtCheckpoint(id, f.checkpoint), 'at-checkpoint'];
        } else {
          options.onFetch?.(`child ${id} (current)`);
          [answer, how] = [await source.getObject(id), 'current'];
        }
      } catch (e) {
        // No such object then: the transaction looked for a field that did not exist.
        if (e instanceof DataSourceError && e.code === 'NOT_FOUND') {
          out.push({ id, version: null, how: bound !== undefined && source.getObjectBounded !== undefined ? 'root-version' : 'current' });
          continue;
        }
        throw e;
      }
      let object;
      try {
        object = suiBcs.Object.parse(answer.bcs);
      } catch (e) {
        throw new DataSourceError('INVALID_RESPONSE', `child ${id} from ${source.endpoint} does not decode: ${errorMessage(e)}`, { endpoint: source.endpoint });
      }
      f.snapshot.objects.set(id, object);
      f.snapshot.loadedChildObjects.push({ id, version: objectVersionOf(object) });
      out.push({ id, version: objectVersionOf(object), how });
    }
  }
  return out;
}
