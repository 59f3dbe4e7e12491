/**
 * The Move IR assembler (upstream `move-ir-to-bytecode/src/compiler.rs`): a parsed
 * module becomes a {@link CompiledModule} with the same tables in the same order, the
 * same instruction sequences and the same pool indices as the upstream IR compiler, plus
 * the source names (parameters, locals, type parameters, variants) its source map would
 * hold, ready for `disassembleModule`'s `sourceNames`.
 *
 * Imported modules are resolved through compiled dependencies given by the caller, as
 * upstream's compiler takes them: their handles enter this module's tables the first
 * time a type or a function of theirs is used.
 */
import {
  Ability,
  BytecodeError,
  canonicalAddress,
  emptyModule,
  serializeModule,
  type AbilitySet,
  type CompiledModule,
  type DisassemblySourceNames,
  type FieldDefinition,
  type FunctionDefinition as BinaryFunctionDefinition,
  type FunctionSourceNames,
  type DatatypeSourceNames,
  type StructDefinition as BinaryStructDefinition,
  type EnumDefinition as BinaryEnumDefinition,
} from '@smi/bytecode';
import type { AbilityName, DatatypeTypeParameter, FunctionDefinition, FunctionTypeParameter, ModuleDefinition } from './ast.js';
import { compileFunctionBody, compileType, compileTypes, type TypeParameterMap } from './assembler-code.js';
import { constantTypeToken, encodeConstantValue } from './constants.js';
import { Context, displayIdent, type DependencyResolver, type FunctionSignatureTokens } from './context.js';
import { IrCompileError, IrSerializeError } from './errors.js';
import { parseModule, type ParseOptions } from './parser.js';

/** Compiled modules the assembled module may use, or a lookup by address and name. */
export type Dependencies = Iterable<CompiledModule> | ((address: string, name: string) => CompiledModule | undefined);

/** Options of {@link assembleModule}. */
export interface AssembleOptions {
  /** Modules that imports resolve to. A module needed but missing is a compile error. */
  dependencies?: Dependencies;
}

/** The result of assembling one module. */
export interface AssembledModule {
  module: CompiledModule;
  /** Names the upstream source map would hold, keyed by definition index. */
  sourceNames: DisassemblySourceNames;
}

const ABILITY_BIT: Readonly<Record<AbilityName, number>> = {
  copy: Ability.Copy,
  drop: Ability.Drop,
  store: Ability.Store,
  key: Ability.Key,
};

const abilityMask = (list: readonly AbilityName[]): AbilitySet => list.reduce((m, a) => m | ABILITY_BIT[a], 0);

function dependencyResolver(deps: Dependencies | undefined): DependencyResolver {
  if (deps === undefined) return () => undefined;
  if (typeof deps === 'function') return deps;
  const map = new Map<string, CompiledModule>();
  for (const m of deps) {
    const self = m.moduleHandles[m.selfModuleHandleIndex];
    const id = { address: canonicalAddress(m.addressIdentifiers[self.address]), name: m.identifiers[self.name] };
    const key = `${id.address}::${id.name}`;
    if (map.has(key)) throw new IrCompileError(`Duplicate dependency module for ${displayIdent(id)}`);
    map.set(key, m);
  }
  return (address, name) => map.get(`${canonicalAddress(address)}::${name}`);
}

/** Upstream `verify_module`: block labels are unique and every jump target exists. */
function verifyLabels(functions: readonly FunctionDefinition[]): void {
  for (const f of functions) {
    if (f.body === null) continue;
    const labels = new Set<string>();
    const redeclared: string[] = [];
    for (const b of f.body.blocks) {
      if (labels.has(b.label)) redeclared.push(b.label);
      else labels.add(b.label);
    }
    const undeclared: string[] = [];
    for (const b of f.body.blocks) {
      for (const s of b.statements) {
        if ((s.$kind === 'Jump' || s.$kind === 'JumpIf' || s.$kind === 'JumpIfFalse') && !labels.has(s.label)) {
          undeclared.push(s.label);
        }
      }
    }
    if (redeclared.length === 0 && undeclared.length === 0) continue;
    let message = 'Invalid block labels';
    if (redeclared.length > 0) message += `, labels were declared twice (${redeclared.join(', ')})`;
    if (undeclared.length > 0) message += `, labels were used without being declared (${undeclared.join(', ')})`;
    throw new IrCompileError(message);
  }
}

function typeParameterIndexes(params: readonly { name: string }[]): Map<string, number> {
  const m = new Map<string, number>();
  params.forEach((p, i) => {
    if (i > 0xffff) throw new IrCompileError('Too many type parameters');
    if (m.has(p.name)) throw new IrCompileError(`Type formal '${p.name}'' already bound`);
    m.set(p.name, i);
  });
  return m;
}

const datatypeTypeParameters = (tps: readonly DatatypeTypeParameter[]) => tps.map((p) => ({ constraints: abilityMask(p.abilities), isPhantom: p.isPhantom }));

function functionSignature(ctx: Context, f: FunctionDefinition): FunctionSignatureTokens {
  const tps = typeParameterIndexes(f.typeParameters);
  const returns = compileTypes(ctx, tps, f.returns);
  const parameters = f.parameters.map((p) => compileType(ctx, tps, p.type));
  return { parameters, returns, typeParameters: f.typeParameters.map((p: FunctionTypeParameter) => abilityMask(p.abilities)) };
}

/**
 * Assembles a parsed module.
 *
 * @throws {IrCompileError} with upstream's message when the module cannot be compiled.
 */
export function assembleModule(ast: ModuleDefinition, options: AssembleOptions = {}): AssembledModule {
  verifyLabels(ast.functions);
  const ctx = new Context(dependencyResolver(options.dependencies));
  const friendDecls = ast.friends.map((f) => ctx.declareFriend(f));
  const selfIndex = ctx.declareImport(ast.ident, 'Self');
  for (const imp of ast.imports) ctx.declareImport(imp.ident, imp.alias);

  for (const d of [...ast.structs, ...ast.enums]) {
    ctx.declareDatatypeHandle('Self', d.name, abilityMask(d.abilities), datatypeTypeParameters(d.typeParameters));
  }
  for (const c of ast.constants) {
    const constant = { type: constantTypeToken(c.type), data: encodeConstantValue(c.value) };
    ctx.declareConstant(c.name, constant);
    ctx.constantIndex(constant);
  }
  for (const f of ast.functions) ctx.declareFunction('Self', f.name, functionSignature(ctx, f));

  const names: { functions: Record<number, FunctionSourceNames>; structs: Record<number, DatatypeSourceNames>; enums: Record<number, DatatypeSourceNames> } = { functions: {}, structs: {}, enums: {} };

  const structDefs: BinaryStructDefinition[] = [];
  for (const s of ast.structs) {
    const handle = ctx.datatypeHandleIndex('Self', s.name);
    names.structs[structDefs.length] = { typeParameters: s.typeParameters.map((p) => p.name) };
    const tps = typeParameterIndexes(s.typeParameters);
    const def = ctx.declareStructDefinition(s.name);
    if (s.fields === null) {
      structDefs.push({ structHandle: handle, fieldInformation: { $kind: 'Native' } });
      continue;
    }
    const fields: FieldDefinition[] = s.fields.map((f, i) => {
      const name = ctx.identifierIndex(f.name);
      const type = compileType(ctx, tps, f.type);
      ctx.declareField(handle, def, f.name, type, i);
      return { name, type };
    });
    structDefs.push({ structHandle: handle, fieldInformation: { $kind: 'Declared', fields } });
  }

  const enumDefs: BinaryEnumDefinition[] = [];
  for (const e of ast.enums) {
    const handle = ctx.datatypeHandleIndex('Self', e.name);
    names.enums[enumDefs.length] = { typeParameters: e.typeParameters.map((p) => p.name), variants: e.variants.map((v) => v.name) };
    const tps = typeParameterIndexes(e.typeParameters);
    const def = ctx.declareEnumDefinition(e.name);
    const variants = e.variants.map((v, tag) => {
      const variantName = ctx.identifierIndex(v.name);
      ctx.declareVariant(handle, def, v.name, v.fields.length, tag);
      const fields = v.fields.map((f) => ({ name: ctx.identifierIndex(f.name), type: compileType(ctx, tps, f.type) }));
      return { variantName, fields };
    });
    enumDefs.push({ enumHandle: handle, variants });
  }

  const functionDefs: BinaryFunctionDefinition[] = ast.functions.map((f, index) => {
    const handle = ctx.functionHandleIndex('Self', f.name);
    names.functions[index] = {
      typeParameters: f.typeParameters.map((p) => p.name),
      parameters: f.parameters.map((p) => p.var.name),
      locals: f.body?.locals.map((l) => l.var.name) ?? [],
    };
    const visibility = f.visibility === 'Public' ? 'Public' : f.visibility === 'Friend' ? 'Friend' : 'Private';
    let code = null;
    if (f.body !== null) {
      const tps: TypeParameterMap = typeParameterIndexes(f.typeParameters);
      code = compileFunctionBody(ctx, tps, f.parameters, f.body.locals, f.body.blocks);
    }
    return { function: handle, visibility, isEntry: f.isEntry, acquiresGlobalResources: [], code };
  });

  const module: CompiledModule = {
    ...emptyModule(7),
    publishable: ast.publishable,
    selfModuleHandleIndex: selfIndex,
    moduleHandles: ctx.moduleHandles.items,
    datatypeHandles: ctx.datatypeHandles.items,
    functionHandles: ctx.materializeFunctionHandles(),
    fieldHandles: ctx.fieldHandles.items,
    friendDecls,
    structDefInstantiations: ctx.structInstantiations.items,
    functionInstantiations: ctx.functionInstantiations.items,
    fieldInstantiations: ctx.fieldInstantiations.items,
    signatures: ctx.signatures.items,
    identifiers: ctx.identifiers.items,
    addressIdentifiers: ctx.addressIdentifiers.items,
    constantPool: ctx.constantPool.items,
    structDefs,
    functionDefs,
    enumDefs,
    enumDefInstantiations: ctx.enumInstantiations.items,
    variantHandles: ctx.variantHandles.items,
    variantInstantiationHandles: ctx.variantInstantiationHandles.items,
  };
  return { module, sourceNames: names };
}

/** Options of {@link compileIrModule}. */
export interface CompileOptions extends ParseOptions, AssembleOptions {}

/** The result of {@link compileIrModule}: the module, its source names and its bytes. */
export interface CompiledIrModule extends AssembledModule {
  bytes: Uint8Array;
}

/**
 * Parses, assembles and serializes one Move IR module, as upstream's
 * `Compiler::into_compiled_module_with_source_map`.
 *
 * @throws {IrParseError | IrCompileError | IrSerializeError} with upstream's message.
 */
export function compileIrModule(text: string, options: CompileOptions = {}): CompiledIrModule {
  const assembled = assembleModule(parseModule(text, options), options);
  return { ...assembled, bytes: serializeAssembled(assembled.module) };
}

/**
 * Serializes an assembled module with `@smi/bytecode`'s serializer, as upstream does when
 * it publishes one.
 *
 * @throws {IrSerializeError} when a binary-format limit is exceeded; the message is
 * upstream's (`value (256) cannot exceed (255)`) for limit checks.
 */
export function serializeAssembled(module: CompiledModule): Uint8Array {
  try {
    return serializeModule(module);
  } catch (e) {
    if (!(e instanceof BytecodeError)) throw e;
    const limit = /(\d+) cannot exceed (\d+)/.exec(e.message);
    throw new IrSerializeError(limit !== null ? `value (${limit[1]}) cannot exceed (${limit[2]})` : e.message);
  }
}
