/**
 * The interfaces of the loaded packages (the original's interface JSON, built once each),
 * and the ones a transaction of a package can call: what Phase II's prompts and
 * `need_more` answers show. One index for the chain, beside the catalogue the search reads.
 */
import { buildInterfaceJson, canonicalAddress, type MovePackage, type PackageInterface } from '@smi/bytecode';

/** The interfaces a model may ask about: the target, what it links to, and the framework. */
export class InterfaceIndex {
  private readonly cache = new Map<string, PackageInterface>();
  constructor(private readonly byId: ReadonlyMap<string, MovePackage>) {}

  of(pkg: MovePackage): PackageInterface {
    let iface = this.cache.get(pkg.id);
    if (iface === undefined) {
      iface = buildInterfaceJson({ packageId: pkg.id, modules: pkg.modules.map((m) => m.module) });
      this.cache.set(pkg.id, iface);
    }
    return iface;
  }

  /** The target and every package it may call, by id. */
  reachable(pkg: MovePackage): Map<string, PackageInterface> {
    const out = new Map<string, PackageInterface>([[canonicalAddress(pkg.id), this.of(pkg)]]);
    const ids = [...Object.values(pkg.linkageTable).map((d) => d.upgradedId), ...['0x1', '0x2', '0x3'].map((a) => canonicalAddress(a))];
    for (const id of ids) {
      const p = this.byId.get(canonicalAddress(id));
      if (p !== undefined) out.set(canonicalAddress(p.id), this.of(p));
    }
    return out;
  }
}
