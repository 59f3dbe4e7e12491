/**
 * `smi merge`: join the run directories of the shards of one run into the directory one
 * run would have written: the same spec (refused when the specs differ), every package
 * once (refused when two shards hold the same id), the results, ledgers, events and
 * sessions of all shards, and the run JSON rebuilt over all results in spec order.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PyJson } from '../py-json.js';
import { parseRunJson, renderRunJson, type RunJson } from './checkpoint.js';
import { DiskRunStore } from './run-store.js';
import { specDifferences } from './spec.js';
import type { PackageResult, RunState } from './types.js';
import { SmiError } from '@smi/bytecode';

/** Why shards cannot be merged. */
export class MergeError extends SmiError<'SPEC_MISMATCH' | 'DUPLICATE_IDS' | 'INCOMPLETE' | 'RUN_EXISTS' | 'NO_RUNS' | 'UNKNOWN_BENCHMARK'> {
  override readonly name = 'MergeError';
  constructor(code: 'SPEC_MISMATCH' | 'DUPLICATE_IDS' | 'INCOMPLETE' | 'RUN_EXISTS' | 'NO_RUNS' | 'UNKNOWN_BENCHMARK', message: string) {
    super(code, message);
  }
}

/** Builds a benchmark's run JSON from a shard's run JSON (its run-level fields) and all results. */
export type RunJsonBuilder = (base: RunJson, results: readonly PackageResult[], span: { startedAt: number; finishedAt: number }) => RunJson;

/** What a merge wrote. */
export interface MergeOutcome {
  dir: string;
  packages: number;
  missing: string[];
  runJson: RunJson;
  text: string;
}

/** Merge shard run directories `dirs` into `outDir` (new or empty). */
export function mergeRuns(dirs: readonly string[], outDir: string, builders: Readonly<Record<string, RunJsonBuilder>>, options: { allowPartial?: boolean; argv?: string[] } = {}): MergeOutcome {
  if (dirs.length === 0) throw new MergeError('NO_RUNS', 'name the run directories to merge');
  const stores = dirs.map((d) => DiskRunStore.existing(d));
  const specs = stores.map((s) => s.readSpec()!);
  for (let i = 1; i < specs.length; i++) {
    if (specs[i].spec_hash !== specs[0].spec_hash) {
      const diff = specDifferences(specs[0].spec, specs[i].spec);
      throw new MergeError('SPEC_MISMATCH', `${dirs[i]} is not a shard of the same run as ${dirs[0]} (specs differ in: ${diff.join(', ') || 'spec_hash'})`);
    }
  }
  const spec = specs[0].spec;
  const build = builders[spec.benchmark];
  if (build === undefined) throw new MergeError('UNKNOWN_BENCHMARK', `no run JSON builder for benchmark ${JSON.stringify(spec.benchmark)}`);
  const wanted = new Set(spec.ids);
  const owner = new Map<string, string>();
  const results: PackageResult[] = [];
  for (const [i, store] of stores.entries()) {
    for (const r of store.results().results) {
      if (!wanted.has(r.package_id)) continue;
      const other = owner.get(r.package_id);
      if (other !== undefined) throw new MergeError('DUPLICATE_IDS', `package ${r.package_id} is in both ${other} and ${dirs[i]}: were two runs of the same shard given?`);
      owner.set(r.package_id, dirs[i]);
      results.push(r);
    }
  }
  const missing = spec.ids.filter((id) => !owner.has(id));
  if (missing.length > 0 && options.allowPartial !== true) {
    const shards = stores.map((s) => s.readState()?.shard).filter((x) => x != null);
    const n = shards[0]?.n;
    const have = new Set(shards.map((s) => s.k));
    const absent = n === undefined ? [] : Array.from({ length: n }, (_, k) => k + 1).filter((k) => !have.has(k));
    throw new MergeError(
      'INCOMPLETE',
      `${missing.length} of ${spec.ids.length} packages have no result${absent.length > 0 ? ` (shards ${absent.map((k) => `${k}/${n}`).join(', ')} not given)` : ' (resume the shards that did not finish)'}; --allow-partial merges anyway`,
    );
  }
  const out = DiskRunStore.at(outDir);
  if (out.readSpec() !== null) throw new MergeError('RUN_EXISTS', `${outDir} holds a run already: merge into a new directory`);
  const runJsons = stores.map((s) => {
    const f = path.join(s.dir, 'run.json');
    return existsSync(f) ? parseRunJson(readFileSync(f, 'utf8'), f, { phase: spec.benchmark === 'phase2' ? 2 : 1 }) : null;
  });
  const base = runJsons.find((r) => r !== null);
  if (base === undefined || base === null) throw new MergeError('INCOMPLETE', 'no shard has written its run.json yet');
  const starts = runJsons.filter((r): r is RunJson => r !== null).map((r) => Number(r.started_at_unix_seconds));
  const ends = runJsons.filter((r): r is RunJson => r !== null).map((r) => Number(r.finished_at_unix_seconds));
  const runJson = build(base, results, { startedAt: Math.min(...starts), finishedAt: Math.max(...ends) });
  const text = renderRunJson(runJson);

  out.writeSpec(spec, specs[0].spec_hash);
  const metaFile = path.join(stores[0].dir, 'run_metadata.json');
  if (existsSync(metaFile)) {
    const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as { [key: string]: PyJson };
    out.writeMetadata({ ...meta, started_at_unix_seconds: Math.min(...starts), merged_from: dirs.map((d) => path.resolve(d)) });
  }
  for (const r of results) out.writeResult(r);
  for (const s of stores) for (const e of s.ledger()) out.appendLedger(e);
  const states = stores.map((s) => s.readState()).filter((s): s is RunState => s !== null);
  const state: RunState = {
    run_id: path.basename(path.resolve(outDir)),
    benchmark: spec.benchmark,
    spec_hash: specs[0].spec_hash,
    status: missing.length === 0 ? 'success' : 'started',
    stop_reason: null,
    shard: null,
    sessions: states.flatMap((s) => s.sessions),
  };
  out.writeState(state);
  for (const s of stores) {
    for (const name of ['events.jsonl', 'packages.jsonl']) {
      const f = path.join(s.dir, name);
      if (!existsSync(f)) continue;
      for (const line of readFileSync(f, 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        if (name === 'events.jsonl') out.appendEventLine(line);
        else out.appendPackageLine(line);
      }
    }
  }
  out.event('runs_merged', { sources: dirs.map((d) => path.resolve(d)), packages: results.length, missing: missing.length, argv: options.argv ?? [] });
  out.writeRunJson(text);
  return { dir: outDir, packages: results.length, missing, runJson, text };
}
