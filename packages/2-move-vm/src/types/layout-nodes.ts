/**
 * `max_type_to_layout_nodes`: the node limit when a type is turned into a value layout
 * (upstream `type_to_type_layout`). Sui lays out the values it serializes: the events of a
 * Move call, the objects written at the end of a transaction and, before protocol 104, the
 * values a Move call returns to the PTB.
 *
 * Nodes: one per type (a vector, each field of a datatype, instantiated), plus one per
 * variant of each enum when variants count (`variant_nodes`, protocol 72; always in the
 * VM of execution version 4, protocol 119+). The limit is `max_type_to_layout_nodes`
 * (protocol 60+), else `HISTORICAL_MAX_TYPE_TO_LAYOUT_NODES` (256).
 *
 * - Execution version 4 (`move-vm-runtime` `TypeSize`): checked after every node, so a
 *   layout of more than `limit` nodes fails with `VM_MAX_TYPE_NODES_REACHED`.
 * - Older VMs (`move-execution/v0..v3` `loader.rs`): checked before each node (and, with
 *   `variant_nodes`, after each), so without `variant_nodes` a layout fails only when it has
 *   more than `limit + 1` nodes; the status is `TOO_MANY_TYPE_NODES`.
 */
import type { ProtocolConfig } from '../config/protocol-config.js';
import { HISTORICAL_MAX_TYPE_TO_LAYOUT_NODES } from '../config/vm-limits.js';
import { VmError } from '../errors.js';
import { type Type, TypeKind, type TypeTable } from './runtime-type.js';

/** How one protocol version checks layout nodes. */
export interface LayoutNodeRule {
  limit: number;
  /** Enum variants count as nodes. */
  variantNodes: boolean;
  /** The last node is checked too (execution version 4, or `variant_nodes`). */
  checksLastNode: boolean;
  status: 'VM_MAX_TYPE_NODES_REACHED' | 'TOO_MANY_TYPE_NODES';
}

/** The rule of a protocol version (`null`: the latest VM's, with protocol 135's limit, 512). */
export function layoutNodeRule(cfg: ProtocolConfig | null): LayoutNodeRule {
  if (cfg === null) return { limit: 512, variantNodes: true, checksLastNode: true, status: 'VM_MAX_TYPE_NODES_REACHED' };
  const limit = cfg.optionalInt('max_type_to_layout_nodes') ?? HISTORICAL_MAX_TYPE_TO_LAYOUT_NODES;
  const latestVm = (cfg.optionalInt('execution_version') ?? 0) >= 4;
  const variantNodes = latestVm || cfg.flag('variant_nodes');
  return { limit, variantNodes, checksLastNode: variantNodes, status: latestVm ? 'VM_MAX_TYPE_NODES_REACHED' : 'TOO_MANY_TYPE_NODES' };
}

/** Counts are capped here: only the comparison with the limit matters. */
const CAP = 2 ** 40;
const memo = { plain: new WeakMap<Type, number>(), variants: new WeakMap<Type, number>() };

/** Nodes of the layout of `t` (memoized per interned type). */
export function layoutNodeCount(table: TypeTable, t: Type, variantNodes: boolean): number {
  const cache = variantNodes ? memo.variants : memo.plain;
  const known = cache.get(t);
  if (known !== undefined) return known;
  let n = 1;
  if (t.kind === TypeKind.Vector) n += layoutNodeCount(table, t.elem as Type, variantNodes);
  else if (t.kind === TypeKind.Datatype && t.datatype !== null) {
    const d = t.datatype;
    const field = (declared: Type): number => layoutNodeCount(table, declared.generic ? table.subst(declared, t.typeArgs) : declared, variantNodes);
    if (d.isEnum) {
      for (const v of d.variants()) {
        if (variantNodes) n += 1;
        for (const f of v.fields) n += field(f.type);
      }
    } else for (const f of d.fields()) n += field(f.type);
  }
  n = Math.min(n, CAP);
  cache.set(t, n);
  return n;
}

/**
 * Fail as upstream does when the layout of `t` has too many nodes (references are laid
 * out as their target).
 * @throws {VmError} `VM_MAX_TYPE_NODES_REACHED` or `TOO_MANY_TYPE_NODES` (see {@link LayoutNodeRule}).
 */
export function checkLayoutNodes(table: TypeTable, t: Type, rule: LayoutNodeRule): void {
  const target = t.kind === TypeKind.Reference || t.kind === TypeKind.MutableReference ? (t.elem as Type) : t;
  const n = layoutNodeCount(table, target, rule.variantNodes);
  const tooMany = rule.checksLastNode ? n > rule.limit : n - 1 > rule.limit;
  if (tooMany) throw new VmError(rule.status, `the layout of the type has ${n} nodes (limit ${rule.limit})`);
}
