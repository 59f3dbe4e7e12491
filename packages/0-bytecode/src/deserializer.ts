/**
 * Deserializer for the Move binary format as Sui uses it (versions 5–7, with the Sui
 * flavor byte from v7 on; older versions are read with their historic rules, as the
 * upstream deserializer does). It applies the same checks in the same order as
 * upstream `deserializer.rs` followed by the bounds checker, so a module we reject is
 * one Sui rejects, with the same status code.
 */
import { BinaryReader, U32_MAX } from './binary-reader.js';
import { checkBounds } from './check-bounds.js';
import { BytecodeError } from './errors.js';
import { addressFromBytes } from './module-access.js';
import type {
  CompiledModule,
  Constant,
  DatatypeHandle,
  DatatypeTypeParameter,
  EnumDefinition,
  FieldDefinition,
  FunctionHandle,
  Metadata,
  ModuleHandle,
  Signature,
  StructDefinition,
  VariantDefinition,
} from './file-format.js';
import { emptyModule } from './file-format.js';
import { Limits, MOVE_MAGIC, SUI_FLAVOR, TableKind, UNPUBLISHABLE_MAGIC, VERSION_MAX } from './opcodes.js';
import { readAbilitySet, readFunctionDefinition, readSignatureToken, AbilityPosition } from './deserialize-code.js';

/** Options of {@link deserializeModule}; the defaults are Sui's. */
export interface DeserializeOptions {
  /** Accept test-only modules with the magic `0xDEADC0DE` (default `true`). */
  allowUnpublishable?: boolean;
  /** Run the bounds checker after reading, as upstream does (default `true`). */
  checkBounds?: boolean;
  /** Reject bytes after the module's end (default `true`). */
  checkNoExtraneousBytes?: boolean;
  /** Reject the deprecated global-storage instructions and acquires (default `true`). */
  deprecateGlobalStorageOps?: boolean;
  /** Highest binary version accepted (default 7). */
  maxVersion?: number;
  /**
   * Reject a metadata table when trailing bytes are checked, as current upstream does
   * (default `false`: metadata tables are read).
   */
  rejectMetadataTable?: boolean;
}

interface TableHeader {
  kind: number;
  offset: number;
  count: number;
}

const ENUM_TABLES = new Set<number>([TableKind.ENUM_DEFS, TableKind.ENUM_DEF_INST, TableKind.VARIANT_HANDLES, TableKind.VARIANT_INST_HANDLES]);
const KNOWN_TABLES = new Set<number>(Object.values(TableKind));

/**
 * Read a compiled module from its bytes.
 * @throws {BytecodeError} with the upstream status code when the bytes are not a valid module.
 */
export function deserializeModule(bytes: Uint8Array, options: DeserializeOptions = {}): CompiledModule {
  if (!(bytes instanceof Uint8Array)) {
    throw new BytecodeError('MALFORMED', 'input is not a byte array', { offset: 0 });
  }
  const deprecateGlobal = options.deprecateGlobalStorageOps ?? true;
  const checkTrailing = options.checkNoExtraneousBytes ?? true;
  const r = new BinaryReader(bytes);

  // Magic.
  if (bytes.length < 4) r.fail('BAD_MAGIC', 'Binary header too short');
  const magic = r.view.getUint32(0, false);
  let publishable = true;
  if (magic === UNPUBLISHABLE_MAGIC) {
    if (!(options.allowUnpublishable ?? true)) r.fail('BAD_MAGIC', 'Binary header not allowed');
    publishable = false;
  } else if (magic !== MOVE_MAGIC) {
    r.fail('BAD_MAGIC', 'Unexpected binary header');
  }
  r.pos = 4;

  // Version word: from v7 on the top byte is the flavor.
  const flavored = r.u32('MALFORMED', 'Bad binary header');
  const version = flavored <= 6 ? flavored : flavored & 0x00ffffff;
  const flavor = flavored <= 6 ? -1 : flavored >>> 24;
  const maxVersion = Math.min(options.maxVersion ?? VERSION_MAX, VERSION_MAX);
  if (version < 1 || version > maxVersion) {
    throw new BytecodeError('UNKNOWN_VERSION', `binary version ${version}`, { offset: 4 });
  }
  if (version >= 7 && flavor !== SUI_FLAVOR) {
    throw new BytecodeError('UNKNOWN_VERSION', `unsupported flavor ${flavor}`, { offset: 4 });
  }
  r.version = version;

  // Table headers.
  const tableCount = r.uleb(Limits.TABLE_COUNT_MAX);
  const tables: TableHeader[] = [];
  for (let i = 0; i < tableCount; i++) {
    const kindAt = r.pos;
    const kind = r.u8('Error reading table');
    const offset = r.uleb(U32_MAX);
    const count = r.uleb(U32_MAX);
    if (!KNOWN_TABLES.has(kind)) {
      throw new BytecodeError('UNKNOWN_TABLE_TYPE', `table kind 0x${kind.toString(16)}`, { offset: kindAt });
    }
    tables.push({ kind, offset, count });
  }
  const tableSize = checkTables(tables, bytes.length, r.pos);
  if (tableSize + r.pos > bytes.length) r.fail('MALFORMED', 'Table size too big');
  const dataOffset = r.pos;

  // The self module handle index sits after the table contents.
  r.pos = dataOffset + tableSize;
  const selfIndex = r.uleb(Limits.TABLE_INDEX_MAX);
  const endOffset = r.pos;

  const m = emptyModule(version);
  m.publishable = publishable;
  m.selfModuleHandleIndex = selfIndex;

  const ctx: TableContext = { bytes, dataOffset, version, deprecateGlobal };
  // Common tables first, then module tables, each pass in offset order (as upstream).
  for (const t of tables) readCommonTable(ctx, t, m, checkTrailing && (options.rejectMetadataTable ?? false));
  for (const t of tables) readModuleTable(ctx, t, m);

  if (checkTrailing && endOffset < bytes.length) {
    throw new BytecodeError('TRAILING_BYTES', `${bytes.length - endOffset} bytes after the module`, {
      offset: endOffset,
    });
  }
  if (options.checkBounds ?? true) checkBounds(m, deprecateGlobal);
  return m;
}

/** Sort tables by offset and check that they are contiguous, non-empty and unique. */
function checkTables(tables: TableHeader[], binaryLength: number, headerEnd: number): number {
  tables.sort((a, b) => a.offset - b.offset);
  let current = 0;
  const seen = new Set<number>();
  for (const t of tables) {
    const fail = (code: 'BAD_HEADER_TABLE' | 'DUPLICATE_TABLE', msg: string): never => {
      throw new BytecodeError(code, msg, { offset: headerEnd });
    };
    if (t.offset !== current) fail('BAD_HEADER_TABLE', `table 0x${t.kind.toString(16)} does not start at ${current}`);
    if (t.count === 0) fail('BAD_HEADER_TABLE', `table 0x${t.kind.toString(16)} is empty`);
    current += t.count;
    if (current > U32_MAX) fail('BAD_HEADER_TABLE', 'table sizes overflow');
    if (seen.has(t.kind)) fail('DUPLICATE_TABLE', `table 0x${t.kind.toString(16)} appears twice`);
    seen.add(t.kind);
    if (current > binaryLength) fail('BAD_HEADER_TABLE', 'tables extend past the end of the binary');
  }
  return current;
}

interface TableContext {
  bytes: Uint8Array;
  dataOffset: number;
  version: number;
  deprecateGlobal: boolean;
}

function tableReader(ctx: TableContext, t: TableHeader): BinaryReader {
  const start = ctx.dataOffset + t.offset;
  return new BinaryReader(ctx.bytes, start, start + t.count, ctx.version);
}

function readCommonTable(ctx: TableContext, t: TableHeader, m: CompiledModule, rejectMetadata: boolean): void {
  switch (t.kind) {
    case TableKind.MODULE_HANDLES:
      readModuleHandles(tableReader(ctx, t), m.moduleHandles);
      return;
    case TableKind.DATATYPE_HANDLES:
      readDatatypeHandles(tableReader(ctx, t), m.datatypeHandles);
      return;
    case TableKind.FUNCTION_HANDLES:
      readFunctionHandles(tableReader(ctx, t), m.functionHandles);
      return;
    case TableKind.FUNCTION_INST:
      readPairs(tableReader(ctx, t), (handle, typeParameters) => m.functionInstantiations.push({ handle, typeParameters }));
      return;
    case TableKind.SIGNATURES:
      readSignatures(tableReader(ctx, t), m.signatures);
      return;
    case TableKind.CONSTANT_POOL:
      readConstants(tableReader(ctx, t), m.constantPool);
      return;
    case TableKind.METADATA:
      if (rejectMetadata || ctx.version < 5) {
        throw new BytecodeError('MALFORMED', `metadata declarations not applicable in bytecode version ${ctx.version}`, {
          offset: ctx.dataOffset + t.offset,
        });
      }
      readMetadata(tableReader(ctx, t), m.metadata);
      return;
    case TableKind.IDENTIFIERS:
      readIdentifiers(tableReader(ctx, t), m.identifiers);
      return;
    case TableKind.ADDRESS_IDENTIFIERS:
      readAddresses(ctx, t, m.addressIdentifiers);
      return;
    case TableKind.FRIEND_DECLS:
      if (ctx.version < 2) {
        throw new BytecodeError('MALFORMED', 'Friend declarations not applicable in bytecode version 1', {
          offset: ctx.dataOffset + t.offset,
        });
      }
      return;
    default:
      if (ENUM_TABLES.has(t.kind) && ctx.version < 7) {
        throw new BytecodeError('MALFORMED', 'Enum declarations not supported in bytecode versions less than 7', {
          offset: ctx.dataOffset + t.offset,
        });
      }
  }
}

function readModuleTable(ctx: TableContext, t: TableHeader, m: CompiledModule): void {
  switch (t.kind) {
    case TableKind.ENUM_DEFS:
      readEnumDefs(tableReader(ctx, t), m.enumDefs);
      return;
    case TableKind.ENUM_DEF_INST:
      readPairs(tableReader(ctx, t), (def, typeParameters) => m.enumDefInstantiations.push({ def, typeParameters }));
      return;
    case TableKind.STRUCT_DEFS:
      readStructDefs(tableReader(ctx, t), m.structDefs);
      return;
    case TableKind.STRUCT_DEF_INST:
      readPairs(tableReader(ctx, t), (def, typeParameters) => m.structDefInstantiations.push({ def, typeParameters }));
      return;
    case TableKind.FUNCTION_DEFS: {
      const r = tableReader(ctx, t);
      while (r.pos < r.end) m.functionDefs.push(readFunctionDefinition(r, ctx.deprecateGlobal));
      return;
    }
    case TableKind.FIELD_HANDLE: {
      const r = tableReader(ctx, t);
      while (r.pos < r.end) {
        const owner = r.uleb(Limits.TABLE_INDEX_MAX);
        const field = r.uleb(Limits.FIELD_OFFSET_MAX);
        m.fieldHandles.push({ owner, field });
      }
      return;
    }
    case TableKind.FIELD_INST:
      readPairs(tableReader(ctx, t), (handle, typeParameters) => m.fieldInstantiations.push({ handle, typeParameters }));
      return;
    case TableKind.FRIEND_DECLS:
      readModuleHandles(tableReader(ctx, t), m.friendDecls);
      return;
    case TableKind.VARIANT_HANDLES:
      readPairs(tableReader(ctx, t), (enumDef, variant) => m.variantHandles.push({ enumDef, variant }), Limits.VARIANT_TAG_MAX_VALUE);
      return;
    case TableKind.VARIANT_INST_HANDLES:
      readPairs(tableReader(ctx, t), (enumDef, variant) => m.variantInstantiationHandles.push({ enumDef, variant }), Limits.VARIANT_TAG_MAX_VALUE);
      return;
    default:
      return;
  }
}

/** Read `(index, index)` pairs until the table ends. */
function readPairs(r: BinaryReader, push: (a: number, b: number) => void, secondMax: number = Limits.TABLE_INDEX_MAX): void {
  while (r.pos < r.end) {
    const a = r.uleb(Limits.TABLE_INDEX_MAX);
    const b = r.uleb(secondMax);
    push(a, b);
  }
}

function readModuleHandles(r: BinaryReader, out: ModuleHandle[]): void {
  while (r.pos < r.end) {
    const address = r.uleb(Limits.TABLE_INDEX_MAX);
    const name = r.uleb(Limits.TABLE_INDEX_MAX);
    out.push({ address, name });
  }
}

function readDatatypeHandles(r: BinaryReader, out: DatatypeHandle[]): void {
  while (r.pos < r.end) {
    const module = r.uleb(Limits.TABLE_INDEX_MAX);
    const name = r.uleb(Limits.TABLE_INDEX_MAX);
    const abilities = readAbilitySet(r, AbilityPosition.DatatypeHandle);
    const n = r.uleb(Limits.TYPE_PARAMETER_COUNT_MAX);
    const typeParameters: DatatypeTypeParameter[] = [];
    for (let i = 0; i < n; i++) {
      const constraints = readAbilitySet(r, AbilityPosition.DatatypeTypeParameter);
      const isPhantom = r.version < 3 ? false : r.uleb(1) !== 0;
      typeParameters.push({ constraints, isPhantom });
    }
    out.push({ module, name, abilities, typeParameters });
  }
}

function readFunctionHandles(r: BinaryReader, out: FunctionHandle[]): void {
  while (r.pos < r.end) {
    const module = r.uleb(Limits.TABLE_INDEX_MAX);
    const name = r.uleb(Limits.TABLE_INDEX_MAX);
    const parameters = r.uleb(Limits.TABLE_INDEX_MAX);
    const ret = r.uleb(Limits.TABLE_INDEX_MAX);
    const n = r.uleb(Limits.TYPE_PARAMETER_COUNT_MAX);
    const typeParameters: number[] = [];
    for (let i = 0; i < n; i++) typeParameters.push(readAbilitySet(r, AbilityPosition.FunctionTypeParameter));
    out.push({ module, name, parameters, return: ret, typeParameters });
  }
}

function readSignatures(r: BinaryReader, out: Signature[]): void {
  while (r.pos < r.end) {
    const len = r.uleb(Limits.SIGNATURE_SIZE_MAX);
    const sig: Signature = [];
    for (let i = 0; i < len; i++) sig.push(readSignatureToken(r));
    out.push(sig);
  }
}

function readConstants(r: BinaryReader, out: Constant[]): void {
  while (r.pos < r.end) {
    const type = readSignatureToken(r);
    const size = r.uleb(Limits.CONSTANT_SIZE_MAX);
    const data = r.take(size);
    if (data === null) r.fail('MALFORMED', 'Bad byte blob size');
    out.push({ type, data });
  }
}

function readMetadata(r: BinaryReader, out: Metadata[]): void {
  while (r.pos < r.end) {
    const keySize = r.uleb(Limits.METADATA_KEY_SIZE_MAX);
    const key = r.take(keySize);
    if (key === null) r.fail('MALFORMED', 'Bad byte blob size');
    const valueSize = r.uleb(Limits.METADATA_VALUE_SIZE_MAX);
    const value = r.take(valueSize);
    if (value === null) r.fail('MALFORMED', 'Bad byte blob size');
    out.push({ key, value });
  }
}

/** Identifiers are `[A-Za-z][A-Za-z0-9_]*` or `_[A-Za-z0-9_]+`, so ASCII-only. */
function readIdentifiers(r: BinaryReader, out: string[]): void {
  const bytes = r.bytes;
  while (r.pos < r.end) {
    const size = r.uleb(Limits.IDENTIFIER_SIZE_MAX);
    const start = r.pos;
    if (r.end - start < size) r.fail('MALFORMED', 'Bad Identifier pool size');
    if (!validIdentifier(bytes, start, size)) r.fail('MALFORMED', 'Invalid Identifier');
    let s = '';
    for (let i = 0; i < size; i++) s += String.fromCharCode(bytes[start + i]);
    r.pos = start + size;
    out.push(s);
  }
}

function isIdentChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}

function validIdentifier(bytes: Uint8Array, start: number, size: number): boolean {
  if (size === 0) return false;
  const c0 = bytes[start];
  const letter = (c0 >= 0x61 && c0 <= 0x7a) || (c0 >= 0x41 && c0 <= 0x5a);
  if (!letter && !(c0 === 0x5f && size > 1)) return false;
  for (let i = 1; i < size; i++) if (!isIdentChar(bytes[start + i])) return false;
  return true;
}

function readAddresses(ctx: TableContext, t: TableHeader, out: string[]): void {
  if (t.count % 32 !== 0) {
    throw new BytecodeError('MALFORMED', 'Bad Address Identifier pool size', { offset: ctx.dataOffset + t.offset });
  }
  const bytes = ctx.bytes;
  for (let p = ctx.dataOffset + t.offset, end = p + t.count; p < end; p += 32) out.push(addressFromBytes(bytes, p));
}

function readFields(r: BinaryReader): FieldDefinition[] {
  const n = r.uleb(Limits.FIELD_COUNT_MAX);
  const fields: FieldDefinition[] = [];
  for (let i = 0; i < n; i++) {
    const name = r.uleb(Limits.TABLE_INDEX_MAX);
    const type = readSignatureToken(r);
    fields.push({ name, type });
  }
  return fields;
}

const NATIVE_FIELDS = Object.freeze({ $kind: 'Native' as const });

function readStructDefs(r: BinaryReader, out: StructDefinition[]): void {
  while (r.pos < r.end) {
    const structHandle = r.uleb(Limits.TABLE_INDEX_MAX);
    const flag = r.u8('Invalid field info in struct');
    if (flag === 0x1) {
      out.push({ structHandle, fieldInformation: NATIVE_FIELDS });
    } else if (flag === 0x2) {
      out.push({ structHandle, fieldInformation: { $kind: 'Declared', fields: readFields(r) } });
    } else {
      r.pos--;
      r.fail('UNKNOWN_NATIVE_STRUCT_FLAG', `flag 0x${flag.toString(16)}`);
    }
  }
}

function readEnumDefs(r: BinaryReader, out: EnumDefinition[]): void {
  while (r.pos < r.end) {
    const enumHandle = r.uleb(Limits.TABLE_INDEX_MAX);
    const flag = r.u8('Invalid field info in enum');
    if (flag !== 0x2) {
      r.pos--;
      r.fail('UNKNOWN_ENUM_FLAG', `flag 0x${flag.toString(16)}`);
    }
    const n = r.uleb(Limits.VARIANT_COUNT_MAX);
    if (n === 0) r.fail('MALFORMED', 'Enum type with no variants');
    const variants: VariantDefinition[] = [];
    for (let i = 0; i < n; i++) {
      const variantName = r.uleb(Limits.TABLE_INDEX_MAX);
      variants.push({ variantName, fields: readFields(r) });
    }
    out.push({ enumHandle, variants });
  }
}
