/**
 * The original's static created-type scan (`smi_tx_sim --bytecode-package-dir`), kept for
 * comparison with the types a transaction really created: for each function a plan calls, the
 * types its own code hands to `0x2::transfer::{transfer, public_transfer, share_object}` (a
 * `CallGeneric` in its body, not in the functions it calls), as `0x<64 hex>::m::S<..>` with the
 * function's type parameters as `T0`, `T1`, ....
 */
import { canonicalAddress, formatToken, type MovePackage } from '@smi/bytecode';
import type { Plan } from '@smi/inhabit';

const TRANSFERS = new Set(['transfer', 'public_transfer', 'share_object']);
const SUI = canonicalAddress('0x2');

/** The static created types of the functions `plan` calls in `packages` (sorted, distinct). */
export function staticCreatedTypes(plan: Plan, packages: ReadonlyMap<string, MovePackage>): string[] {
  const out = new Set<string>();
  for (const call of plan.calls) {
    const [pkgId, modName, fnName] = call.target.split('::');
    const pkg = packages.get(canonicalAddress(pkgId));
    const m = pkg?.modules.find((x) => x.name === modName)?.module;
    if (!m) continue;
    const def = m.functionDefs.find((d) => m.identifiers[m.functionHandles[d.function].name] === fnName);
    for (const ins of def?.code?.code ?? []) {
      if (ins.$kind !== 'CallGeneric' || !('index' in ins)) continue;
      const inst = m.functionInstantiations[ins.index];
      const h = m.functionHandles[inst.handle];
      const mh = m.moduleHandles[h.module];
      if (canonicalAddress(m.addressIdentifiers[mh.address]) !== SUI || m.identifiers[mh.name] !== 'transfer' || !TRANSFERS.has(m.identifiers[h.name])) continue;
      const t = m.signatures[inst.typeParameters][0];
      if (t) out.add(formatToken(m, t, { fullAddresses: true, typeParamName: (i) => `T${i}` }));
    }
  }
  return [...out].sort();
}
