/**
 * `run_inhabit`: type inhabitation of one function, as `smi benchmark-local` does it for
 * every function of a corpus — Tier A (static stages: can every parameter be built?) and
 * Tier B (real transactions from the baseline: the inits of every loaded package run, the
 * clock set). It runs in a simulation of its own, so the session's objects are untouched;
 * its answer is the function's `BenchmarkRow`.
 *
 * The benchmark (catalogue, constructor graph, baseline) is built once per session for the
 * packages loaded and the options asked, and kept for the next calls.
 */
import { Benchmark, FRAMEWORK_IDS, rowLine, type TargetRef } from '@smi/inhabit';
import { z } from 'zod';
import { SmiToolError } from '../errors.js';
import { type JsonObject, toJsonObject } from '../results.js';
import { address, moduleName } from '../schemas.js';
import type { SmiSession } from '../session.js';
import { defineTool, type SmiTool } from '../tool.js';

/** Benchmarks kept per session (a few: each holds a simulation). */
const MAX_KEPT = 4;
const kept = new WeakMap<SmiSession, Map<string, Promise<Benchmark>>>();

/** The options of a benchmark that change its rows. */
interface InhabitFlags {
  tierAOnly: boolean;
  usePtb: boolean;
  maxAttempts: number;
  restrictedState: boolean;
}

/** The benchmark over every package loaded in the session, with these options (built once). */
function benchmarkFor(session: SmiSession, flags: InhabitFlags): Promise<Benchmark> {
  const packages = session.packages();
  const key = JSON.stringify({ ids: packages.map((p) => p.id).sort(), flags });
  let cache = kept.get(session);
  if (cache === undefined) {
    cache = new Map();
    kept.set(session, cache);
  }
  const found = cache.get(key);
  if (found !== undefined) return found;
  const isFramework = (id: string, originalId: string): boolean => FRAMEWORK_IDS.has(id) || FRAMEWORK_IDS.has(originalId);
  const others = packages.filter((p) => !isFramework(p.id, p.originalId));
  const made = Benchmark.create({
    framework: packages.filter((p) => isFramework(p.id, p.originalId)),
    dependencies: others,
    targets: others,
    protocolConfig: session.sandbox.env.protocolConfig,
    strictCrypto: !session.permissiveCrypto,
    tierAOnly: flags.tierAOnly,
    usePtb: flags.usePtb,
    maxAttempts: flags.maxAttempts,
    restrictedState: flags.restrictedState,
  });
  const current = cache;
  made.catch(() => current.delete(key));
  current.set(key, made);
  while (current.size > MAX_KEPT) current.delete(current.keys().next().value as string);
  return made;
}

export const runInhabit: SmiTool = defineTool({
  name: 'run_inhabit',
  title: 'Type inhabitation of one function (Tier A/B)',
  description:
    'Run the type-inhabitation benchmark (`smi benchmark-local`) on one public or entry function: Tier A plans every argument from the bytecode ' +
    '(constructor chains, objects the inits made, synthesized pure values, type arguments meeting their constraints), Tier B runs the calls ' +
    "as real transactions from the baseline (every loaded package's init run, clock set). It runs in a separate simulation: the session's " +
    'objects are not touched. Answers the BenchmarkRow: status tier_b_hit | tier_a_hit | miss, failure_stage, failure_reason, error_code, ' +
    'tier_a_details (how each parameter was resolved), tier_b_details, abort, created_object_types, gas_used.',
  input: {
    package: address('Package id'),
    module: moduleName,
    function: z.string().min(1).describe('Function name (public or entry)'),
    tier_a_only: z.boolean().default(false).describe('Static stages only, no transactions'),
    use_ptb: z.boolean().default(true).describe('Tier B as one PTB (constructor results feed the target; default); false: one transaction per call'),
    max_attempts: z.number().int().min(1).max(20).default(5).describe('Tier B attempts (value profiles, then other sources)'),
    restricted_state: z.boolean().default(false).describe('Never forge objects from raw BCS: only objects of the state, chains and setup transactions'),
    include_transactions: z.boolean().default(false).describe('Add `transactions`: the sandbox requests that replay the outcome (long)'),
  },
  mutates: false,
  run: async (session, args): Promise<JsonObject> => {
    const pkg = session.packageAt(args.package);
    const bench = await benchmarkFor(session, { tierAOnly: args.tier_a_only, usePtb: args.use_ptb, maxAttempts: args.max_attempts, restrictedState: args.restricted_state });
    const fn = bench.catalogue.functionsOf(pkg.id).find((f) => f.module === args.module && f.name === args.function);
    if (fn === undefined) throw new SmiToolError('MISSING_PACKAGE', `function ${pkg.id}::${args.module}::${args.function} does not exist`);
    if (fn.visibility !== 'Public' && !fn.isEntry) {
      throw new SmiToolError('NOT_A_TARGET', `${args.module}::${args.function} is ${fn.visibility.toLowerCase()}: only public and entry functions are benchmarked`);
    }
    const target: TargetRef = { index: 0, packageId: fn.packageId, module: fn.module, name: fn.name, defIndex: fn.defIndex };
    const row = await bench.runTarget(target);
    if (!args.include_transactions) delete row.transactions;
    return toJsonObject(JSON.parse(rowLine(row)) as object);
  },
});
