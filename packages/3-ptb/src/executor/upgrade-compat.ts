/**
 * Upgrade compatibility (upstream `check_compatibility` over normalized modules): every
 * module of the previous version must still exist, and per the ticket's policy
 *
 * - `compatible` (0): public functions keep their signatures and stay public, entry
 *   functions stay entry, datatypes keep their abilities (none may be added), type
 *   parameters, fields and variants (none added, none changed);
 * - `additive` (128): the old module is included in the new one as it was (code too);
 *   new datatypes and functions may be added;
 * - `dep_only` (192): the modules are equal (code too) and no module is added.
 *
 * Modules are compared by name-resolved shapes, so table order does not matter.
 */
import type { Bytecode, CompiledModule, SignatureToken } from '@smi/bytecode';
import { moduleName } from '@smi/bytecode';

/** Upgrade policies of `0x2::package`. */
export const UPGRADE_POLICY = { compatible: 0, additive: 128, depOnly: 192 } as const;

interface NField {
  name: string;
  type: string;
}

interface NDatatype {
  abilities: number;
  typeParams: { constraints: number; isPhantom: boolean }[];
  /** Struct fields. */
  fields: NField[];
  /** Enum variants. */
  variants: { name: string; fields: NField[] }[];
  /** Equality key of the whole datatype. */
  key: string;
}

interface NFunction {
  visibility: string;
  isEntry: boolean;
  typeParams: number[];
  params: string;
  returns: string;
  /** Signature and code, for inclusion checks. */
  key: string;
}

interface NModule {
  id: string;
  version: number;
  friends: number;
  structs: Map<string, NDatatype>;
  enums: Map<string, NDatatype>;
  functions: Map<string, NFunction>;
}

function typeOf(m: CompiledModule, t: SignatureToken): string {
  switch (t.$kind) {
    case 'Vector':
      return `vector<${typeOf(m, t.type)}>`;
    case 'Reference':
      return `&${typeOf(m, t.type)}`;
    case 'MutableReference':
      return `&mut ${typeOf(m, t.type)}`;
    case 'TypeParameter':
      return `T${t.index}`;
    case 'Datatype':
      return datatypeName(m, t.index);
    case 'DatatypeInstantiation':
      return `${datatypeName(m, t.index)}<${t.typeArguments.map((a) => typeOf(m, a)).join(',')}>`;
    default:
      return t.$kind;
  }
}

function datatypeName(m: CompiledModule, handle: number): string {
  const h = m.datatypeHandles[handle];
  const mh = m.moduleHandles[h.module];
  return `${m.addressIdentifiers[mh.address]}::${m.identifiers[mh.name]}::${m.identifiers[h.name]}`;
}

function sig(m: CompiledModule, idx: number): string {
  return (m.signatures[idx] ?? []).map((t) => typeOf(m, t)).join(',');
}

function functionName(m: CompiledModule, handle: number): string {
  const h = m.functionHandles[handle];
  const mh = m.moduleHandles[h.module];
  return `${m.addressIdentifiers[mh.address]}::${m.identifiers[mh.name]}::${m.identifiers[h.name]}`;
}

function fieldRef(m: CompiledModule, handle: number): string {
  const f = m.fieldHandles[handle];
  return `${datatypeName(m, m.structDefs[f.owner].structHandle)}.${f.field}`;
}

function variantRef(m: CompiledModule, enumDef: number, tag: number): string {
  return `${datatypeName(m, m.enumDefs[enumDef].enumHandle)}#${tag}`;
}

/** An instruction with its table indices resolved to names. */
function instruction(m: CompiledModule, b: Bytecode): string {
  if (!('index' in b) && !('value' in b)) return b.$kind;
  if ('value' in b) return `${b.$kind} ${String(b.value)}`;
  const i = b.index;
  switch (b.$kind) {
    case 'LdConst': {
      const c = m.constantPool[i];
      return `LdConst ${typeOf(m, c.type)}:${Buffer.from(c.data).toString('hex')}`;
    }
    case 'MutBorrowField':
    case 'ImmBorrowField':
      return `${b.$kind} ${fieldRef(m, i)}`;
    case 'MutBorrowFieldGeneric':
    case 'ImmBorrowFieldGeneric': {
      const fi = m.fieldInstantiations[i];
      return `${b.$kind} ${fieldRef(m, fi.handle)}<${sig(m, fi.typeParameters)}>`;
    }
    case 'Call':
      return `Call ${functionName(m, i)}`;
    case 'CallGeneric': {
      const fi = m.functionInstantiations[i];
      return `CallGeneric ${functionName(m, fi.handle)}<${sig(m, fi.typeParameters)}>`;
    }
    case 'Pack':
    case 'Unpack':
    case 'ExistsDeprecated':
    case 'MoveFromDeprecated':
    case 'MoveToDeprecated':
    case 'MutBorrowGlobalDeprecated':
    case 'ImmBorrowGlobalDeprecated':
      return `${b.$kind} ${datatypeName(m, m.structDefs[i].structHandle)}`;
    case 'PackGeneric':
    case 'UnpackGeneric':
    case 'ExistsGenericDeprecated':
    case 'MoveFromGenericDeprecated':
    case 'MoveToGenericDeprecated':
    case 'MutBorrowGlobalGenericDeprecated':
    case 'ImmBorrowGlobalGenericDeprecated': {
      const si = m.structDefInstantiations[i];
      return `${b.$kind} ${datatypeName(m, m.structDefs[si.def].structHandle)}<${sig(m, si.typeParameters)}>`;
    }
    case 'PackVariant':
    case 'UnpackVariant':
    case 'UnpackVariantImmRef':
    case 'UnpackVariantMutRef': {
      const v = m.variantHandles[i];
      return `${b.$kind} ${variantRef(m, v.enumDef, v.variant)}`;
    }
    case 'PackVariantGeneric':
    case 'UnpackVariantGeneric':
    case 'UnpackVariantGenericImmRef':
    case 'UnpackVariantGenericMutRef': {
      const v = m.variantInstantiationHandles[i];
      const inst = m.enumDefInstantiations[v.enumDef];
      return `${b.$kind} ${variantRef(m, inst.def, v.variant)}<${sig(m, inst.typeParameters)}>`;
    }
    case 'VecPack':
    case 'VecUnpack':
      return `${b.$kind} ${sig(m, i)} ${String((b as { count: bigint }).count)}`;
    case 'VecLen':
    case 'VecImmBorrow':
    case 'VecMutBorrow':
    case 'VecPushBack':
    case 'VecPopBack':
    case 'VecSwap':
      return `${b.$kind} ${sig(m, i)}`;
    default:
      return `${b.$kind} ${i}`;
  }
}

function fields(m: CompiledModule, fs: readonly { name: number; type: SignatureToken }[]): NField[] {
  return fs.map((f) => ({ name: m.identifiers[f.name], type: typeOf(m, f.type) }));
}

/** A module as names and shapes (upstream `normalized::Module`, code included). */
function normalize(m: CompiledModule): NModule {
  const self = m.moduleHandles[m.selfModuleHandleIndex];
  const structs = new Map<string, NDatatype>();
  for (const d of m.structDefs) {
    const h = m.datatypeHandles[d.structHandle];
    const fs = d.fieldInformation.$kind === 'Declared' ? fields(m, d.fieldInformation.fields) : [];
    const dt = { abilities: h.abilities, typeParams: h.typeParameters, fields: fs, variants: [], key: '' };
    dt.key = JSON.stringify([dt.abilities, dt.typeParams, dt.fields]);
    structs.set(m.identifiers[h.name], dt);
  }
  const enums = new Map<string, NDatatype>();
  for (const d of m.enumDefs) {
    const h = m.datatypeHandles[d.enumHandle];
    const variants = d.variants.map((v) => ({ name: m.identifiers[v.variantName], fields: fields(m, v.fields) }));
    const dt = { abilities: h.abilities, typeParams: h.typeParameters, fields: [], variants, key: '' };
    dt.key = JSON.stringify([dt.abilities, dt.typeParams, dt.variants]);
    enums.set(m.identifiers[h.name], dt);
  }
  const functions = new Map<string, NFunction>();
  for (const d of m.functionDefs) {
    const h = m.functionHandles[d.function];
    const code = d.code === null ? null : d.code.code.map((b) => instruction(m, b));
    const tables = d.code === null ? [] : d.code.jumpTables.map((t) => `${datatypeName(m, m.enumDefs[t.headEnum].enumHandle)}:${t.jumpTable.offsets.join(',')}`);
    const f = { visibility: d.visibility, isEntry: d.isEntry, typeParams: h.typeParameters, params: sig(m, h.parameters), returns: sig(m, h.return), key: '' };
    f.key = JSON.stringify([f.visibility, f.isEntry, f.typeParams, f.params, f.returns, code, tables]);
    functions.set(m.identifiers[h.name], f);
  }
  return { id: `${m.addressIdentifiers[self.address]}::${m.identifiers[self.name]}`, version: m.version, friends: m.friendDecls.length, structs, enums, functions };
}

const subset = (a: number, b: number): boolean => (a & b) === a;

function typeParamsCompatible(old: NDatatype['typeParams'], next: NDatatype['typeParams']): boolean {
  // Datatype layouts are checked: phantoms and constraints may not change.
  return old.length === next.length && old.every((p, i) => p.isPhantom === next[i].isPhantom && p.constraints === next[i].constraints);
}

/** `Compatibility::upgrade_check()` (datatype layout checked, private entry functions free, no new abilities). */
function compatible(old: NModule, next: NModule): boolean {
  if (old.id !== next.id) return false;
  for (const [name, o] of old.structs) {
    const n = next.structs.get(name);
    if (n === undefined) return false;
    if (o.abilities !== n.abilities) return false;
    if (!typeParamsCompatible(o.typeParams, n.typeParams)) return false;
    if (JSON.stringify(o.fields) !== JSON.stringify(n.fields)) return false;
  }
  for (const [name, o] of old.enums) {
    const n = next.enums.get(name);
    if (n === undefined) return false;
    if (o.abilities !== n.abilities) return false;
    if (!typeParamsCompatible(o.typeParams, n.typeParams)) return false;
    if (n.variants.length !== o.variants.length) return false;
    for (let tag = 0; tag < o.variants.length; tag++) {
      if (JSON.stringify(o.variants[tag]) !== JSON.stringify(n.variants[tag])) return false;
    }
  }
  for (const [name, o] of old.functions) {
    if (o.visibility !== 'Public') continue;
    const n = next.functions.get(name);
    if (n === undefined || n.visibility !== 'Public') return false;
    const typeParamsOk = o.typeParams.length === n.typeParams.length && o.typeParams.every((c, i) => subset(n.typeParams[i], c));
    if (o.params !== n.params || o.returns !== n.returns || !typeParamsOk) return false;
  }
  return true;
}

/** `InclusionCheck`: `equal` = nothing added either. */
function included(old: NModule, next: NModule, equal: boolean): boolean {
  if (old.id !== next.id || old.version > next.version) return false;
  const maps: [Map<string, { key: string }>, Map<string, { key: string }>][] = [
    [old.structs, next.structs],
    [old.enums, next.enums],
    [old.functions, next.functions],
  ];
  for (const [o, n] of maps) {
    for (const [name, v] of o) {
      const w = n.get(name);
      if (w === undefined || w.key !== v.key) return false;
    }
    if (equal && n.size !== o.size) return false;
  }
  return !(equal && old.friends !== next.friends);
}

/**
 * Why upgrading `existing` to `upgrading` (both with their original id as self address)
 * breaks `policy`, or `null` when it does not. `policy` must be a known policy.
 */
export function upgradeIncompatibility(existing: readonly CompiledModule[], upgrading: readonly CompiledModule[], policy: number): string | null {
  if (policy === UPGRADE_POLICY.depOnly && existing.length !== upgrading.length) {
    return `Existing package has ${existing.length} modules, but new package has ${upgrading.length}. Adding or removing a module to a deps only package is not allowed.`;
  }
  const next = new Map(upgrading.map((m) => [moduleName(m), m]));
  for (const m of existing) {
    const name = moduleName(m);
    const n = next.get(name);
    if (n === undefined) return `Existing module ${name} not found in next version of package`;
    const a = normalize(m);
    const b = normalize(n);
    const ok = policy === UPGRADE_POLICY.compatible ? compatible(a, b) : included(a, b, policy === UPGRADE_POLICY.depOnly);
    if (!ok) return `module ${name}: BACKWARD_INCOMPATIBLE_MODULE_UPDATE`;
  }
  return null;
}
