/**
 * Module-level passes: instruction consistency (`instruction_consistency.rs`: generic
 * instructions use generic members and the reverse), field ability requirements
 * (`ability_field_requirements.rs`) and recursive data definitions (`data_defs.rs`).
 */
import type { CompiledModule, SignatureToken } from '../file-format.js';
import { PartialError } from './errors.js';
import { ALL_ABILITIES, abilitiesOf, isSubset, requiredByAbilities } from './types.js';

function checkTypeOp(m: CompiledModule, handle: number, generic: boolean, fn: number, offset: number): void {
  if ((m.datatypeHandles[handle].typeParameters.length === 0) === generic) {
    throw new PartialError('GENERIC_MEMBER_OPCODE_MISMATCH').atCodeOffset(fn, offset);
  }
}

/** The instruction-consistency pass. */
export function verifyInstructionConsistency(m: CompiledModule): void {
  m.functionDefs.forEach((def, fn) => {
    if (def.code === null) return;
    def.code.code.forEach((ins, offset) => {
      const structOp = (structDef: number, generic: boolean): void => checkTypeOp(m, m.structDefs[structDef].structHandle, generic, fn, offset);
      const enumOp = (enumDef: number, generic: boolean): void => checkTypeOp(m, m.enumDefs[enumDef].enumHandle, generic, fn, offset);
      switch (ins.$kind) {
        case 'MutBorrowField':
        case 'ImmBorrowField':
          structOp(m.fieldHandles[ins.index].owner, false);
          break;
        case 'MutBorrowFieldGeneric':
        case 'ImmBorrowFieldGeneric':
          structOp(m.fieldHandles[m.fieldInstantiations[ins.index].handle].owner, true);
          break;
        case 'Call':
        case 'CallGeneric': {
          const generic = ins.$kind === 'CallGeneric';
          const handle = generic ? m.functionInstantiations[ins.index].handle : ins.index;
          if ((m.functionHandles[handle].typeParameters.length === 0) === generic) {
            throw new PartialError('GENERIC_MEMBER_OPCODE_MISMATCH').atCodeOffset(fn, offset);
          }
          break;
        }
        case 'Pack':
        case 'Unpack':
        case 'MutBorrowGlobalDeprecated':
        case 'ImmBorrowGlobalDeprecated':
        case 'ExistsDeprecated':
        case 'MoveFromDeprecated':
        case 'MoveToDeprecated':
          structOp(ins.index, false);
          break;
        case 'PackGeneric':
        case 'UnpackGeneric':
        case 'MutBorrowGlobalGenericDeprecated':
        case 'ImmBorrowGlobalGenericDeprecated':
        case 'ExistsGenericDeprecated':
        case 'MoveFromGenericDeprecated':
        case 'MoveToGenericDeprecated':
          structOp(m.structDefInstantiations[ins.index].def, true);
          break;
        case 'VecPack':
        case 'VecUnpack':
          if (ins.count > 0xffffn) {
            throw new PartialError('CONSTRAINT_NOT_SATISFIED', 'VecPack/VecUnpack argument out of range').atCodeOffset(fn, offset);
          }
          break;
        case 'PackVariant':
        case 'UnpackVariant':
        case 'UnpackVariantImmRef':
        case 'UnpackVariantMutRef':
          enumOp(m.variantHandles[ins.index].enumDef, false);
          break;
        case 'PackVariantGeneric':
        case 'UnpackVariantGeneric':
        case 'UnpackVariantGenericImmRef':
        case 'UnpackVariantGenericMutRef':
          enumOp(m.enumDefInstantiations[m.variantInstantiationHandles[ins.index].enumDef].def, true);
          break;
        default:
          break;
      }
    });
  });
}

/** The field-ability pass: a `copy` struct has `copy` fields, `key` needs `store` fields, ... */
export function verifyAbilityFieldRequirements(m: CompiledModule): void {
  m.structDefs.forEach((def, idx) => {
    if (def.fieldInformation.$kind === 'Native') return;
    const h = m.datatypeHandles[def.structHandle];
    const required = requiredByAbilities(h.abilities);
    const params = h.typeParameters.map(() => ALL_ABILITIES);
    for (const f of def.fieldInformation.fields) {
      if (!isSubset(required, abilitiesOf(m, params, f.type))) {
        throw new PartialError('FIELD_MISSING_TYPE_ABILITY').atIndex('StructDefinition', idx);
      }
    }
  });
  m.enumDefs.forEach((def, idx) => {
    const h = m.datatypeHandles[def.enumHandle];
    const required = requiredByAbilities(h.abilities);
    const params = h.typeParameters.map(() => ALL_ABILITIES);
    def.variants.forEach((v, tag) => {
      v.fields.forEach((f, fi) => {
        if (!isSubset(required, abilitiesOf(m, params, f.type))) {
          throw new PartialError('FIELD_MISSING_TYPE_ABILITY').atIndex('EnumDefinition', idx).atIndex('VariantTag', tag).atIndex('FieldDefinition', fi);
        }
      });
    });
  });
}

/** A node of the data-definition graph: struct `s<i>` or enum `e<i>`. */
type DataNode = string;

/**
 * Cycle detection with the exact visiting order of petgraph's `toposort` over a `GraphMap`
 * (node order = insertion order, neighbours in edge-insertion order), so that the reported
 * definition is upstream's.
 */
function toposortCycle(nodes: DataNode[], out: Map<DataNode, DataNode[]>, incoming: Map<DataNode, DataNode[]>): DataNode | null {
  const discovered = new Set<DataNode>();
  const finished = new Set<DataNode>();
  const finishStack: DataNode[] = [];
  for (const start of nodes) {
    if (discovered.has(start)) continue;
    const stack: DataNode[] = [start];
    while (stack.length > 0) {
      const nx = stack[stack.length - 1];
      if (!discovered.has(nx)) {
        discovered.add(nx);
        for (const succ of out.get(nx) ?? []) {
          if (succ === nx) return nx;
          if (!discovered.has(succ)) stack.push(succ);
        }
      } else {
        stack.pop();
        if (!finished.has(nx)) {
          finished.add(nx);
          finishStack.push(nx);
        }
      }
    }
  }
  finishStack.reverse();
  const seen = new Set<DataNode>();
  for (const i of finishStack) {
    const stack: DataNode[] = [i];
    let first = true;
    while (stack.length > 0) {
      const node = stack.pop() as DataNode;
      if (seen.has(node)) continue;
      seen.add(node);
      for (const pred of incoming.get(node) ?? []) if (!seen.has(pred)) stack.push(pred);
      if (!first) return node;
      first = false;
    }
  }
  return null;
}

/** The recursive-datatype pass: no struct or enum contains itself, directly or not. */
export function verifyRecursiveDataDefs(m: CompiledModule): void {
  const handleToDef = new Map<number, DataNode>();
  m.structDefs.forEach((d, i) => {
    if (handleToDef.has(d.structHandle)) throw new PartialError('UNKNOWN_INVARIANT_VIOLATION_ERROR', 'Duplicate struct handle index');
    handleToDef.set(d.structHandle, `s${i}`);
  });
  m.enumDefs.forEach((d, i) => {
    if (handleToDef.has(d.enumHandle)) throw new PartialError('UNKNOWN_INVARIANT_VIOLATION_ERROR', 'Duplicate enum handle index');
    handleToDef.set(d.enumHandle, `e${i}`);
  });
  // Neighbour sets per parent (BTreeSet order: structs before enums, by index).
  const order = (n: DataNode): number => (n[0] === 's' ? 0 : 1 << 20) + Number(n.slice(1));
  const neighbors = new Map<DataNode, Set<DataNode>>();
  const addToken = (cur: DataNode, t: SignatureToken): void => {
    switch (t.$kind) {
      case 'Reference':
      case 'MutableReference':
        throw new PartialError('UNKNOWN_INVARIANT_VIOLATION_ERROR', 'Reference field when checking recursive structs');
      case 'Vector':
        addToken(cur, t.type);
        break;
      case 'Datatype':
      case 'DatatypeInstantiation': {
        const target = handleToDef.get(t.index);
        if (target !== undefined) {
          let set = neighbors.get(cur);
          if (!set) neighbors.set(cur, (set = new Set()));
          set.add(target);
        }
        if (t.$kind === 'DatatypeInstantiation') for (const a of t.typeArguments) addToken(cur, a);
        break;
      }
      default:
        break;
    }
  };
  m.structDefs.forEach((d, i) => {
    if (d.fieldInformation.$kind === 'Declared') for (const f of d.fieldInformation.fields) addToken(`s${i}`, f.type);
  });
  m.enumDefs.forEach((d, i) => {
    for (const v of d.variants) for (const f of v.fields) addToken(`e${i}`, f.type);
  });
  // Build the graph as `DiGraphMap::from_edges` would, parents in BTreeMap order.
  const nodes: DataNode[] = [];
  const known = new Set<DataNode>();
  const out = new Map<DataNode, DataNode[]>();
  const incoming = new Map<DataNode, DataNode[]>();
  const addNode = (n: DataNode): void => {
    if (!known.has(n)) {
      known.add(n);
      nodes.push(n);
    }
  };
  const parents = [...neighbors.keys()].sort((a, b) => order(a) - order(b));
  for (const p of parents) {
    const children = [...(neighbors.get(p) as Set<DataNode>)].sort((a, b) => order(a) - order(b));
    for (const c of children) {
      addNode(p);
      addNode(c);
      (out.get(p) ?? (out.set(p, []).get(p) as DataNode[])).push(c);
      if (p !== c) (incoming.get(c) ?? (incoming.set(c, []).get(c) as DataNode[])).push(p);
    }
  }
  const cycle = toposortCycle(nodes, out, incoming);
  if (cycle === null) return;
  const idx = Number(cycle.slice(1));
  throw new PartialError('RECURSIVE_DATATYPE_DEFINITION').atIndex(cycle[0] === 's' ? 'StructDefinition' : 'EnumDefinition', idx);
}
