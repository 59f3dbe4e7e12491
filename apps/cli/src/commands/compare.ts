/**
 * `smi compare A B`: two Phase I or Phase II runs side by side — packages fixed and broken,
 * the metric delta with a paired bootstrap interval, token and cost deltas. A and B are run
 * directories (their specs are checked: runs differing in what decides results are refused
 * unless `--allow` names the difference) or run JSON files.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { type ComparedRun, compareRuns, comparisonText, DiskRunStore, loadRunJson, runTotals, spendByPackage } from '@smi/harness';
import { defineCommand } from '../command.js';
import { EXIT, UsageError } from '../errors.js';
import { type CliIo, jsonLine, resolvePath } from '../io.js';
import { header } from './registry.js';

interface CompareArgs {
  a: string;
  b: string;
  allow?: string;
}

/** The phase of a run JSON file, from its `schema_version` (read without validating). */
function phaseOfFile(file: string): 1 | 2 {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { schema_version?: unknown }).schema_version === 2 ? 2 : 1;
  } catch {
    return 1; // loadRunJson reports what is wrong with it.
  }
}

function load(io: CliIo, arg: string): ComparedRun {
  const p = resolvePath(io, arg);
  if (!existsSync(p)) throw new UsageError(`${arg}: no such run directory or run JSON`, 'FILE_NOT_FOUND');
  if (!statSync(p).isDirectory()) return { label: arg, runJson: loadRunJson(p, { phase: phaseOfFile(p) }), spec: null };
  const store = DiskRunStore.existing(p);
  const runFile = path.join(p, 'run.json');
  const state = store.readState();
  const totals = state === null ? undefined : runTotals(store, state);
  const spec = store.readSpec()?.spec ?? null;
  return {
    label: arg,
    runJson: loadRunJson(runFile, { phase: spec?.benchmark === 'phase2' ? 2 : phaseOfFile(runFile) }),
    spec,
    ...(totals ? { totals: { input_tokens: totals.input_tokens, output_tokens: totals.output_tokens, spent_usd: totals.spent_usd }, byPackage: spendByPackage(store) } : {}),
  };
}

/** `smi compare`. */
export const compareCommand = defineCommand<CompareArgs>({
  ...header('compare'),
  positionals: {
    a: { type: 'string', describe: 'The first run (a run directory, or a run JSON)' },
    b: { type: 'string', describe: 'The second run' },
  },
  options: {
    allow: { type: 'string', describe: 'Spec keys whose difference is the point (comma-separated: model, agent, limits, prompt_version, ids, …)' },
  },
  examples: [
    {
      command:
        '$0 phase1 --corpus-root ../shared/corpus --samples 0 --agent mock-random --run-dir a --quiet && $0 phase1 --corpus-root ../shared/corpus --samples 0 --agent mock-perfect --run-dir b --quiet && $0 compare a b --allow agent',
      describe: 'two agents over the same packages: which packages each gets right, the F1 delta and its interval',
    },
  ],
  epilog: 'Exit 0 when compared, 2 when the runs cannot be compared (different benchmarks, specs that differ in what decides results, no package in common).',
  run: (args, io) => {
    const a = load(io, args.a);
    const b = load(io, args.b);
    const allow = (args.allow ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const c = compareRuns(a, b, allow);
    io.stdout(args.json ? jsonLine(c) : comparisonText(c));
    return EXIT.ok;
  },
});
