/**
 * The assembler's compilation context (upstream `move-ir-to-bytecode/src/context.rs`):
 * every table of the module is a pool keyed by value, so an item keeps the index of its
 * first insertion and identical items share one entry — the pool order is the order in
 * which the compiler first asks for an item. Names (import aliases, structs, fields,
 * variants, functions, constants, labels) resolve through maps keyed by source name;
 * handles of imported modules are added lazily, the first time they are used, from the
 * compiled dependencies.
 */
import type {
  AbilitySet,
  CompiledModule,
  Constant,
  DatatypeHandle,
  DatatypeTypeParameter,
  FieldHandle,
  FieldInstantiation,
  FunctionHandle,
  FunctionInstantiation,
  ModuleHandle,
  Signature,
  SignatureToken,
  StructDefInstantiation,
  EnumDefInstantiation,
  VariantHandle,
  VariantInstantiationHandle,
} from '@smi/bytecode';
import { signatureTokenKey } from '@smi/bytecode';
import type { ModuleIdent } from './ast.js';
import { DependencyView, type DependencyFunctionSignature } from './dependencies.js';
import { IrCompileError } from './errors.js';

const TABLE_MAX_SIZE = 0xffff;

/** Upstream `move_core_types::identifier::is_valid`. */
function isValidIdentifier(s: string): boolean {
  return /^(?:[a-zA-Z][a-zA-Z0-9_]*|_[a-zA-Z0-9_]+)$/.test(s);
}

const signatureKey = (s: readonly SignatureToken[]): string => s.map(signatureTokenKey).join(',');

/** A table that keeps the index of the first insertion of each distinct value. */
class Pool<T> {
  private readonly index = new Map<string, number>();
  readonly items: T[] = [];

  getOrAdd(key: string, item: T): number {
    const found = this.index.get(key);
    if (found !== undefined) return found;
    if (this.items.length >= TABLE_MAX_SIZE) throw new IrCompileError('Max table size reached!');
    this.index.set(key, this.items.length);
    return this.items.push(item) - 1;
  }

  get(key: string): number | undefined {
    return this.index.get(key);
  }
}

const identKey = (id: ModuleIdent): string => `${id.address}::${id.name}`;
/** Upstream's `Display` of a `ModuleIdent`: 64 hex digits, `::`, name. */
export const displayIdent = (id: ModuleIdent): string => `${id.address.slice(2)}::${id.name}`;

/** The signature of a function being declared. */
export interface FunctionSignatureTokens {
  parameters: SignatureToken[];
  returns: SignatureToken[];
  typeParameters: AbilitySet[];
}

/** Where compiled dependencies come from. */
export type DependencyResolver = (address: string, name: string) => CompiledModule | undefined;

/** The pools and name tables of one module being assembled. */
export class Context {
  private readonly aliases = new Map<string, string>();
  private readonly modules = new Map<string, { ident: ModuleIdent; handle: ModuleHandle }>();
  private readonly structs = new Map<string, DatatypeHandle>();
  private readonly structDefs = new Map<string, number>();
  private readonly enumDefs = new Map<string, number>();
  private readonly namedConstants = new Map<string, number>();
  private labels = new Map<string, number>();
  private readonly fields = new Map<string, { def: number; token: SignatureToken; declOrder: number }>();
  private readonly functionHandles = new Map<string, { handle: FunctionHandle; index: number }>();
  private readonly variants = new Map<string, { enumDef: number; fieldCount: number; tag: number }>();
  private readonly views = new Map<string, DependencyView>();

  readonly moduleHandles = new Pool<ModuleHandle>();
  readonly datatypeHandles = new Pool<DatatypeHandle>();
  readonly signatures = new Pool<Signature>();
  readonly identifiers = new Pool<string>();
  readonly addressIdentifiers = new Pool<string>();
  readonly constantPool = new Pool<Constant>();
  readonly fieldHandles = new Pool<FieldHandle>();
  readonly structInstantiations = new Pool<StructDefInstantiation>();
  readonly enumInstantiations = new Pool<EnumDefInstantiation>();
  readonly functionInstantiations = new Pool<FunctionInstantiation>();
  readonly fieldInstantiations = new Pool<FieldInstantiation>();
  readonly variantHandles = new Pool<VariantHandle>();
  readonly variantInstantiationHandles = new Pool<VariantInstantiationHandle>();

  constructor(private readonly resolve: DependencyResolver) {}

  /** Function handles in index order. */
  materializeFunctionHandles(): FunctionHandle[] {
    const out: FunctionHandle[] = [];
    for (const { handle, index } of this.functionHandles.values()) out[index] = handle;
    return out;
  }

  // ---- pools ---------------------------------------------------------------------------

  identifierIndex(s: string): number {
    if (!isValidIdentifier(s)) throw new IrCompileError(`Invalid identifier '${s}'`);
    return this.identifiers.getOrAdd(s, s);
  }

  addressIndex(address: string): number {
    return this.addressIdentifiers.getOrAdd(address, address);
  }

  signatureIndex(sig: Signature): number {
    return this.signatures.getOrAdd(signatureKey(sig), sig);
  }

  constantIndex(c: Constant): number {
    const hex = Array.from(c.data, (b) => b.toString(16).padStart(2, '0')).join('');
    return this.constantPool.getOrAdd(`${signatureTokenKey(c.type)}:${hex}`, c);
  }

  fieldHandleIndex(owner: number, field: number): number {
    return this.fieldHandles.getOrAdd(`${owner}:${field}`, { owner, field });
  }

  variantHandleIndex(enumDef: number, variant: number): number {
    return this.variantHandles.getOrAdd(`${enumDef}:${variant}`, { enumDef, variant });
  }

  variantInstantiationHandleIndex(enumDef: number, variant: number): number {
    return this.variantInstantiationHandles.getOrAdd(`${enumDef}:${variant}`, { enumDef, variant });
  }

  structInstantiationIndex(def: number, typeParameters: number): number {
    return this.structInstantiations.getOrAdd(`${def}:${typeParameters}`, { def, typeParameters });
  }

  enumInstantiationIndex(def: number, typeParameters: number): number {
    return this.enumInstantiations.getOrAdd(`${def}:${typeParameters}`, { def, typeParameters });
  }

  functionInstantiationIndex(handle: number, typeParameters: number): number {
    return this.functionInstantiations.getOrAdd(`${handle}:${typeParameters}`, { handle, typeParameters });
  }

  fieldInstantiationIndex(handle: number, typeParameters: number): number {
    return this.fieldInstantiations.getOrAdd(`${handle}:${typeParameters}`, { handle, typeParameters });
  }

  /** Fake code offset of a label, fixed up after the function is compiled. */
  labelIndex(label: string): number {
    const found = this.labels.get(label);
    if (found !== undefined) return found;
    this.labels.set(label, this.labels.size);
    return this.labels.size - 1;
  }

  /** Maps fake label offsets to real ones and forgets the function's labels. */
  buildIndexRemapping(labelToIndex: ReadonlyMap<string, number>): Map<number, number> {
    const labels = this.labels;
    this.labels = new Map();
    const out = new Map<number, number>();
    for (const [label, actual] of labelToIndex) {
      const fake = labels.get(label);
      if (fake !== undefined) out.set(fake, actual);
    }
    return out;
  }

  /** Names of labels used in the current function but never declared. */
  usedLabels(): string[] {
    return [...this.labels.keys()];
  }

  // ---- names ---------------------------------------------------------------------------

  private moduleEntry(alias: string): { ident: ModuleIdent; handle: ModuleHandle } {
    const entry = this.modules.get(alias);
    if (entry === undefined) throw new IrCompileError(`Unbound module alias ${alias}`);
    return entry;
  }

  moduleIdent(alias: string): ModuleIdent {
    return this.moduleEntry(alias).ident;
  }

  moduleHandleIndex(alias: string): number {
    const h = this.moduleEntry(alias).handle;
    return this.moduleHandles.get(`${h.address}:${h.name}`) ?? 0;
  }

  private moduleAlias(ident: ModuleIdent): string {
    const alias = this.aliases.get(identKey(ident));
    if (alias === undefined) throw new IrCompileError(`Missing import for module ${displayIdent(ident)}`);
    return alias;
  }

  namedConstantIndex(name: string): number {
    const idx = this.namedConstants.get(name);
    if (idx === undefined) throw new IrCompileError(`Missing constant definition for ${name}`);
    return idx;
  }

  field(datatype: number, name: string): { def: number; token: SignatureToken; declOrder: number } {
    const f = this.fields.get(`${datatype}:${name}`);
    if (f === undefined) throw new IrCompileError(`Unbound field ${name}`);
    return f;
  }

  variant(datatype: number, name: string): { enumDef: number; tag: number } {
    const v = this.variants.get(`${datatype}:${name}`);
    if (v === undefined) throw new IrCompileError(`Unbound variant ${name}`);
    return v;
  }

  structDefinitionIndex(name: string): number {
    const idx = this.structDefs.get(name);
    if (idx === undefined) throw new IrCompileError(`Missing struct definition for ${name}`);
    return idx;
  }

  enumDefinitionIndex(name: string): number {
    const idx = this.enumDefs.get(name);
    if (idx === undefined) throw new IrCompileError(`Missing enum definition for ${name}`);
    return idx;
  }

  // ---- declarations --------------------------------------------------------------------

  declareFriend(id: ModuleIdent): ModuleHandle {
    const address = this.addressIndex(id.address);
    return { address, name: this.identifierIndex(id.name) };
  }

  declareImport(id: ModuleIdent, alias: string): number {
    this.aliases.set(identKey(id), alias);
    const address = this.addressIndex(id.address);
    const name = this.identifierIndex(id.name);
    const handle = { address, name };
    this.modules.set(alias, { ident: id, handle });
    return this.moduleHandles.getOrAdd(`${address}:${name}`, handle);
  }

  declareDatatypeHandle(module: string, name: string, abilities: AbilitySet, typeParameters: DatatypeTypeParameter[]): number {
    const moduleIndex = this.moduleHandleIndex(module);
    const handle: DatatypeHandle = { module: moduleIndex, name: this.identifierIndex(name), abilities, typeParameters };
    this.structs.set(`${module}::${name}`, handle);
    return this.datatypeHandles.getOrAdd(datatypeHandleKey(handle), handle);
  }

  declareStructDefinition(name: string): number {
    const found = this.structDefs.get(name);
    if (found !== undefined) return found;
    this.structDefs.set(name, this.structDefs.size);
    return this.structDefs.size - 1;
  }

  declareEnumDefinition(name: string): number {
    const found = this.enumDefs.get(name);
    if (found !== undefined) return found;
    this.enumDefs.set(name, this.enumDefs.size);
    return this.enumDefs.size - 1;
  }

  declareFunction(module: string, name: string, sig: FunctionSignatureTokens): void {
    const key = `${module}::${name}`;
    const moduleIndex = this.moduleHandleIndex(module);
    const nameIndex = this.identifierIndex(name);
    const parameters = this.signatureIndex(sig.parameters);
    const ret = this.signatureIndex(sig.returns);
    const handle: FunctionHandle = { module: moduleIndex, name: nameIndex, parameters, return: ret, typeParameters: sig.typeParameters };
    const index = this.functionHandles.get(key)?.index ?? this.functionHandles.size;
    if (index >= TABLE_MAX_SIZE) throw new IrCompileError(`too many functions: ${module}::${name}`);
    this.functionHandles.set(key, { handle, index });
  }

  declareConstant(name: string, constant: Constant): void {
    if (this.namedConstants.has(name)) throw new IrCompileError(`Duplicate constant definition for '${name}'`);
    this.namedConstants.set(name, this.constantIndex(constant));
  }

  declareField(datatype: number, def: number, name: string, token: SignatureToken, declOrder: number): void {
    const key = `${datatype}:${name}`;
    if (!this.fields.has(key)) this.fields.set(key, { def, token, declOrder });
  }

  declareVariant(datatype: number, enumDef: number, name: string, fieldCount: number, tag: number): void {
    const key = `${datatype}:${name}`;
    if (!this.variants.has(key)) this.variants.set(key, { enumDef, fieldCount, tag });
  }

  // ---- dependencies --------------------------------------------------------------------

  private dependency(id: ModuleIdent): DependencyView {
    const key = identKey(id);
    let view = this.views.get(key);
    if (view === undefined) {
      const module = this.resolve(id.address, id.name);
      if (module === undefined) throw new IrCompileError(`Dependency not provided for ${displayIdent(id)}`);
      view = new DependencyView(module);
      this.views.set(key, view);
    }
    return view;
  }

  /** Handle index of a datatype, adding the handle of an imported one on first use. */
  datatypeHandleIndex(module: string, name: string): number {
    const known = this.structs.get(`${module}::${name}`);
    if (known !== undefined) return this.datatypeHandles.get(datatypeHandleKey(known)) ?? 0;
    if (module === 'Self') throw new IrCompileError(`Unbound struct ${module}::${name}`);
    const ident = this.moduleIdent(module);
    const handle = this.dependency(ident).datatypeHandle(ident.name, name);
    if (handle === undefined) throw new IrCompileError(`Unbound struct ${module}::${name}`);
    return this.declareDatatypeHandle(
      module,
      name,
      handle.abilities,
      handle.typeParameters.map((p) => ({ ...p })),
    );
  }

  private reindexToken(dep: ModuleIdent, token: SignatureToken): SignatureToken {
    switch (token.$kind) {
      case 'Vector':
      case 'Reference':
      case 'MutableReference':
        return { $kind: token.$kind, type: this.reindexToken(dep, token.type) };
      case 'Datatype':
      case 'DatatypeInstantiation': {
        const info = this.dependency(dep).sourceStructInfo(token.index);
        if (info === undefined) throw new IrCompileError('Malformed dependency');
        const index = this.datatypeHandleIndex(this.moduleAlias(info.module), info.name);
        if (token.$kind === 'Datatype') return { $kind: 'Datatype', index };
        return { $kind: 'DatatypeInstantiation', index, typeArguments: token.typeArguments.map((t) => this.reindexToken(dep, t)) };
      }
      default:
        return token;
    }
  }

  private reindexSignature(dep: ModuleIdent, sig: DependencyFunctionSignature): FunctionSignatureTokens {
    const returns = sig.returns.map((t) => this.reindexToken(dep, t));
    const parameters = sig.parameters.map((t) => this.reindexToken(dep, t));
    return { parameters, returns, typeParameters: [...sig.typeParameters] };
  }

  /** Handle index of a function, declaring an imported one on first use. */
  functionHandleIndex(module: string, name: string): number {
    const key = `${module}::${name}`;
    if (!this.functionHandles.has(key)) {
      if (module === 'Self') throw new IrCompileError(`Unbound function ${module}::${name}`);
      const ident = this.moduleIdent(module);
      const sig = this.dependency(ident).functionSignature(name);
      if (sig === undefined) throw new IrCompileError(`Unbound function ${displayIdent(ident)}::${name}`);
      this.declareFunction(module, name, this.reindexSignature(ident, sig));
    }
    const entry = this.functionHandles.get(key);
    if (entry === undefined) throw new IrCompileError(`Unbound function ${module}::${name}`);
    return entry.index;
  }
}

function datatypeHandleKey(h: DatatypeHandle): string {
  return `${h.module}:${h.name}:${h.abilities}:${h.typeParameters.map((p) => `${p.constraints}${p.isPhantom ? 'p' : ''}`).join(',')}`;
}
