/**
 * Phase I's inputs from a package's bytecode: the truth (every struct with the `key`
 * ability, as `0xADDR::module::Struct`) and the prompt that shows the structs without
 * their abilities, truncated after a number of structs, exactly as the original built it.
 */
import { buildInterfaceJson, compareCodePoints, type CompiledModule, type PackageInterface } from '@smi/bytecode';
import { type PyJson, pyDumps } from '../py-json.js';

/** The original's instructions, word for word. */
export const PHASE1_INSTRUCTIONS =
  'Given the Sui Move package structure below, return a JSON object with a single key ' +
  '"key_types" that maps to a JSON array of type strings in the form "0xADDR::module::Struct". ' +
  'Include only structs that you believe have the Move ability `key`.\n' +
  'Output ONLY valid JSON.\n';

/** The original's system message. */
export const PHASE1_SYSTEM = 'You are a careful assistant. Output only valid JSON.';

/** Version of the prompt text (part of a run's spec): bump it when the text changes. */
export const PHASE1_PROMPT_VERSION = 'phase1-v1';

/** The interface of a package (modules in name order, as the original extractor wrote them). */
export function packageInterface(packageId: string, modules: readonly CompiledModule[]): PackageInterface {
  return buildInterfaceJson({ packageId, modules: [...modules] });
}

function sortedEntries<T>(o: Readonly<Record<string, T>>): [string, T][] {
  return Object.entries(o).sort(([a], [b]) => compareCodePoints(a, b));
}

/** Every struct with `key`, as `0xADDR::module::Struct` (the module's own address), sorted. */
export function keyTypes(iface: PackageInterface): string[] {
  const out: string[] = [];
  for (const [moduleName, mod] of sortedEntries(iface.modules)) {
    for (const [structName, s] of sortedEntries(mod.structs)) if (s.abilities.includes('key')) out.push(`${mod.address}::${moduleName}::${structName}`);
  }
  return out.sort(compareCodePoints);
}

/** How many structs a package declares (the most a prompt can show). */
export function structCount(iface: PackageInterface): number {
  let n = 0;
  for (const mod of Object.values(iface.modules)) n += Object.keys(mod.structs).length;
  return n;
}

/**
 * The user prompt: the instructions, then `json.dumps(payload, indent=2, sort_keys=True)`
 * of the package's structs and their fields (no abilities), after at most `maxStructs`
 * structs in module and struct name order.
 */
export function phase1Prompt(iface: PackageInterface, maxStructs: number): string {
  const modules: { [name: string]: PyJson } = {};
  let added = 0;
  for (const [moduleName, mod] of sortedEntries(iface.modules)) {
    const structs: { [name: string]: PyJson } = {};
    for (const [structName, s] of sortedEntries(mod.structs)) {
      if (added >= maxStructs) break;
      structs[structName] = { fields: s.fields.map((f) => ({ name: f.name, type: f.type as unknown as PyJson })) };
      added++;
    }
    if (Object.keys(structs).length > 0) modules[moduleName] = { address: mod.address, structs };
    if (added >= maxStructs) break;
  }
  const payload = { package_id: iface.package_id, modules, note: 'Struct abilities are intentionally omitted.' };
  return PHASE1_INSTRUCTIONS + pyDumps(payload, 2);
}
