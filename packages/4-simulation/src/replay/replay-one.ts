/**
 * One cached transaction replayed, reported as `smi tx-replay` prints it: the full
 * comparison's verdict (status and every object, gas apart), the original's
 * `EffectsComparison` with its `match_score`, and what went wrong when it could not run.
 */
import { loadProtocolConfig } from '@smi/move-vm';
import type { TransactionCache } from './cache.js';
import type { FetchedReplay } from './fetch.js';
import { type EffectsComparison, effectsComparison } from './match-score.js';
import { type ReplayReport, replaySnapshot } from './replay.js';
import { errorMessage } from '@smi/bytecode';

/** The outcome of replaying one transaction (the original's `ReplayResult`, and ours). */
export interface ReplayOutcome {
  digest: string;
  /** The local execution succeeded (the original's `local_success`). */
  local_success: boolean;
  local_error: string | null;
  comparison: EffectsComparison | null;
  commands_executed: number;
  commands_failed: number;
  /** Status and every object match (ours: the exit status follows it). */
  match: boolean;
  gas_match: boolean;
  objects_matched: number;
  objects_total: number;
  /** Why it could not be replayed at all (missing protocol config, unreadable cache entry, …). */
  error: string | null;
}

/** Settings of a replay. */
export interface ReplayOneOptions {
  /** Fixtures root holding the protocol configs (`$SMI_FIXTURES`). */
  fixturesRoot: string;
  permissiveCrypto?: boolean;
}

/** Replay a fetched transaction. */
export function replayFetched(f: FetchedReplay, o: ReplayOneOptions): { outcome: ReplayOutcome; report: ReplayReport | null } {
  const digest = f.snapshot.digest;
  let report: ReplayReport;
  try {
    const protocolConfig = loadProtocolConfig(o.fixturesRoot, f.snapshot.protocolVersion);
    report = replaySnapshot(f.snapshot, { protocolConfig, packages: f.packages, natives: { permissiveCrypto: o.permissiveCrypto ?? false } });
  } catch (e) {
    const error = errorMessage(e);
    return {
      outcome: {
        digest,
        local_success: false,
        local_error: error,
        comparison: null,
        commands_executed: 0,
        commands_failed: 0,
        match: false,
        gas_match: false,
        objects_matched: 0,
        objects_total: 0,
        error,
      },
      report: null,
    };
  }
  const ok = report.result.status.$kind === 'Success';
  const failed = report.result.status.$kind === 'Failure' ? report.result.status.command : null;
  const commands = f.snapshot.transaction.V1.kind.$kind === 'ProgrammableTransaction' ? f.snapshot.transaction.V1.kind.ProgrammableTransaction.commands.length : 0;
  return {
    outcome: {
      digest,
      local_success: ok,
      local_error: ok ? null : (report.status.message ?? 'failure'),
      comparison: effectsComparison(report),
      commands_executed: ok ? commands : failed === null ? 0 : Number(failed),
      commands_failed: ok ? 0 : 1,
      match: report.match,
      gas_match: report.gasMatch,
      objects_matched: report.objects.filter((x) => x.match).length,
      objects_total: report.objects.length,
      error: null,
    },
    report,
  };
}

/** Replay a cached transaction (an unreadable entry is an outcome with its error). */
export function replayCached(cache: TransactionCache, digest: string, o: ReplayOneOptions): ReplayOutcome {
  let f: FetchedReplay;
  try {
    f = cache.read(digest);
  } catch (e) {
    const error = errorMessage(e);
    return {
      digest,
      local_success: false,
      local_error: error,
      comparison: null,
      commands_executed: 0,
      commands_failed: 0,
      match: false,
      gas_match: false,
      objects_matched: 0,
      objects_total: 0,
      error,
    };
  }
  return replayFetched(f, o).outcome;
}
