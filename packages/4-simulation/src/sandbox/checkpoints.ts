/**
 * Named checkpoints of a sandbox session (`create_checkpoint` / `restore_checkpoint`, as
 * the original sandbox had): the environment's whole state kept in memory — objects
 * (dynamic-field children and loaded or published packages included), settings and the
 * counters behind ids and digests — so a restore brings the session back exactly, and
 * a transaction after it gets the ids and digests it would have got right after the
 * checkpoint.
 *
 * Checkpoints belong to the session, not to its environment: they survive `reset` (with
 * or without `keep_packages`) and `loadState`, since every environment of a session has
 * the same base packages and protocol. They are never saved with the state file.
 */
import type { Json } from '@smi/move-vm';
import type { SimulationEnvironment } from '../environment.js';
import type { StateSnapshot } from '../state-file.js';
import { SmiError } from '@smi/bytecode';

/** Name of a checkpoint when a request gives none. */
export const DEFAULT_CHECKPOINT = 'default';

/** `restore_checkpoint` named a checkpoint the session does not have. */
export class CheckpointError extends SmiError<'UNKNOWN_CHECKPOINT'> {
  override readonly name = 'CheckpointError';
  /** The name asked for. */
  readonly checkpoint: string;

  constructor(checkpoint: string, known: readonly string[]) {
    super('UNKNOWN_CHECKPOINT', `no checkpoint named "${checkpoint}" (${known.length === 0 ? 'none was created' : `checkpoints: ${known.join(', ')}`})`);
    this.checkpoint = checkpoint;
  }
}

/** Move objects of a snapshot (the `object_count` of `get_state`: packages left out). */
function moveObjects(s: StateSnapshot): number {
  let n = 0;
  for (const [, o] of s.objects) if (o.data.$kind === 'Move') n++;
  return n;
}

/** A session's checkpoints, by name. */
export class Checkpoints {
  private readonly byName = new Map<string, StateSnapshot>();

  /** Keep the state of `env` as `name` (replacing a checkpoint of that name). */
  create(env: SimulationEnvironment, name: string): Json {
    // Objects are immutable values and the snapshot copies the settings: nothing later
    // done to the environment reaches it.
    const snapshot = env.captureState();
    this.byName.set(name, snapshot);
    return { name, objects: moveObjects(snapshot) };
  }

  /**
   * Bring `env` back to checkpoint `name` (the checkpoint stays, to be restored again).
   * @throws {CheckpointError} no checkpoint has that name.
   */
  restore(env: SimulationEnvironment, name: string): Json {
    const snapshot = this.byName.get(name);
    if (snapshot === undefined) throw new CheckpointError(name, [...this.byName.keys()]);
    env.importState(snapshot);
    return { name, objects: moveObjects(snapshot) };
  }

  /** Names of the checkpoints, in creation order. */
  names(): string[] {
    return [...this.byName.keys()];
  }
}
