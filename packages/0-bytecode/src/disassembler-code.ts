/**
 * Rendering helpers of the disassembler (see `disassembler.ts`): types, constants,
 * basic blocks and instructions, in the text format of the upstream Move disassembler
 * (`move-disassembler/src/disassembler.rs`).
 *
 * Internal module: the public entry points are `disassembleModule` and
 * `disassembleFunction`. Out-of-range indices never throw here; like upstream they
 * render as `ERROR[...]` text so that a damaged module still prints.
 */
import type { Bytecode, CodeUnit, CompiledModule, Constant, SignatureToken } from './file-format.js';
import { abilityNames, canonicalAddress, renderToken } from './module-access.js';

/** Display names of one function's type parameters, parameters and locals. */
export interface FunctionNames {
  readonly typeParameters: readonly string[];
  readonly parameters: readonly string[];
  readonly locals: readonly string[];
}

/** What every renderer needs: the module and the aliases of its imported modules. */
export interface RenderContext {
  readonly m: CompiledModule;
  /** `address::name` of the module itself. */
  readonly selfKey: string;
  /** Alias of imported modules whose name is shared by another handle, keyed by `address::name`. */
  readonly aliases: ReadonlyMap<string, string>;
}

/** `address::name` key of a module handle (address as stored: `0x` + 64 hex). */
export function moduleKey(m: CompiledModule, handleIndex: number): string {
  const h = m.moduleHandles[handleIndex];
  if (h === undefined) return `ERROR::ERROR[Bad module handle index ${handleIndex}]`;
  return `${m.addressIdentifiers[h.address]}::${m.identifiers[h.name]}`;
}

/**
 * Aliases for modules that share a name with another handle, exactly as upstream numbers
 * them: counting starts with the module itself, so the first clash of a name gets
 * `0name` (or `1name` when it clashes with the module's own name).
 */
export function moduleAliases(m: CompiledModule): Map<string, string> {
  const counts = new Map<string, number>();
  const aliases = new Map<string, string>();
  const self = m.moduleHandles[m.selfModuleHandleIndex];
  if (self !== undefined) counts.set(m.identifiers[self.name], 0);
  m.moduleHandles.forEach((h, i) => {
    const name = m.identifiers[h.name];
    const count = counts.get(name);
    if (count === undefined) {
      counts.set(name, 0);
    } else {
      aliases.set(moduleKey(m, i), `${count}${name}`);
      counts.set(name, count + 1);
    }
  });
  return aliases;
}

/** `: copy + drop` style constraint list (empty for no abilities). */
export function formatConstraints(set: number): string {
  const names = abilityNames(set);
  return names.length === 0 ? '' : `: ${names.join(' + ')}`;
}

// ---------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------

function datatypeNameAt(m: CompiledModule, index: number): string {
  const h = m.datatypeHandles[index];
  return h === undefined ? `ERROR[Bad datatype handle index ${index}]` : m.identifiers[h.name];
}

/**
 * Render a type as upstream does: datatypes by bare name, type parameters by name from
 * `names`, or substituted from `instantiation` when given (the substituted type is then
 * rendered with `names`).
 */
export function renderType(m: CompiledModule, token: SignatureToken, names: readonly string[], instantiation?: readonly SignatureToken[]): string {
  const go = (t: SignatureToken): string =>
    renderToken(t, {
      datatype: (index, args) => `${datatypeNameAt(m, index)}${typeList(args)}`,
      typeParameter: (index) => {
        const sub = instantiation === undefined ? names[index] : instantiation[index];
        if (sub === undefined) {
          return `ERROR[Type parameter index ${index} out of bounds while disassembling type signature]`;
        }
        return typeof sub === 'string' ? sub : renderType(m, sub, names);
      },
    });
  return go(token);
}

/** `<A, B>`, or nothing for an empty list. */
export function typeList(items: readonly string[]): string {
  return items.length === 0 ? '' : `<${items.join(', ')}>`;
}

/** `: A * B` return list, or nothing for no return values. */
export function returnList(items: readonly string[]): string {
  return items.length === 0 ? '' : `: ${items.join(' * ')}`;
}

// ---------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------

const PREVIEW_LEN = 4;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Encoder = new TextEncoder();

function hex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/** Little-endian unsigned integer of exactly `width` bytes, or `null`. */
function leUint(data: Uint8Array, width: number): bigint | null {
  if (data.length !== width) return null;
  let v = 0n;
  for (let i = width - 1; i >= 0; i--) v = (v << 8n) | BigInt(data[i]);
  return v;
}

/** A BCS `vector<u8>` (canonical ULEB128 length, nothing after), or `null`. */
function bcsBytes(data: Uint8Array): Uint8Array | null {
  let len = 0;
  let shift = 0;
  let pos = 0;
  for (;;) {
    if (pos >= data.length || shift > 28) return null;
    const byte = data[pos++];
    len += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) {
      if (byte === 0 && pos > 1) return null; // non-canonical encoding
      break;
    }
    shift += 7;
  }
  if (len > 0x7fffffff || pos + len !== data.length) return null;
  return data.subarray(pos);
}

/**
 * A constant's value as upstream `try_render_constant` shows it: numbers and booleans as
 * values, addresses as `0x` + 64 hex, `vector<u8>` holding UTF-8 as a quoted string with a
 * comment, anything else (or anything malformed) as the hex of its BCS bytes.
 */
export function renderConstantValue(c: Constant): string {
  const { data } = c;
  const fallback = hex(data);
  const t = c.type;
  const widths: Partial<Record<SignatureToken['$kind'], number>> = {
    U8: 1,
    U16: 2,
    U32: 4,
    U64: 8,
    U128: 16,
    U256: 32,
  };
  const width = widths[t.$kind];
  if (width !== undefined) return leUint(data, width)?.toString() ?? fallback;
  switch (t.$kind) {
    case 'Bool':
      return data.length === 1 && data[0] <= 1 ? String(data[0] === 1) : fallback;
    case 'Address':
      return data.length === 32 ? canonicalAddress(hex(data)) : fallback;
    case 'Vector': {
      if (t.type.$kind !== 'U8') return fallback;
      const bytes = bcsBytes(data);
      if (bytes === null) return fallback;
      try {
        return `"${utf8.decode(bytes)}" // interpreted as UTF8 string`;
      } catch {
        return fallback;
      }
    }
    default:
      return fallback;
  }
}

/** Upstream's inline preview: at most 6 bytes kept, else the first 4 characters and `..`. */
function previewString(s: string): string {
  if (utf8Encoder.encode(s).length <= PREVIEW_LEN + 2) return s;
  return Array.from(s).slice(0, PREVIEW_LEN).join('') + '..';
}

/** `type: value` of constant `index` (inline form, value shortened), as in `LdConst[i](...)`. */
function renderConstantInline(m: CompiledModule, index: number): string {
  const c = m.constantPool[index];
  if (c === undefined) return `ERROR[Bad constant index ${index}]`;
  return `${renderType(m, c.type, [])}: ${previewString(renderConstantValue(c))}`;
}

// ---------------------------------------------------------------------------------------
// Basic blocks
// ---------------------------------------------------------------------------------------

const UNCONDITIONAL: ReadonlySet<string> = new Set(['Ret', 'Abort', 'Branch', 'VariantSwitch']);
const CONDITIONAL: ReadonlySet<string> = new Set(['BrTrue', 'BrFalse']);

/** Jump targets of one instruction (branch offsets, or every offset of a switch's jump table). */
function jumpTargets(instr: Bytecode, code: CodeUnit): readonly number[] {
  if (!('index' in instr)) return [];
  switch (instr.$kind) {
    case 'BrTrue':
    case 'BrFalse':
    case 'Branch':
      return [instr.index];
    case 'VariantSwitch':
      return code.jumpTables[instr.index]?.jumpTable.offsets ?? [];
    default:
      return [];
  }
}

/**
 * Block number of every code offset that starts a basic block, numbered in code order as
 * upstream's `VMControlFlowGraph` does: offset 0, every jump target, and every offset
 * that follows a branching instruction (`Ret`, `Abort`, branches, `VariantSwitch`).
 */
export function basicBlockStarts(code: CodeUnit): Map<number, number> {
  const len = code.code.length;
  const starts = new Set<number>([0]);
  code.code.forEach((instr, pc) => {
    for (const target of jumpTargets(instr, code)) starts.add(target);
    if ((UNCONDITIONAL.has(instr.$kind) || CONDITIONAL.has(instr.$kind)) && pc + 1 < len) starts.add(pc + 1);
  });
  const sorted = [...starts].filter((pc) => pc >= 0 && pc < len).sort((a, b) => a - b);
  return new Map(sorted.map((pc, block) => [pc, block]));
}

// ---------------------------------------------------------------------------------------
// Instructions
// ---------------------------------------------------------------------------------------

/** What instruction rendering needs about the enclosing function. */
export interface FunctionFrame {
  readonly names: FunctionNames;
  readonly parameterTypes: readonly SignatureToken[];
  readonly localTypes: readonly SignatureToken[];
}

/** Debug names of the deprecated global-storage instructions and their index types. */
const DEPRECATED: Readonly<Record<string, readonly [string, string]>> = {
  ExistsDeprecated: ['Exists', 'StructDefinitionIndex'],
  ExistsGenericDeprecated: ['ExistsGeneric', 'StructDefInstantiationIndex'],
  MoveFromDeprecated: ['MoveFrom', 'StructDefinitionIndex'],
  MoveFromGenericDeprecated: ['MoveFromGeneric', 'StructDefInstantiationIndex'],
  MoveToDeprecated: ['MoveTo', 'StructDefinitionIndex'],
  MoveToGenericDeprecated: ['MoveToGeneric', 'StructDefInstantiationIndex'],
  MutBorrowGlobalDeprecated: ['MutBorrowGlobal', 'StructDefinitionIndex'],
  MutBorrowGlobalGenericDeprecated: ['MutBorrowGlobalGeneric', 'StructDefInstantiationIndex'],
  ImmBorrowGlobalDeprecated: ['ImmBorrowGlobal', 'StructDefinitionIndex'],
  ImmBorrowGlobalGenericDeprecated: ['ImmBorrowGlobalGeneric', 'StructDefInstantiationIndex'],
};

/** Enum instructions print their operand as a typed index, like Rust's `Debug`. */
const TYPED_INDEX: Readonly<Record<string, string>> = {
  PackVariant: 'VariantHandleIndex',
  UnpackVariant: 'VariantHandleIndex',
  UnpackVariantImmRef: 'VariantHandleIndex',
  UnpackVariantMutRef: 'VariantHandleIndex',
  PackVariantGeneric: 'VariantInstantiationHandleIndex',
  UnpackVariantGeneric: 'VariantInstantiationHandleIndex',
  UnpackVariantGenericImmRef: 'VariantInstantiationHandleIndex',
  UnpackVariantGenericMutRef: 'VariantInstantiationHandleIndex',
  VariantSwitch: 'VariantJumpTableIndex',
};

function localName(frame: FunctionFrame, index: number): string {
  const { parameters, locals } = frame.names;
  const name = index < parameters.length ? parameters[index] : locals[index - parameters.length];
  return name ?? `ERROR[Unable to get local name at index ${index} while disassembling location-based instruction]`;
}

function localType(m: CompiledModule, frame: FunctionFrame, index: number): string {
  const { parameterTypes, localTypes } = frame;
  const t = index < parameterTypes.length ? parameterTypes[index] : localTypes[index - parameterTypes.length];
  if (t === undefined) return `ERROR[Unable to get type for parameter or local at index ${index}]`;
  return renderType(m, t, frame.names.typeParameters);
}

/** `Struct.field: type` of a field handle, the type instantiated when `instantiation` is given. */
function fieldAccess(m: CompiledModule, frame: FunctionFrame, handleIndex: number, instantiation?: readonly SignatureToken[]): string {
  const handle = m.fieldHandles[handleIndex];
  const def = handle === undefined ? undefined : m.structDefs[handle.owner];
  if (handle === undefined || def === undefined) return `ERROR[Bad field handle index ${handleIndex}]`;
  if (def.fieldInformation.$kind === 'Native') {
    // Upstream prints both the access and the type error.
    const error = 'ERROR[Attempt to access field on a native struct';
    return `${error} ${handleIndex}]: ${error}]`;
  }
  const field = def.fieldInformation.fields[handle.field];
  if (field === undefined) return `ERROR[Bad field index ${handle.field}]: ERROR[Bad field index ${handle.field}]`;
  const owner = datatypeNameAt(m, def.structHandle);
  const type = renderType(m, field.type, frame.names.typeParameters, instantiation);
  return `${owner}.${m.identifiers[field.name]}: ${type}`;
}

/** `Name` or `Name<T, U>` of a struct definition applied to type arguments. */
function structCall(m: CompiledModule, frame: FunctionFrame, defIndex: number, typeArgs: readonly SignatureToken[]): string {
  const def = m.structDefs[defIndex];
  if (def === undefined) return `ERROR[Bad struct definition index ${defIndex}]`;
  const args = typeArgs.map((t) => renderType(m, t, frame.names.typeParameters));
  return datatypeNameAt(m, def.structHandle) + typeList(args);
}

/** `f`, `module::f` or `alias::f`, then type arguments, parameter and return types. */
function callTarget(ctx: RenderContext, frame: FunctionFrame, handleIndex: number, typeArgs?: readonly SignatureToken[]): string {
  const { m } = ctx;
  const fh = m.functionHandles[handleIndex];
  if (fh === undefined) return `ERROR[Bad function handle index ${handleIndex}]`;
  const key = moduleKey(m, fh.module);
  const name = m.identifiers[fh.name];
  const qualified = key === ctx.selfKey ? name : `${ctx.aliases.get(key) ?? key.slice(key.indexOf('::') + 2)}::${name}`;
  // Non-generic calls render their signature without a type-parameter context, like upstream.
  const tp = typeArgs === undefined ? [] : frame.names.typeParameters;
  const sig = (index: number) => (m.signatures[index] ?? []).map((t) => renderType(m, t, tp, typeArgs));
  const targs = typeArgs === undefined ? '' : typeList(typeArgs.map((t) => renderType(m, t, tp)));
  return `${qualified}${targs}(${sig(fh.parameters).join(', ')})${returnList(sig(fh.return))}`;
}

/** One instruction, without its offset. */
export function renderInstruction(ctx: RenderContext, frame: FunctionFrame, instr: Bytecode): string {
  const { m } = ctx;
  const kind = instr.$kind;
  if ('value' in instr) return `${kind}(${instr.value})`;
  if ('count' in instr) return `${kind}(${instr.index}, ${instr.count})`;
  if (!('index' in instr)) return kind;
  const i = instr.index;
  switch (instr.$kind) {
    case 'LdConst':
      return `LdConst[${i}](${renderConstantInline(m, i)})`;
    case 'CopyLoc':
    case 'MoveLoc':
    case 'StLoc':
    case 'MutBorrowLoc':
    case 'ImmBorrowLoc':
      return `${kind}[${i}](${localName(frame, i)}: ${localType(m, frame, i)})`;
    case 'MutBorrowField':
    case 'ImmBorrowField':
      return `${kind}[${i}](${fieldAccess(m, frame, i)})`;
    case 'MutBorrowFieldGeneric':
    case 'ImmBorrowFieldGeneric': {
      const inst = m.fieldInstantiations[i];
      if (inst === undefined) return `${kind}[${i}](ERROR[Bad field instantiation index ${i}])`;
      return `${kind}[${i}](${fieldAccess(m, frame, inst.handle, m.signatures[inst.typeParameters] ?? [])})`;
    }
    case 'Pack':
    case 'Unpack':
      return `${kind}[${i}](${structCall(m, frame, i, [])})`;
    case 'PackGeneric':
    case 'UnpackGeneric': {
      const inst = m.structDefInstantiations[i];
      if (inst === undefined) return `${kind}[${i}](ERROR[Bad struct instantiation index ${i}])`;
      return `${kind}[${i}](${structCall(m, frame, inst.def, m.signatures[inst.typeParameters] ?? [])})`;
    }
    case 'Call':
      return `Call ${callTarget(ctx, frame, i)}`;
    case 'CallGeneric': {
      const inst = m.functionInstantiations[i];
      if (inst === undefined) return `Call ERROR[Bad function instantiation index ${i}]`;
      return `Call ${callTarget(ctx, frame, inst.handle, m.signatures[inst.typeParameters] ?? [])}`;
    }
    default: {
      const deprecated = DEPRECATED[kind];
      if (deprecated !== undefined) return `DEPRECATED BYTECODE: ${deprecated[0]}(${deprecated[1]}(${i}))`;
      const typed = TYPED_INDEX[kind];
      return typed === undefined ? `${kind}(${i})` : `${kind}(${typed}(${i}))`;
    }
  }
}
