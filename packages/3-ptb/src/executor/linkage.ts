/**
 * The transaction-wide ("unified") linkage of protocol `enable_unified_linkage`: every command's
 * packages are folded into one resolution table keyed by original package id, and commands
 * that cannot agree on one version of a package fail the transaction with `InvalidLinkage`
 * (at the command that brought the conflict in).
 *
 * - A MoveCall pins the called package `exact`; its dependencies (the package's linkage
 *   table) are `at_least` when the function is public, `exact` otherwise. Packages of type
 *   arguments are `at_least`, with their dependencies.
 * - A Publish pins its dependencies `exact`, but only when one of its modules has an `init`
 *   (which runs in the transaction); otherwise it adds nothing. An upgrade adding a module
 *   with an `init` does the same (after all other commands): when the upgraded package is
 *   already in the table, each of its dependencies must resolve to the version it names.
 * - `exact`/`exact` conflict on different versions; `exact v`/`at_least w` conflict when
 *   v < w; two `at_least` keep the higher one.
 */
import { deserializeModule, type CompiledModule } from '@smi/bytecode';
import type { MoveVM, ProtocolConfig } from '@smi/move-vm';
import type { SuiObject } from '../bcs/object.js';
import type { Command } from '../bcs/transaction.js';
import { type TypeTag, typeTagAddresses } from '../bcs/type-tag.js';
import { normalizeAddress } from '../bcs/codec.js';
import { ExecutionFailure } from './errors.js';
import type { ObjectStore } from './types.js';

type Kind = 'exact' | 'atLeast';

interface Constraint {
  kind: Kind;
  version: bigint;
  id: string;
}

const NATIVE = ['0x2', '0x3', '0x1'].map((a) => normalizeAddress(a));

function invalidLinkage(message: string): ExecutionFailure {
  return new ExecutionFailure({ $kind: 'InvalidLinkage', InvalidLinkage: true } as never, message);
}

function unify(a: Constraint, b: Constraint): Constraint {
  if (a.kind === 'exact' && b.kind === 'exact') {
    if (a.id !== b.id || a.version !== b.version) {
      throw invalidLinkage(
        `exact/exact conflicting resolutions for package: linkage requires the same package at different versions. Linkage requires exactly ${a.id} (version ${a.version}) and ${b.id} (version ${b.version}) to be used in the same transaction`,
      );
    }
    return a;
  }
  if (a.kind === 'atLeast' && b.kind === 'atLeast') return a.version > b.version ? a : b;
  const [exact, atLeast] = a.kind === 'exact' ? [a, b] : [b, a];
  if (exact.version < atLeast.version) {
    throw invalidLinkage(
      `Exact/AtLeast conflicting resolutions for package: linkage requires exactly this package ${exact.id} (version ${exact.version}) and also at least the following version of the package ${atLeast.id} at version ${atLeast.version}. However ${exact.id} is at version ${exact.version} which is less than ${atLeast.version}.`,
    );
  }
  return exact;
}

/** The resolution table: original package id → constraint. */
class ResolutionTable {
  readonly table = new Map<string, Constraint>();

  constructor(
    private readonly vm: MoveVM,
    private readonly store: ObjectStore,
  ) {}

  private pkg(id: string): Extract<SuiObject['data'], { $kind: 'Package' }>['Package'] | undefined {
    const o = this.store.getObject(id);
    return o?.data.$kind === 'Package' ? o.data.Package : undefined;
  }

  originalOf(id: string): string {
    return this.vm.packageById(id)?.originalId ?? id;
  }

  /** Add one package version (packages the store does not hold are left to later checks). */
  add(id: string, kind: Kind): void {
    const p = this.pkg(id);
    if (p === undefined) return;
    const c: Constraint = { kind, version: p.version, id: normalizeAddress(id) };
    const original = normalizeAddress(this.originalOf(id));
    const existing = this.table.get(original);
    this.table.set(original, existing === undefined ? c : unify(existing, c));
  }

  /** A package (`self`) and every package of its linkage table (`deps`). */
  addPackage(id: string, self: Kind, deps: Kind): void {
    const p = this.pkg(id);
    if (p === undefined) return;
    this.add(id, self);
    for (const info of p.linkageTable.values()) this.add(info.upgradedId, deps);
  }

  addTypes(tags: readonly TypeTag[]): void {
    for (const t of tags) for (const a of typeTagAddresses(t)) this.addPackage(a, 'atLeast', 'atLeast');
  }
}

function hasInit(m: CompiledModule): boolean {
  return m.functionDefs.some((d) => m.identifiers[m.functionHandles[d.function].name] === 'init');
}

function modulesOf(bytes: readonly Uint8Array[]): CompiledModule[] | null {
  try {
    return bytes.map((b) => deserializeModule(b));
  } catch {
    // Undecodable modules fail the publish itself.
    return null;
  }
}

/** What the commands agreed on: original package id → storage id of the version chosen. */
export type UnifiedLinkage = Map<string, string>;

/**
 * The linkage the commands agree on, or the failure (with its command index) of the first
 * command that brought in a conflict.
 */
export function unifiedLinkage(vm: MoveVM, store: ObjectStore, commands: readonly Command[], cfg: ProtocolConfig): ExecutionFailure | UnifiedLinkage {
  const t = new ResolutionTable(vm, store);
  const failure = resolve(vm, t, commands, cfg);
  return failure ?? new Map([...t.table].map(([original, c]) => [original, c.id]));
}

function resolve(vm: MoveVM, t: ResolutionTable, commands: readonly Command[], cfg: ProtocolConfig): ExecutionFailure | null {
  const at = (i: number, f: () => void): ExecutionFailure | null => {
    try {
      f();
      return null;
    } catch (e) {
      if (!(e instanceof ExecutionFailure)) throw e;
      e.command = i;
      return e;
    }
  };
  for (const id of NATIVE) t.add(id, 'exact');
  const orderIndependentUpgrades = cfg.flag('enable_order_independent_upgrade_init_linkage');
  const added = new Set<string>();
  for (let i = 0; i < commands.length; i++) {
    const c = commands[i];
    const failure = at(i, () => {
      switch (c.$kind) {
        case 'MoveCall': {
          const call = c.MoveCall;
          // Adding the same constraints again changes nothing (see `unify`), so a function
          // called again adds only its type arguments.
          const key = `${call.package}::${call.module}::${call.function}`;
          if (!added.has(key)) {
            const fn = vm.resolveFunctionIfExists(call.package, call.module, call.function);
            if (fn === undefined) return;
            t.addPackage(call.package, 'exact', fn.visibility === 'Public' ? 'atLeast' : 'exact');
            added.add(key);
          }
          t.addTypes(call.typeArguments);
          return;
        }
        case 'MakeMoveVec':
          if (c.MakeMoveVec.type !== null) t.addTypes([c.MakeMoveVec.type]);
          return;
        case 'Publish': {
          const modules = modulesOf(c.Publish.modules);
          if (modules !== null && modules.some(hasInit)) for (const d of c.Publish.dependencies) t.add(d, 'exact');
          return;
        }
        case 'Upgrade':
          if (!orderIndependentUpgrades) upgradeInit(vm, t, c.Upgrade, cfg);
          return;
        default:
          return;
      }
    });
    if (failure !== null) return failure;
  }
  if (orderIndependentUpgrades) {
    for (let i = 0; i < commands.length; i++) {
      const c = commands[i];
      if (c.$kind !== 'Upgrade') continue;
      const failure = at(i, () => upgradeInit(vm, t, c.Upgrade, cfg));
      if (failure !== null) return failure;
    }
  }
  return null;
}

/** An upgrade adding a module with an `init` pins its dependencies (see the module note). */
function upgradeInit(vm: MoveVM, t: ResolutionTable, u: Extract<Command, { $kind: 'Upgrade' }>['Upgrade'], cfg: ProtocolConfig): void {
  if (!cfg.flag('enable_init_on_upgrade')) return;
  const current = vm.packageById(u.package);
  const modules = modulesOf(u.modules);
  if (current === undefined || modules === null) return;
  const existing = new Set(current.modules.map((m) => m.name));
  const addsInit = modules.some((m) => !existing.has(m.identifiers[m.moduleHandles[m.selfModuleHandleIndex].name]) && hasInit(m));
  if (!addsInit) return;
  const original = normalizeAddress(current.originalId);
  if (!t.table.has(original)) {
    for (const d of u.dependencies) t.add(d, 'exact');
    return;
  }
  for (const d of u.dependencies) {
    const found = t.table.get(normalizeAddress(t.originalOf(d)));
    if (found === undefined) t.add(d, 'exact');
    else if (found.id !== normalizeAddress(d)) {
      throw invalidLinkage(`upgrade init linkage conflicts with transaction linkage: package ${t.originalOf(d)} resolves to ${found.id} in transaction linkage, but upgrade linkage requires ${d}`);
    }
  }
}
