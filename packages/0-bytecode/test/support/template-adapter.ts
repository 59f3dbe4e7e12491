/**
 * Test-only bridge from `@mysten/move-bytecode-template` (the upstream Rust binary format
 * compiled to WASM) to our {@link CompiledModule} model.
 *
 * `fromTemplate(bytes)` runs the template's deserializer and converts its JSON into exactly
 * the shape our own deserializer produces, so a differential test can assert
 * `expect(deserializeModule(bytes)).toEqual(fromTemplate(bytes))`.
 * `toTemplateJson(module)` goes the other way, so tests can hand-assemble modules and let
 * the template serialize them.
 *
 * Shape of the template JSON (serde's default externally tagged enums, snake_case keys):
 * - operand-free signature tokens and instructions are bare strings (`"U64"`, `"Ret"`),
 *   the others one-key objects (`{ Vector: T }`, `{ DatatypeInstantiation: [idx, [T..]] }`,
 *   `{ MoveLoc: 0 }`, `{ VecPack: [sig, 3n] }`);
 * - `LdU64`, `LdU128` and vector counts are bigints, `LdU256` is 32 little-endian bytes;
 * - ability sets are bit masks, addresses 64 hex digits without `0x`;
 * - the version is unflavored and an unpublishable magic (`0xDEADC0DE`) is rejected, so we
 *   patch the magic before handing the bytes over and record `publishable: false`.
 */
import { deserialize, serialize } from '@mysten/move-bytecode-template';
import type {
  AbilitySet,
  Bytecode,
  BytecodeKind,
  CompiledModule,
  FieldDefinition,
  IndexedBytecodeKind,
  PrimitiveTokenKind,
  SignatureToken,
  SimpleBytecodeKind,
  StructFieldInformation,
  Visibility,
} from '../../src/file-format.js';
import { MOVE_MAGIC, OPCODE, PRIMITIVE_TOKEN, SIMPLE_INSTRUCTION, UNPUBLISHABLE_MAGIC, isSimpleKind } from '../../src/opcodes.js';

// ---------------------------------------------------------------------------------------
// Template JSON types
// ---------------------------------------------------------------------------------------

/** A signature token as the template writes it. */
export type TemplateToken =
  | PrimitiveTokenKind
  | { Vector: TemplateToken }
  | { Datatype: number }
  | { DatatypeInstantiation: [number, TemplateToken[]] }
  | { Reference: TemplateToken }
  | { MutableReference: TemplateToken }
  | { TypeParameter: number };

/** An instruction as the template writes it. */
export type TemplateInstruction =
  | SimpleBytecodeKind
  | { [K in IndexedBytecodeKind]?: number }
  | { LdU8: number }
  | { LdU16: number }
  | { LdU32: number }
  | { LdU64: bigint }
  | { LdU128: bigint }
  | { LdU256: number[] }
  | { VecPack: [number, bigint] }
  | { VecUnpack: [number, bigint] };

export interface TemplateFieldDefinition {
  name: number;
  signature: TemplateToken;
}

export interface TemplateCodeUnit {
  locals: number;
  code: TemplateInstruction[];
  jump_tables: { head_enum: number; jump_table: { Full: number[] } }[];
}

/** The whole template JSON of one module. */
export interface TemplateModule {
  version: number;
  self_module_handle_idx: number;
  module_handles: { address: number; name: number }[];
  datatype_handles: {
    module: number;
    name: number;
    abilities: number;
    type_parameters: { constraints: number; is_phantom: boolean }[];
  }[];
  function_handles: {
    module: number;
    name: number;
    parameters: number;
    return_: number;
    type_parameters: number[];
  }[];
  field_handles: { owner: number; field: number }[];
  friend_decls: { address: number; name: number }[];
  struct_def_instantiations: { def: number; type_parameters: number }[];
  function_instantiations: { handle: number; type_parameters: number }[];
  field_instantiations: { handle: number; type_parameters: number }[];
  signatures: TemplateToken[][];
  identifiers: string[];
  address_identifiers: string[];
  constant_pool: { type_: TemplateToken; data: number[] }[];
  metadata: { key: number[]; value: number[] }[];
  struct_defs: { struct_handle: number; field_information: 'Native' | { Declared: TemplateFieldDefinition[] } }[];
  function_defs: {
    function: number;
    visibility: Visibility;
    is_entry: boolean;
    acquires_global_resources: number[];
    code?: TemplateCodeUnit | null;
  }[];
  enum_defs: { enum_handle: number; variants: { variant_name: number; fields: TemplateFieldDefinition[] }[] }[];
  enum_def_instantiations: { def: number; type_parameters: number }[];
  variant_handles: { enum_def: number; variant: number }[];
  variant_instantiation_handles: { enum_def: number; variant: number }[];
}

// ---------------------------------------------------------------------------------------
// Template JSON -> CompiledModule
// ---------------------------------------------------------------------------------------

function oneKey(value: object, what: string): [string, unknown] {
  const keys = Object.keys(value);
  if (keys.length !== 1) throw new Error(`template ${what}: expected one key, got ${JSON.stringify(keys)}`);
  return [keys[0], (value as Record<string, unknown>)[keys[0]]];
}

function num(value: unknown, what: string): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'bigint') return Number(value);
  throw new Error(`template ${what}: expected an integer, got ${String(value)}`);
}

function big(value: unknown, what: string): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  throw new Error(`template ${what}: expected an integer, got ${String(value)}`);
}

function isPrimitiveKind(s: string): s is PrimitiveTokenKind {
  return Object.hasOwn(PRIMITIVE_TOKEN, s);
}

/** Convert one template signature token. */
export function tokenFromTemplate(t: TemplateToken): SignatureToken {
  if (typeof t === 'string') {
    if (!isPrimitiveKind(t)) throw new Error(`template token: unknown primitive ${t}`);
    return PRIMITIVE_TOKEN[t];
  }
  const [kind, v] = oneKey(t, 'token');
  switch (kind) {
    case 'Vector':
      return { $kind: 'Vector', type: tokenFromTemplate(v as TemplateToken) };
    case 'Reference':
      return { $kind: 'Reference', type: tokenFromTemplate(v as TemplateToken) };
    case 'MutableReference':
      return { $kind: 'MutableReference', type: tokenFromTemplate(v as TemplateToken) };
    case 'Datatype':
      return { $kind: 'Datatype', index: num(v, 'Datatype') };
    case 'TypeParameter':
      return { $kind: 'TypeParameter', index: num(v, 'TypeParameter') };
    case 'DatatypeInstantiation': {
      const [index, args] = v as [number, TemplateToken[]];
      return { $kind: 'DatatypeInstantiation', index: num(index, kind), typeArguments: args.map(tokenFromTemplate) };
    }
    default:
      throw new Error(`template token: unknown kind ${kind}`);
  }
}

function isKind(s: string): s is BytecodeKind {
  return Object.hasOwn(OPCODE, s);
}

/** Little-endian byte array to an unsigned bigint. */
function leBytesToBigInt(bytes: readonly number[]): bigint {
  let v = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[i]);
  return v;
}

/** Convert one template instruction. */
export function instructionFromTemplate(i: TemplateInstruction): Bytecode {
  if (typeof i === 'string') {
    if (!isKind(i) || !isSimpleKind(i)) throw new Error(`template instruction: unknown simple instruction ${i}`);
    return SIMPLE_INSTRUCTION[i];
  }
  const [kind, v] = oneKey(i, 'instruction');
  if (!isKind(kind) || isSimpleKind(kind)) throw new Error(`template instruction: unknown instruction ${kind}`);
  switch (kind) {
    case 'LdU8':
    case 'LdU16':
    case 'LdU32':
      return { $kind: kind, value: num(v, kind) };
    case 'LdU64':
    case 'LdU128':
      return { $kind: kind, value: big(v, kind) };
    case 'LdU256':
      if (!Array.isArray(v) || v.length !== 32) throw new Error('template LdU256: expected 32 bytes');
      return { $kind: kind, value: leBytesToBigInt(v as number[]) };
    case 'VecPack':
    case 'VecUnpack': {
      const [index, count] = v as [number, bigint];
      return { $kind: kind, index: num(index, kind), count: big(count, kind) };
    }
    default:
      return { $kind: kind, index: num(v, kind) };
  }
}

function bytes(a: readonly number[]): Uint8Array {
  return Uint8Array.from(a);
}

function fieldsFromTemplate(fields: TemplateFieldDefinition[]): FieldDefinition[] {
  return fields.map((f) => ({ name: f.name, type: tokenFromTemplate(f.signature) }));
}

function fieldInfoFromTemplate(info: 'Native' | { Declared: TemplateFieldDefinition[] }): StructFieldInformation {
  if (info === 'Native') return { $kind: 'Native' };
  return { $kind: 'Declared', fields: fieldsFromTemplate(info.Declared) };
}

function address(hex: string): string {
  const h = hex.toLowerCase().replace(/^0x/, '');
  if (!/^[0-9a-f]{64}$/.test(h)) throw new Error(`template address: unexpected ${hex}`);
  return '0x' + h;
}

/** Convert the template JSON of one module into our model. */
export function moduleFromTemplateJson(j: TemplateModule, publishable = true): CompiledModule {
  return {
    version: j.version,
    publishable,
    selfModuleHandleIndex: j.self_module_handle_idx,
    moduleHandles: j.module_handles.map((h) => ({ address: h.address, name: h.name })),
    datatypeHandles: j.datatype_handles.map((h) => ({
      module: h.module,
      name: h.name,
      abilities: h.abilities,
      typeParameters: h.type_parameters.map((p) => ({ constraints: p.constraints, isPhantom: p.is_phantom })),
    })),
    functionHandles: j.function_handles.map((h) => ({
      module: h.module,
      name: h.name,
      parameters: h.parameters,
      return: h.return_,
      typeParameters: [...h.type_parameters],
    })),
    fieldHandles: j.field_handles.map((h) => ({ owner: h.owner, field: h.field })),
    friendDecls: j.friend_decls.map((h) => ({ address: h.address, name: h.name })),
    structDefInstantiations: j.struct_def_instantiations.map((x) => ({ def: x.def, typeParameters: x.type_parameters })),
    functionInstantiations: j.function_instantiations.map((x) => ({ handle: x.handle, typeParameters: x.type_parameters })),
    fieldInstantiations: j.field_instantiations.map((x) => ({ handle: x.handle, typeParameters: x.type_parameters })),
    signatures: j.signatures.map((s) => s.map(tokenFromTemplate)),
    identifiers: [...j.identifiers],
    addressIdentifiers: j.address_identifiers.map(address),
    constantPool: j.constant_pool.map((c) => ({ type: tokenFromTemplate(c.type_), data: bytes(c.data) })),
    metadata: j.metadata.map((m) => ({ key: bytes(m.key), value: bytes(m.value) })),
    structDefs: j.struct_defs.map((d) => ({
      structHandle: d.struct_handle,
      fieldInformation: fieldInfoFromTemplate(d.field_information),
    })),
    functionDefs: j.function_defs.map((d) => ({
      function: d.function,
      visibility: d.visibility,
      isEntry: d.is_entry,
      acquiresGlobalResources: [...d.acquires_global_resources],
      code:
        d.code == null
          ? null
          : {
              locals: d.code.locals,
              code: d.code.code.map(instructionFromTemplate),
              jumpTables: d.code.jump_tables.map((t) => ({
                headEnum: t.head_enum,
                jumpTable: { $kind: 'Full' as const, offsets: [...t.jump_table.Full] },
              })),
            },
    })),
    enumDefs: j.enum_defs.map((e) => ({
      enumHandle: e.enum_handle,
      variants: e.variants.map((v) => ({ variantName: v.variant_name, fields: fieldsFromTemplate(v.fields) })),
    })),
    enumDefInstantiations: j.enum_def_instantiations.map((x) => ({ def: x.def, typeParameters: x.type_parameters })),
    variantHandles: j.variant_handles.map((h) => ({ enumDef: h.enum_def, variant: h.variant })),
    variantInstantiationHandles: j.variant_instantiation_handles.map((h) => ({ enumDef: h.enum_def, variant: h.variant })),
  };
}

function readMagic(b: Uint8Array): number {
  return b.length < 4 ? -1 : ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
}

/** The template's raw JSON for a module (unpublishable magic patched to the normal one). */
export function templateJson(moduleBytes: Uint8Array): TemplateModule {
  let input = moduleBytes;
  if (readMagic(moduleBytes) === UNPUBLISHABLE_MAGIC) {
    input = Uint8Array.from(moduleBytes);
    input.set([MOVE_MAGIC >>> 24, (MOVE_MAGIC >>> 16) & 0xff, (MOVE_MAGIC >>> 8) & 0xff, MOVE_MAGIC & 0xff], 0);
  }
  return deserialize(input) as TemplateModule;
}

/**
 * Deserialize module bytes with the reference implementation and convert the result to
 * our {@link CompiledModule}. Throws whatever the template throws for malformed input.
 */
export function fromTemplate(moduleBytes: Uint8Array): CompiledModule {
  return moduleFromTemplateJson(templateJson(moduleBytes), readMagic(moduleBytes) !== UNPUBLISHABLE_MAGIC);
}

// ---------------------------------------------------------------------------------------
// CompiledModule -> template JSON (for assembling test modules)
// ---------------------------------------------------------------------------------------

/** Convert one of our signature tokens to the template's shape. */
export function tokenToTemplate(t: SignatureToken): TemplateToken {
  switch (t.$kind) {
    case 'Vector':
      return { Vector: tokenToTemplate(t.type) };
    case 'Reference':
      return { Reference: tokenToTemplate(t.type) };
    case 'MutableReference':
      return { MutableReference: tokenToTemplate(t.type) };
    case 'Datatype':
      return { Datatype: t.index };
    case 'TypeParameter':
      return { TypeParameter: t.index };
    case 'DatatypeInstantiation':
      return { DatatypeInstantiation: [t.index, t.typeArguments.map(tokenToTemplate)] };
    default:
      return t.$kind;
  }
}

function instructionToTemplate(i: Bytecode): TemplateInstruction {
  if (isSimpleKind(i.$kind)) return i.$kind as SimpleBytecodeKind;
  if ('count' in i) return { [i.$kind]: [i.index, i.count] } as TemplateInstruction;
  if ('value' in i) {
    if (i.$kind === 'LdU256') {
      const out: number[] = [];
      let v = i.value as bigint;
      for (let k = 0; k < 32; k++) {
        out.push(Number(v & 0xffn));
        v >>= 8n;
      }
      return { LdU256: out };
    }
    return { [i.$kind]: i.value } as TemplateInstruction;
  }
  if ('index' in i) return { [i.$kind]: i.index } as TemplateInstruction;
  throw new Error(`cannot convert instruction ${i.$kind}`);
}

const strip0x = (a: string): string => a.replace(/^0x/, '');

/** Convert our model to the template's JSON (the inverse of {@link moduleFromTemplateJson}). */
export function toTemplateJson(m: CompiledModule): TemplateModule {
  const fields = (fs: FieldDefinition[]): TemplateFieldDefinition[] => fs.map((f) => ({ name: f.name, signature: tokenToTemplate(f.type) }));
  return {
    version: m.version,
    self_module_handle_idx: m.selfModuleHandleIndex,
    module_handles: m.moduleHandles.map((h) => ({ ...h })),
    datatype_handles: m.datatypeHandles.map((h) => ({
      module: h.module,
      name: h.name,
      abilities: h.abilities,
      type_parameters: h.typeParameters.map((p) => ({ constraints: p.constraints, is_phantom: p.isPhantom })),
    })),
    function_handles: m.functionHandles.map((h) => ({
      module: h.module,
      name: h.name,
      parameters: h.parameters,
      return_: h.return,
      type_parameters: [...h.typeParameters],
    })),
    field_handles: m.fieldHandles.map((h) => ({ ...h })),
    friend_decls: m.friendDecls.map((h) => ({ ...h })),
    struct_def_instantiations: m.structDefInstantiations.map((x) => ({ def: x.def, type_parameters: x.typeParameters })),
    function_instantiations: m.functionInstantiations.map((x) => ({ handle: x.handle, type_parameters: x.typeParameters })),
    field_instantiations: m.fieldInstantiations.map((x) => ({ handle: x.handle, type_parameters: x.typeParameters })),
    signatures: m.signatures.map((s) => s.map(tokenToTemplate)),
    identifiers: [...m.identifiers],
    address_identifiers: m.addressIdentifiers.map(strip0x),
    constant_pool: m.constantPool.map((c) => ({ type_: tokenToTemplate(c.type), data: [...c.data] })),
    metadata: m.metadata.map((x) => ({ key: [...x.key], value: [...x.value] })),
    struct_defs: m.structDefs.map((d) => ({
      struct_handle: d.structHandle,
      field_information: d.fieldInformation.$kind === 'Native' ? 'Native' : { Declared: fields(d.fieldInformation.fields) },
    })),
    function_defs: m.functionDefs.map((d) => ({
      function: d.function,
      visibility: d.visibility,
      is_entry: d.isEntry,
      acquires_global_resources: [...d.acquiresGlobalResources],
      code:
        d.code === null
          ? null
          : {
              locals: d.code.locals,
              code: d.code.code.map(instructionToTemplate),
              jump_tables: d.code.jumpTables.map((t) => ({ head_enum: t.headEnum, jump_table: { Full: [...t.jumpTable.offsets] } })),
            },
    })),
    enum_defs: m.enumDefs.map((e) => ({
      enum_handle: e.enumHandle,
      variants: e.variants.map((v) => ({ variant_name: v.variantName, fields: fields(v.fields) })),
    })),
    enum_def_instantiations: m.enumDefInstantiations.map((x) => ({ def: x.def, type_parameters: x.typeParameters })),
    variant_handles: m.variantHandles.map((h) => ({ enum_def: h.enumDef, variant: h.variant })),
    variant_instantiation_handles: m.variantInstantiationHandles.map((h) => ({ enum_def: h.enumDef, variant: h.variant })),
  };
}

/** Serialize our model with the reference serializer (publishable magic only). */
export function serializeWithTemplate(m: CompiledModule): Uint8Array {
  return serialize(toTemplateJson(m));
}

/** Ability mask helper for hand-written test modules. */
export function abilities(...names: ('copy' | 'drop' | 'store' | 'key')[]): AbilitySet {
  const bit = { copy: 0x1, drop: 0x2, store: 0x4, key: 0x8 } as const;
  return names.reduce((acc, n) => acc | bit[n], 0);
}
