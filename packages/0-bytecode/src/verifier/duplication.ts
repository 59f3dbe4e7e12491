/**
 * Duplication checks (`check_duplication.rs`): every table holds distinct entries, definitions
 * point at the module itself, every own handle is defined, structs have fields and enums
 * variants.
 */
import type { CompiledModule, SignatureToken } from '../file-format.js';
import { PartialError, type VerifierIndexKind } from './errors.js';

/** A canonical string for a token, for hashing. */
export function tokenKey(t: SignatureToken): string {
  switch (t.$kind) {
    case 'Vector':
      return `V(${tokenKey(t.type)})`;
    case 'Reference':
      return `R(${tokenKey(t.type)})`;
    case 'MutableReference':
      return `M(${tokenKey(t.type)})`;
    case 'Datatype':
      return `D${t.index}`;
    case 'DatatypeInstantiation':
      return `I${t.index}(${t.typeArguments.map(tokenKey).join(',')})`;
    case 'TypeParameter':
      return `T${t.index}`;
    default:
      return t.$kind;
  }
}

/** Index of the first element equal (by key) to an earlier one, or -1. */
function firstDuplicate<T>(items: readonly T[], key: (t: T) => string | number): number {
  const seen = new Set<string | number>();
  for (let i = 0; i < items.length; i++) {
    const k = key(items[i]);
    if (seen.has(k)) return i;
    seen.add(k);
  }
  return -1;
}

function check<T>(items: readonly T[], kind: VerifierIndexKind, key: (t: T) => string | number): void {
  const i = firstDuplicate(items, key);
  if (i >= 0) throw new PartialError('DUPLICATE_ELEMENT').atIndex(kind, i);
}

const pair = (a: number, b: number): string => `${a}:${b}`;

function hex(data: Uint8Array): string {
  let s = '';
  for (const b of data) s += b.toString(16).padStart(2, '0');
  return s;
}

function checkFunctionDefinitions(m: CompiledModule): void {
  check(m.functionDefs, 'FunctionDefinition', (d) => d.function);
  m.functionDefs.forEach((d, idx) => {
    if (firstDuplicate(d.acquiresGlobalResources, (x) => x) >= 0) {
      throw new PartialError('DUPLICATE_ACQUIRES_ANNOTATION').atIndex('FunctionDefinition', idx);
    }
  });
  const bad = m.functionDefs.findIndex((d) => m.functionHandles[d.function].module !== m.selfModuleHandleIndex);
  if (bad >= 0) throw new PartialError('INVALID_MODULE_HANDLE').atIndex('FunctionDefinition', bad);
  const defined = new Set(m.functionDefs.map((d) => d.function));
  const missing = m.functionHandles.findIndex((h, i) => h.module === m.selfModuleHandleIndex && !defined.has(i));
  if (missing >= 0) throw new PartialError('UNIMPLEMENTED_HANDLE').atIndex('FunctionHandle', missing);
}

function checkStructDefinitions(m: CompiledModule): void {
  check(m.structDefs, 'StructDefinition', (d) => d.structHandle);
  m.structDefs.forEach((d, idx) => {
    if (d.fieldInformation.$kind === 'Native') return;
    const fields = d.fieldInformation.fields;
    if (fields.length === 0) throw new PartialError('ZERO_SIZED_STRUCT').atIndex('StructDefinition', idx);
    check(fields, 'FieldDefinition', (f) => f.name);
  });
  const bad = m.structDefs.findIndex((d) => m.datatypeHandles[d.structHandle].module !== m.selfModuleHandleIndex);
  if (bad >= 0) throw new PartialError('INVALID_MODULE_HANDLE').atIndex('StructDefinition', bad);
}

function checkEnumDefinitions(m: CompiledModule): void {
  const handles = [...m.structDefs.map((d) => d.structHandle), ...m.enumDefs.map((d) => d.enumHandle)];
  check(handles, 'EnumDefinition', (h) => h);
  m.enumDefs.forEach((e, enumIdx) => {
    if (e.variants.length === 0) throw new PartialError('ZERO_SIZED_ENUM').atIndex('EnumDefinition', enumIdx);
    const dupVariant = firstDuplicate(e.variants, (v) => v.variantName);
    if (dupVariant >= 0) {
      throw new PartialError('DUPLICATE_ELEMENT').atIndex('EnumDefinition', enumIdx).atIndex('VariantTag', dupVariant);
    }
    e.variants.forEach((v, tag) => {
      const dupField = firstDuplicate(v.fields, (f) => f.name);
      if (dupField >= 0) {
        throw new PartialError('DUPLICATE_ELEMENT').atIndex('FieldDefinition', dupField).atIndex('VariantTag', tag).atIndex('EnumDefinition', enumIdx);
      }
    });
  });
  const bad = m.enumDefs.findIndex((d) => m.datatypeHandles[d.enumHandle].module !== m.selfModuleHandleIndex);
  if (bad >= 0) throw new PartialError('INVALID_MODULE_HANDLE').atIndex('EnumDefinition', bad);
}

function checkDatatypeHandlesImplemented(m: CompiledModule): void {
  const defined = new Set<number>([...m.structDefs.map((d) => d.structHandle), ...m.enumDefs.map((d) => d.enumHandle)]);
  const missing = m.datatypeHandles.findIndex((h, i) => h.module === m.selfModuleHandleIndex && !defined.has(i));
  if (missing >= 0) throw new PartialError('UNIMPLEMENTED_HANDLE').atIndex('DatatypeHandle', missing);
}

/** The duplication pass, in upstream's order. Throws {@link PartialError}. */
export function verifyDuplication(m: CompiledModule): void {
  check(m.identifiers, 'Identifier', (s) => s);
  check(m.addressIdentifiers, 'AddressIdentifier', (s) => s);
  check(m.constantPool, 'ConstantPool', (c) => `${tokenKey(c.type)}|${hex(c.data)}`);
  check(m.signatures, 'Signature', (s) => s.map(tokenKey).join(';'));
  check(m.moduleHandles, 'ModuleHandle', (h) => pair(h.address, h.name));
  check(m.friendDecls, 'ModuleHandle', (h) => pair(h.address, h.name));
  check(m.datatypeHandles, 'DatatypeHandle', (h) => pair(h.module, h.name));
  check(m.functionHandles, 'FunctionHandle', (h) => pair(h.module, h.name));
  check(m.functionInstantiations, 'FunctionInstantiation', (i) => pair(i.handle, i.typeParameters));
  check(m.variantHandles, 'VariantHandle', (h) => pair(h.enumDef, h.variant));
  check(m.fieldHandles, 'FieldHandle', (h) => pair(h.owner, h.field));
  check(m.fieldInstantiations, 'FieldInstantiation', (i) => pair(i.handle, i.typeParameters));
  checkFunctionDefinitions(m);
  checkStructDefinitions(m);
  check(m.structDefInstantiations, 'StructDefInstantiation', (i) => pair(i.def, i.typeParameters));
  checkEnumDefinitions(m);
  check(m.enumDefInstantiations, 'EnumDefInstantiation', (i) => pair(i.def, i.typeParameters));
  checkDatatypeHandlesImplemented(m);
}
