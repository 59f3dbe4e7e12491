/**
 * What a Phase II run cannot simulate before it starts: the packages a target links to
 * that the corpus (and the framework) does not hold. Each missing package is named by the
 * id the target links to (its linkage table's storage id, else the address its modules
 * use), never by the id of the package that needs it.
 */
import { canonicalAddress, type MovePackage, SYSTEM_PACKAGES } from '@smi/bytecode';

/** A package with dependencies the run does not have. */
export interface MissingDependencies {
  package_id: string;
  /** Ids of the packages it links to that are not loaded, sorted. */
  missing: string[];
}

/** The ids `pkg` links to: its linkage table's storage ids, and the addresses its modules use that the table does not map. */
function linkedIds(pkg: MovePackage): string[] {
  const self = new Set([canonicalAddress(pkg.id), canonicalAddress(pkg.originalId)]);
  const out = new Set<string>();
  const mapped = new Set<string>();
  for (const [original, entry] of Object.entries(pkg.linkageTable)) {
    mapped.add(canonicalAddress(original));
    out.add(canonicalAddress(entry.upgradedId));
  }
  for (const { module: m } of pkg.modules) {
    for (const h of m.moduleHandles) {
      const address = canonicalAddress(m.addressIdentifiers[h.address]);
      if (!self.has(address) && !mapped.has(address)) out.add(address);
    }
  }
  return [...out];
}

/** For each of `targets`, the packages it links to, directly or through others, that are neither in `loaded` nor system packages. */
export function missingDependencies(targets: readonly MovePackage[], loaded: readonly MovePackage[]): MissingDependencies[] {
  const byId = new Map<string, MovePackage>();
  for (const p of loaded) byId.set(canonicalAddress(p.id), p);
  // An address a module uses is the package's original id; any loaded version of it links.
  const byOriginal = new Map<string, MovePackage>();
  for (const p of loaded) if (!byOriginal.has(canonicalAddress(p.originalId))) byOriginal.set(canonicalAddress(p.originalId), p);
  const found = (id: string): MovePackage | undefined => byId.get(id) ?? byOriginal.get(id);
  const out: MissingDependencies[] = [];
  for (const target of targets) {
    const missing = new Set<string>();
    const seen = new Set<string>([canonicalAddress(target.id)]);
    const queue = [target];
    while (queue.length > 0) {
      const pkg = queue.pop() as MovePackage;
      for (const id of linkedIds(pkg)) {
        if (seen.has(id) || SYSTEM_PACKAGES.has(id)) continue;
        seen.add(id);
        const dep = found(id);
        if (dep === undefined) missing.add(id);
        else queue.push(dep);
      }
    }
    if (missing.size > 0) out.push({ package_id: target.id, missing: [...missing].sort() });
  }
  return out;
}
