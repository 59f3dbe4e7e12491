/**
 * The original's `smi-phase2-manifest` (`inhabit_manifest.py`): over a corpus, the packages
 * baseline-search can plan for, a plan file (`{package_id: {"calls": [...]}}`, the first
 * candidate of each) and a report of why the others cannot (`stats`, `viability`, samples).
 * And `smi-phase2-filter-manifest` (`manifest_filter.py`): the packages of a Phase II run with
 * at least N targets.
 */
import path from 'node:path';
import { loadPackageDir, errorMessage, type Json } from '@smi/bytecode';
import { discoverPackages } from '../dataset.js';
import { keyTypes, packageInterface } from '../phase1/truth.js';
import { baselineCandidates } from './baseline.js';
import { onChainTypes } from './score.js';

/** What the manifest scan produced. */
export interface Phase2Manifest {
  ids: string[];
  plan: Record<string, Json>;
  report: { [k: string]: Json };
}

/** Scan `corpusRoot` (at most `limit` packages, in discovery order). */
export function phase2Manifest(corpusRoot: string, options: { maxCallsPerPackage?: number; limit?: number | null } = {}): Phase2Manifest {
  const started = Math.floor(Date.now() / 1000);
  let packages = discoverPackages(corpusRoot).packages;
  if (options.limit != null && options.limit > 0) packages = packages.slice(0, options.limit);
  const maxCalls = options.maxCallsPerPackage ?? 1;
  const stats = { packages_total: packages.length, packages_selected: 0, packages_failed_interface: 0, packages_no_candidates: 0, candidate_functions_total: 0 };
  const reasons: Record<string, number> = {};
  const v = {
    packages_with_public_entry: 0,
    packages_with_public_entry_no_type_params: 0,
    packages_with_supported_entry: 0,
    packages_with_key_targets: 0,
    selected_packages_with_key_targets: 0,
    key_targets_total: 0,
    public_entry_total: 0,
    public_entry_no_type_params_total: 0,
    public_entry_supported_total: 0,
  };
  const ids: string[] = [];
  const plan: Record<string, Json> = {};
  const samples: Json[] = [];
  const rejectedSamples: Json[] = [];
  for (const ref of packages) {
    let pkg;
    try {
      pkg = loadPackageDir(ref.packageDir);
    } catch (e) {
      stats.packages_failed_interface++;
      if (samples.length < 20) samples.push({ package_id: ref.packageId, error: errorMessage(e) });
      continue;
    }
    const cands = baselineCandidates(pkg);
    const entries = cands.filter((c) => c.$kind === 'Ok' || c.reason !== 'not_public_entry');
    const noTypeParams = entries.filter((c) => c.typeParams === 0);
    const supported = noTypeParams.filter((c) => c.$kind === 'Ok');
    v.public_entry_total += entries.length;
    v.public_entry_no_type_params_total += noTypeParams.length;
    v.public_entry_supported_total += supported.length;
    if (entries.length > 0) v.packages_with_public_entry++;
    if (noTypeParams.length > 0) v.packages_with_public_entry_no_type_params++;
    if (supported.length > 0) v.packages_with_supported_entry++;
    const targets = onChainTypes(
      keyTypes(
        packageInterface(
          pkg.id,
          pkg.modules.map((m) => m.module),
        ),
      ),
      pkg.typeOriginTable,
    );
    if (targets.length > 0) {
      v.packages_with_key_targets++;
      v.key_targets_total += targets.length;
    }
    for (const c of cands) if (c.$kind === 'Rejected') reasons[c.reason] = (reasons[c.reason] ?? 0) + 1;
    const ok = cands.flatMap((c) => (c.$kind === 'Ok' ? [c] : []));
    const chosen = maxCalls > 0 ? ok.slice(0, maxCalls) : ok;
    stats.candidate_functions_total += chosen.length;
    if (chosen.length === 0) {
      stats.packages_no_candidates++;
      const rejected = cands.filter((c) => c.$kind === 'Rejected');
      if (rejected.length > 0 && rejectedSamples.length < 50) {
        rejectedSamples.push({ package_id: pkg.id, rejected_targets: rejected.slice(0, 5).map((c) => (c.$kind === 'Rejected' ? { target: c.target, reason: c.reason, detail: c.detail } : null)) });
      }
      continue;
    }
    stats.packages_selected++;
    ids.push(pkg.id);
    plan[pkg.id] = chosen[0].plan;
    if (targets.length > 0) v.selected_packages_with_key_targets++;
    if (samples.length < 20) samples.push({ package_id: pkg.id, calls: chosen.map((c) => c.plan), targets_key_types: targets.length });
  }
  const report = {
    schema_version: 1,
    started_at_unix_seconds: started,
    finished_at_unix_seconds: Math.floor(Date.now() / 1000),
    corpus_root_name: path.basename(path.resolve(corpusRoot)),
    max_calls_per_package: maxCalls,
    stats: { ...stats, rejection_reasons_counts: reasons, viability: v },
    samples,
    rejected_samples: rejectedSamples,
  };
  return { ids, plan, report };
}

/** `manifest_filter.py`: the package ids of a Phase II run JSON with at least `minTargets` targets. */
export function filterManifest(runJson: { packages?: unknown }, minTargets: number, minHits = 0): string[] {
  const rows = Array.isArray(runJson.packages) ? (runJson.packages as { package_id?: unknown; score?: { targets?: unknown; created_hits?: unknown } }[]) : [];
  return rows.filter((r) => typeof r.package_id === 'string' && Number(r.score?.targets ?? 0) >= minTargets && Number(r.score?.created_hits ?? 0) >= minHits).map((r) => r.package_id as string);
}
