/**
 * The original `tx-replay`'s summary of a replay (`EffectsComparison`): status, created,
 * mutated and deleted counts, and `match_score` = matched / 4, with its notes. It is coarse
 * (counts, not objects: a mutated count may differ by up to 2 for gas objects), so `smi
 * tx-replay` prints it beside the full comparison, which decides the exit status.
 */
import type { ReplayReport } from './replay.js';

/** The original's comparison of a replay with the recorded effects. */
export interface EffectsComparison {
  status_match: boolean;
  created_count_match: boolean;
  mutated_count_match: boolean;
  deleted_count_match: boolean;
  match_score: number;
  notes: string[];
}

/** The original's `EffectsComparison` of a replay report. */
export function effectsComparison(r: ReplayReport): EffectsComparison {
  const count = (side: 'expected' | 'actual', kinds: readonly string[]): number => r.objects.filter((o) => o[side] !== null && kinds.includes(o[side].change)).length;
  const notes: string[] = [];
  const onchain = { created: count('expected', ['created']), mutated: count('expected', ['mutated']), deleted: count('expected', ['deleted', 'unwrappedThenDeleted']) };
  const local = { created: count('actual', ['created']), mutated: count('actual', ['mutated']), deleted: count('actual', ['deleted', 'unwrappedThenDeleted']) };
  const status = r.status.match;
  if (!status) notes.push(`Status mismatch: on-chain=${r.status.expected}, local=${r.status.actual}`);
  const created = onchain.created === local.created;
  if (!created) notes.push(`Created count mismatch: on-chain=${onchain.created}, local=${local.created}`);
  const diff = onchain.mutated - local.mutated;
  const mutated = diff >= 0 && diff <= 2;
  if (!mutated) notes.push(`Mutated count mismatch: on-chain=${onchain.mutated}, local=${local.mutated}`);
  const deleted = onchain.deleted === local.deleted;
  if (!deleted) notes.push(`Deleted count mismatch: on-chain=${onchain.deleted}, local=${local.deleted}`);
  const matched = [status, created, mutated, deleted].filter(Boolean).length;
  return { status_match: status, created_count_match: created, mutated_count_match: mutated, deleted_count_match: deleted, match_score: matched / 4, notes };
}
