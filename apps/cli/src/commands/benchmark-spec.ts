/**
 * What decides the rows of a `benchmark-local` run, kept beside its rows
 * (`<output>.spec.json`): the packages benchmarked and loaded, the framework, the protocol
 * version and every setting that changes a row. `--resume` with other settings would mix rows
 * of two runs (or cut them), so it is refused (SPEC_MISMATCH), as `phase1 --resume` refuses.
 * Settings that only change speed or output (jobs, timeout, timings) are not part of it.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { MovePackage } from '@smi/bytecode';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from '../io.js';
import type { BenchmarkFlags } from './benchmark-flags.js';
import { errorMessage } from '@smi/bytecode';

/** The spec of a run: plain JSON, compared key by key. */
export type BenchmarkSpec = Record<string, string | number | boolean | string[] | null>;

/** The spec of a run with these packages and settings. */
export function benchmarkSpec(parts: {
  targets: readonly MovePackage[];
  dependencies: readonly MovePackage[];
  framework: readonly MovePackage[];
  protocolVersion: number;
  flags: BenchmarkFlags;
}): BenchmarkSpec {
  const f = parts.flags;
  const ids = (ps: readonly MovePackage[]) => ps.map((p) => `${p.id}@${p.version ?? 'unversioned'}`).sort();
  return {
    spec_version: 1,
    targets: ids(parts.targets),
    dependencies: ids(parts.dependencies),
    framework: ids(parts.framework),
    protocol_version: parts.protocolVersion,
    tier_a_only: f.tierAOnly ?? null,
    static_only: f.staticOnly ?? null,
    restricted_state: f.restrictedState ?? null,
    use_mm2: f.multiHop ?? null,
    max_chain_depth: f.maxChainDepth ?? null,
    use_ptb: f.usePtb ?? null,
    strict_crypto: f.strictCrypto ?? null,
    clock_base_ms: f.clockBaseMs === undefined ? null : f.clockBaseMs.toString(),
    random_seed: f.randomSeed === undefined || f.randomSeed === null ? null : Buffer.from(f.randomSeed).toString('hex'),
    phase_errors: f.phaseErrors ?? null,
    function_filter: f.functionFilter?.source ?? null,
    module_filter: f.moduleFilter?.source ?? null,
    include_framework: f.includeFramework ?? null,
    max_attempts: f.maxAttempts ?? null,
    gas_budget: f.gasBudget === undefined ? null : f.gasBudget.toString(),
    shard: f.shard === undefined ? null : `${f.shard.index}/${f.shard.count}`,
  };
}

/** Where a run's spec is kept. */
function specFile(rowsFile: string): string {
  return `${rowsFile}.spec.json`;
}

/**
 * Before rows are written to `rowsFile`: on `--resume`, refuse a spec that differs from the one
 * the earlier run kept (naming each difference); then keep this run's spec.
 */
export function checkAndKeepSpec(rowsFile: string, spec: BenchmarkSpec, resume: boolean, warn: (line: string) => void): void {
  const file = specFile(rowsFile);
  if (resume) {
    if (!existsSync(file)) warn(`--resume: ${file} is missing (a run of an older smi): the settings of the rows kept cannot be checked`);
    else {
      let before: BenchmarkSpec;
      try {
        before = JSON.parse(readFileSync(file, 'utf8')) as BenchmarkSpec;
      } catch (e) {
        throw new UsageError(`--resume: ${file} is not JSON (${errorMessage(e)}); remove it, and the rows, to start again`, 'INVALID_JSON');
      }
      const keys = [...new Set([...Object.keys(before), ...Object.keys(spec)])];
      const show = (v: unknown) => (Array.isArray(v) ? `${v.length} packages` : JSON.stringify(v));
      const differ = keys.filter((k) => JSON.stringify(before[k] ?? null) !== JSON.stringify(spec[k] ?? null));
      if (differ.length > 0) {
        throw new UsageError(
          `--resume with other settings than the run being resumed: ${differ.map((k) => `${k} ${show(before[k])} then, ${show(spec[k])} now`).join('; ')}; run with the same settings, or without --resume (into another --output) to start again`,
          'SPEC_MISMATCH',
        );
      }
    }
  }
  writeFileAtomic(file, `${JSON.stringify(spec, null, 2)}\n`);
}
