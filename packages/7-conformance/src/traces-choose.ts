/**
 * Which framework a trace that calls into 0x1/0x2 ran on, found from the trace itself: every
 * frame it opens in a framework module records the function's name and its index among the
 * module's function definitions (`binary_member_index`). A framework snapshot agrees with the
 * trace when each such index names that function in the snapshot's module (the test-only
 * functions of `tx_context`, which only the test build has, are checked by name only: the run
 * on the test build checks their indices). The agreeing snapshots are tried newest first; the
 * first whose run reproduces the trace is the one, and the outcome says which.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { canonicalAddress, type CompiledModule, loadSnapshotFile } from '@smi/bytecode';

const FRAMEWORK = new Set(['0x1', '0x2'].map((a) => canonicalAddress(a)));
/** The module whose test build differs from the published one (test-only functions inside). */
const TEST_BUILT = `${canonicalAddress('0x2')}::tx_context`;

/** A framework function a trace entered. */
export interface FrameCall {
  /** `0x…::module`. */
  module: string;
  function: string;
  index: number;
}

type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json };

const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The framework functions a trace's records enter (each once). */
export function frameworkCalls(records: readonly unknown[]): FrameCall[] {
  const out = new Map<string, FrameCall>();
  for (const r of records) {
    if (!isObject(r) || !isObject(r.OpenFrame) || !isObject(r.OpenFrame.frame)) continue;
    const f = r.OpenFrame.frame;
    const m = f.module;
    if (!isObject(m) || typeof m.address !== 'string' || typeof m.name !== 'string') continue;
    const address = canonicalAddress(`0x${m.address}`);
    if (!FRAMEWORK.has(address)) continue;
    const call = { module: `${address}::${m.name}`, function: String(f.function_name), index: Number(f.binary_member_index) };
    out.set(`${call.module}::${call.function}@${call.index}`, call);
  }
  return [...out.values()];
}

/** Protocol versions with a framework snapshot under `fixturesRoot`, newest first. */
export function snapshotVersions(fixturesRoot: string): number[] {
  const dir = path.join(fixturesRoot, 'fixtures', 'framework-snapshots');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((v) => /^[0-9]+$/.test(v))
    .map(Number)
    .sort((a, b) => b - a);
}

/** The function names of a module, by definition index. */
function names(m: CompiledModule): string[] {
  return m.functionDefs.map((d) => m.identifiers[m.functionHandles[d.function].name] as string);
}

/** Snapshot modules' function names, read once per file. */
const namesCache = new Map<string, Map<string, string[]>>();

function snapshotNames(fixturesRoot: string, version: number, address: string): Map<string, string[]> | undefined {
  const file = path.join(fixturesRoot, 'fixtures', 'framework-snapshots', String(version), address);
  let cached = namesCache.get(file);
  if (cached === undefined) {
    if (!existsSync(file)) return undefined;
    const pkg = loadSnapshotFile(file);
    cached = new Map(pkg.modules.map((m) => [m.name, names(m.module)]));
    namesCache.set(file, cached);
  }
  return cached;
}

/** Why a snapshot does not agree with the calls, or `null` when it does. */
function disagreement(fixturesRoot: string, version: number, calls: readonly FrameCall[]): string | null {
  for (const c of calls) {
    const [address, module] = c.module.split('::') as [string, string];
    const modules = snapshotNames(fixturesRoot, version, address);
    const fns = modules?.get(module);
    if (fns === undefined) return `it has no module ${c.module}`;
    // The test build's layout is checked by running on it.
    if (c.module === TEST_BUILT) continue;
    if (fns[c.index] !== c.function) return `${c.module} function ${c.index} is ${fns[c.index] ?? 'absent'}, the trace's is ${c.function}`;
  }
  return null;
}

/** The snapshots that agree with a trace's framework calls, newest first, and why each other one does not. */
export function agreeingSnapshots(fixturesRoot: string, records: readonly unknown[]): { agreeing: number[]; refused: Map<number, string> } {
  const calls = frameworkCalls(records);
  const agreeing: number[] = [];
  const refused = new Map<number, string>();
  for (const v of snapshotVersions(fixturesRoot)) {
    const why = disagreement(fixturesRoot, v, calls);
    if (why === null) agreeing.push(v);
    else refused.set(v, why);
  }
  return { agreeing, refused };
}
