/**
 * The replay suite: every sui-replay snapshot in a folder (`fixtures/replay/*.json`) is run
 * offline at its protocol version and compared with the effects mainnet recorded. A
 * snapshot is one task; it passes when the status and every object (id, version, digest)
 * match. Gas, the events digest and dependencies are reported as notes.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { loadProtocolConfig } from '@smi/move-vm';
import { readReplaySnapshot, replaySnapshot, type ReplayReport } from '@smi/simulation';
import { emptySummary, type SuiteOptions, type SuiteSummary, untilStopped } from './summary.js';
import { errorMessage } from '@smi/bytecode';

/** Options of {@link runReplaySuite}. */
export interface ReplaySuiteOptions extends SuiteOptions {
  /** Fixtures root holding `fixtures/protocol-config` (the protocol configs). */
  fixturesRoot: string;
}

/** Run every snapshot of `dir`. */
export async function runReplaySuite(dir: string, options: ReplaySuiteOptions): Promise<SuiteSummary & { reports: ReplayReport[] }> {
  const summary = emptySummary('replay');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .filter((f) => options.filter === undefined || f.includes(options.filter))
    .sort();
  const reports: ReplayReport[] = [];
  let gasMatches = 0;
  let eventsMatches = 0;
  for await (const [i, file] of untilStopped(files, summary, options.signal)) {
    summary.files += 1;
    summary.tasks += 1;
    try {
      const snap = readReplaySnapshot(path.join(dir, file));
      const report = replaySnapshot(snap, { protocolConfig: loadProtocolConfig(options.fixturesRoot, snap.protocolVersion) });
      reports.push(report);
      if (report.gasMatch) gasMatches += 1;
      if (report.eventsDigest.match) eventsMatches += 1;
      if (report.match) summary.passed += 1;
      else {
        summary.failed += 1;
        const bad = report.objects.filter((o) => !o.match);
        summary.failures.push({
          file,
          task: report.digest,
          expected: `status ${report.status.expected}; ${bad.map((o) => `${o.id} ${JSON.stringify(o.expected)}`).join('; ')}`,
          got: `status ${report.status.actual}${report.status.message ? ` (${report.status.message})` : ''}; ${bad.map((o) => `${o.id} ${JSON.stringify(o.actual)}`).join('; ')}`,
        });
      }
    } catch (e) {
      summary.failed += 1;
      summary.failures.push({ file, task: file.replace(/\.json$/, ''), expected: 'a replay', got: errorMessage(e) });
    }
    options.onFile?.(file, i + 1, files.length);
  }
  summary.notes.push(`gas (computation, storage, rebate, non-refundable) equal on ${gasMatches}/${reports.length} snapshots`);
  summary.notes.push(`events digest equal on ${eventsMatches}/${reports.length} snapshots`);
  return { ...summary, reports };
}
