/**
 * What a Phase II model sees of a package: the original's interface summary
 * (`summarize_interface`: `Package: …`, `Module: m`, `  - public entry fun f<N type params>(…)`,
 * entry functions first, then by name; `init` and private functions left out) in its modes
 * `entry_then_public`, `entry_only`, `names_only` and `focused` (only the functions a
 * `need_more` request named), and the inventory summary.
 *
 * Fixed defects of the original: return types are shown (a model cannot chain constructors
 * without them), type parameters print as `T0`… (it printed `unknown`), a module request
 * (`0xADDR::module`, which its prompt offered) shows the whole module (it was ignored), a
 * request may name a function of any package the target links to (`0x2::coin::zero`), and a
 * request naming nothing real is an error the model is told about.
 */
import { canonicalAddress, compareCodePoints, type FunctionInterface, type InterfaceType, type PackageInterface } from '@smi/bytecode';

/** The interface summary modes. */
export const SUMMARY_MODES = ['entry_then_public', 'entry_only', 'names_only', 'focused'] as const;
export type SummaryMode = (typeof SUMMARY_MODES)[number];

/** The original's default cap on the functions a summary lists. */
export const SUMMARY_MAX_FUNCTIONS = 60;

/** A Move type as source text (`0x…::m::S<T0>`, `&mut …`, `vector<u8>`). */
export function interfaceTypeString(t: InterfaceType): string {
  switch (t.kind) {
    case 'vector':
      return `vector<${interfaceTypeString(t.type)}>`;
    case 'ref':
      return `${t.mutable ? '&mut ' : '&'}${interfaceTypeString(t.to)}`;
    case 'type_param':
      return `T${t.index}`;
    case 'datatype': {
      const base = `${t.address}::${t.module}::${t.name}`;
      return t.type_args.length > 0 ? `${base}<${t.type_args.map(interfaceTypeString).join(', ')}>` : base;
    }
    default:
      return t.kind;
  }
}

/** One function's line (without the leading `  - `). */
export function functionSignature(name: string, f: FunctionInterface): string {
  const entry = f.is_entry ? ' entry' : '';
  const tps = f.type_params.length > 0 ? `<${f.type_params.length} type params>` : '';
  const ret = f.returns.length === 0 ? '' : f.returns.length === 1 ? `: ${interfaceTypeString(f.returns[0])}` : `: (${f.returns.map(interfaceTypeString).join(', ')})`;
  return `${f.visibility}${entry} fun ${name}${tps}(${f.params.map(interfaceTypeString).join(', ')})${ret}`;
}

const byName = <T>(o: Readonly<Record<string, T>>): [string, T][] => Object.entries(o).sort(([a], [b]) => compareCodePoints(a, b));

/** The summary of `iface` in one of the listing modes (`focused`: see {@link focusedSummary}). */
export function summarizeInterface(iface: PackageInterface, mode: Exclude<SummaryMode, 'focused'>, maxFunctions = SUMMARY_MAX_FUNCTIONS): string {
  const lines = [`Package: ${iface.package_id}`, ''];
  let added = 0;
  for (const [moduleName, mod] of byName(iface.modules)) {
    if (added >= maxFunctions) break;
    const moduleLines: string[] = [];
    const funs = byName(mod.functions).sort(([a, x], [b, y]) => Number(!x.is_entry) - Number(!y.is_entry) || compareCodePoints(a, b));
    for (const [name, f] of funs) {
      if (added >= maxFunctions) break;
      if (name === 'init' || (f.visibility !== 'public' && !f.is_entry)) continue;
      if (mode === 'entry_only' && !f.is_entry) continue;
      moduleLines.push(`  - ${mode === 'names_only' ? name : functionSignature(name, f)}`);
      added++;
    }
    if (moduleLines.length > 0) lines.push(`Module: ${moduleName}`, ...moduleLines, '');
  }
  if (added >= maxFunctions) lines.push(`... (truncated after ${maxFunctions} functions)`);
  return lines.join('\n');
}

/** What a `need_more` request named, resolved against the packages the model may call. */
export interface ResolvedRequests {
  /** `0x<64>::module::function` of every function now shown. */
  functions: string[];
  /** Requests that name nothing (told to the model). */
  errors: string[];
}

/** Resolve `need_more` targets (`0xADDR::module::function` or `0xADDR::module`; a bare `module::function` means the target package). */
export function resolveRequests(requests: readonly string[], targetId: string, interfaces: ReadonlyMap<string, PackageInterface>): ResolvedRequests {
  const functions: string[] = [];
  const errors: string[] = [];
  for (const raw of requests) {
    const parts = raw.trim().split('::');
    let addr: string;
    let rest: string[];
    if (/^(0x)?[0-9a-fA-F]{1,64}$/.test(parts[0]) && parts.length >= 2 && parts[0].length > 0 && (parts[0].startsWith('0x') || parts.length === 3)) {
      addr = canonicalAddress(parts[0].startsWith('0x') ? parts[0] : `0x${parts[0]}`);
      rest = parts.slice(1);
    } else {
      addr = canonicalAddress(targetId);
      rest = parts;
    }
    const iface = interfaces.get(addr);
    const mod = rest.length >= 1 ? iface?.modules[rest[0]] : undefined;
    if (iface === undefined) {
      errors.push(`"${raw}": package ${addr} is not loaded (you can use the target package and the packages it depends on)`);
      continue;
    }
    if (rest.length < 1 || rest.length > 2 || mod === undefined) {
      errors.push(`"${raw}": no module ${rest[0] ?? '(none)'} in package ${addr} (modules: ${iface.module_names.join(', ')})`);
      continue;
    }
    if (rest.length === 1) {
      for (const name of Object.keys(mod.functions).sort(compareCodePoints)) functions.push(`${addr}::${rest[0]}::${name}`);
      continue;
    }
    if (mod.functions[rest[1]] === undefined) {
      errors.push(`"${raw}": module ${rest[0]} has no function ${rest[1]}`);
      continue;
    }
    functions.push(`${addr}::${rest[0]}::${rest[1]}`);
  }
  return { functions: [...new Set(functions)], errors };
}

/**
 * The `focused` summary: only the requested functions, private ones and `init` included (so
 * the model sees why it cannot call them), grouped by package and module.
 */
export function focusedSummary(requested: readonly string[], interfaces: ReadonlyMap<string, PackageInterface>, maxFunctions = SUMMARY_MAX_FUNCTIONS): string {
  const byPackage = new Map<string, Map<string, string[]>>();
  for (const target of [...new Set(requested)].sort(compareCodePoints)) {
    const [addr, m, f] = target.split('::');
    const mods = byPackage.get(addr) ?? new Map<string, string[]>();
    mods.set(m, [...(mods.get(m) ?? []), f]);
    byPackage.set(addr, mods);
  }
  const lines: string[] = [];
  let added = 0;
  for (const [addr, mods] of byPackage) {
    const iface = interfaces.get(addr);
    if (iface === undefined) continue;
    lines.push(`Package: ${addr}`, '');
    for (const [m, names] of mods) {
      const mod = iface.modules[m];
      if (mod === undefined) continue;
      lines.push(`Module: ${m}`);
      for (const name of names) {
        if (added >= maxFunctions) break;
        const f = mod.functions[name];
        if (f !== undefined) lines.push(`  - ${functionSignature(name, f)}${f.visibility !== 'public' && !f.is_entry ? '   (not callable from a transaction)' : ''}`);
        added++;
      }
      lines.push('');
    }
  }
  if (added >= maxFunctions) lines.push(`... (truncated after ${maxFunctions} functions)`);
  return lines.length === 0 ? 'No functions requested.' : lines.join('\n');
}

/** An object the sender can use. */
export interface InventoryItem {
  id: string;
  type: string;
  owner: 'owned' | 'shared' | 'immutable';
}

/**
 * The inventory summary: the original's lines (objects by type, with counts), plus what a
 * plan needs to use them, which it left out: their ids (up to `maxIds` a type) and whether
 * they are shared.
 */
export function inventorySummary(items: readonly InventoryItem[], maxIds = 3): string {
  if (items.length === 0) return 'Your inventory is empty or could not be fetched.';
  const byType = new Map<string, InventoryItem[]>();
  for (const it of items) byType.set(it.type, [...(byType.get(it.type) ?? []), it]);
  const lines = ['You own the following objects (grouped by type):'];
  for (const [t, list] of [...byType].sort(([a], [b]) => compareCodePoints(a, b))) {
    const kinds = [...new Set(list.map((x) => x.owner))].join('/');
    const ids = list
      .slice(0, maxIds)
      .map((x) => x.id)
      .join(', ');
    const more = list.length > maxIds ? `, … (+${list.length - maxIds} more)` : '';
    lines.push(`- ${t}: ${list.length} objects available (${kinds}): ${ids}${more}`);
  }
  return lines.join('\n');
}
