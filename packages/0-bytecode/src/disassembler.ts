/**
 * A disassembler for compiled Move modules: readable text of a whole module or of one
 * function, in the format of the upstream Move disassembler (`move-disassembler` crate,
 * as printed by `sui move disassemble` and by the IR test runner's `print-bytecode`).
 *
 * Only bytecode is available, so names the binary does not hold are generated the way
 * upstream generates them without a source map: parameters `Arg0, Arg1, ...`, locals
 * `loc0, loc1, ...` (numbered from the first non-parameter local, printed after the slot
 * label `L<n>:`), type parameters `Ty0, Ty1, ...` and jump-table variants `Variant0, ...`.
 * Callers that know better names (an IR assembler's source map) pass them in
 * {@link DisassembleOptions.sourceNames}.
 *
 * Example:
 *
 * ```text
 * // Move bytecode v7
 * module 2.coin {
 * use 0000000000000000000000000000000000000000000000000000000000000002::balance;
 *
 * struct Coin<phantom Ty0> has store, key {
 * 	id: UID,
 * 	balance: Balance<Ty0>
 * }
 *
 * public value<Ty0>(Arg0: &Coin<Ty0>): u64 {
 * B0:
 * 	0: MoveLoc[0](Arg0: &Coin<Ty0>)
 * 	1: ImmBorrowFieldGeneric[0](Coin.balance: Balance<Ty0>)
 * 	2: Call balance::value<Ty0>(&Balance<Ty0>): u64
 * 	3: Ret
 * }
 *
 * }
 * ```
 */
import type { CompiledModule, Constant, FunctionDefinition } from './file-format.js';
import { abilityNames, moduleAddress, moduleName, shortAddress } from './module-access.js';
import {
  basicBlockStarts,
  formatConstraints,
  type FunctionFrame,
  type FunctionNames,
  moduleAliases,
  moduleKey,
  renderConstantValue,
  renderInstruction,
  renderType,
  type RenderContext,
  returnList,
  typeList,
} from './disassembler-code.js';
import { SmiError } from './util/error.js';

/** Source-level names of one function, overriding the generated `Ty0`/`Arg0`/`loc0`. */
export interface FunctionSourceNames {
  typeParameters?: readonly string[];
  parameters?: readonly string[];
  /** Names of the locals after the parameters (the function's `locals` signature). */
  locals?: readonly string[];
}

/** Source-level names of a struct or enum, overriding the generated `Ty0`/`Variant0`. */
export interface DatatypeSourceNames {
  typeParameters?: readonly string[];
  /** Enum variant names shown in jump tables (upstream takes them from the source map). */
  variants?: readonly string[];
}

/**
 * Names a source map would provide, keyed by definition index (function, struct or enum
 * definition). Anything missing falls back to the generated name.
 */
export interface DisassemblySourceNames {
  functions?: Readonly<Record<number, FunctionSourceNames | undefined>>;
  structs?: Readonly<Record<number, DatatypeSourceNames | undefined>>;
  enums?: Readonly<Record<number, DatatypeSourceNames | undefined>>;
}

/** Disassembler options; the defaults match `sui move disassemble`. */
export interface DisassembleOptions {
  /** Skip private functions (module disassembly only). Default `false`. */
  onlyPublic?: boolean;
  /** Print instructions and jump tables. Default `true`; `false` prints signatures and locals. */
  printCode?: boolean;
  /** Print the `L<n>:` local declarations. Default `true`. */
  printLocals?: boolean;
  /** Print the `B<n>:` basic-block labels. Default `true`. */
  printBasicBlocks?: boolean;
  /** Better names than the generated ones, as a source map would give them. */
  sourceNames?: DisassemblySourceNames;
}

/** Stable codes of {@link DisassemblerError}. */
export type DisassemblerErrorCode = 'FUNCTION_NOT_FOUND';

/** Error thrown by the disassembler; `code` is stable. */
export class DisassemblerError extends SmiError<DisassemblerErrorCode> {
  override readonly name = 'DisassemblerError';

  constructor(code: DisassemblerErrorCode, message: string) {
    super(code, `${code}: ${message}`);
  }
}

interface Settings {
  readonly onlyPublic: boolean;
  readonly printCode: boolean;
  readonly printLocals: boolean;
  readonly printBasicBlocks: boolean;
  readonly sourceNames: DisassemblySourceNames;
}

function settings(options: DisassembleOptions): Settings {
  return {
    onlyPublic: options.onlyPublic ?? false,
    printCode: options.printCode ?? true,
    printLocals: options.printLocals ?? true,
    printBasicBlocks: options.printBasicBlocks ?? true,
    sourceNames: options.sourceNames ?? {},
  };
}

function renderContext(m: CompiledModule): RenderContext {
  return { m, selfKey: moduleKey(m, m.selfModuleHandleIndex), aliases: moduleAliases(m) };
}

/** `count` names: the given ones where present, else `prefix0, prefix1, ...`. */
function names(count: number, prefix: string, given: readonly string[] | undefined): string[] {
  return Array.from({ length: count }, (_, i) => given?.[i] ?? `${prefix}${i}`);
}

/**
 * Disassemble a whole module: header, imports, structs, enums, functions and constants,
 * in the upstream Move disassembler's format (tab-indented, ending with `}` and a newline).
 */
export function disassembleModule(m: CompiledModule, options: DisassembleOptions = {}): string {
  const s = settings(options);
  const ctx = renderContext(m);
  const out: string[] = [];
  // Upstream prints the address in short form without `0x`: `module 2.coin {`.
  out.push(`// Move bytecode v${m.version}\nmodule ${shortAddress(moduleAddress(m)).slice(2)}.${moduleName(m)} {\n`);
  out.push(importsText(ctx));
  if (m.moduleHandles.length > 0) out.push('\n');
  m.structDefs.forEach((_, i) => out.push(structText(m, i, s), '\n'));
  m.enumDefs.forEach((_, i) => out.push(enumText(m, i, s), '\n'));
  m.functionDefs.forEach((def, i) => {
    // Upstream prints the blank separator even for a function skipped by `onlyPublic`.
    if (!(s.onlyPublic && def.visibility === 'Private')) out.push(functionText(ctx, i, s));
    out.push('\n');
  });
  if (m.constantPool.length > 0) {
    out.push('Constants [\n');
    m.constantPool.forEach((c, i) => out.push(`\t${i} => ${renderType(m, c.type, [])}: ${renderConstantValue(c)}\n`));
    out.push(']\n');
  }
  out.push('}\n');
  return out.join('');
}

/**
 * Disassemble one function definition, found by name: its signature line, locals,
 * instructions and jump tables, ending with `}` and a newline (`;` for a native).
 * `onlyPublic` does not apply here.
 *
 * @throws {DisassemblerError} `FUNCTION_NOT_FOUND` when the module defines no such function.
 */
export function disassembleFunction(m: CompiledModule, name: string, options: DisassembleOptions = {}): string {
  const index = m.functionDefs.findIndex((def) => m.identifiers[m.functionHandles[def.function]?.name] === name);
  if (index < 0) {
    const message = `module ${moduleName(m)} defines no function named ${JSON.stringify(name)}`;
    throw new DisassemblerError('FUNCTION_NOT_FOUND', message);
  }
  return functionText(renderContext(m), index, settings(options));
}

/** The module's `use` lines (the module itself excluded), with aliases for clashing names. */
function importsText(ctx: RenderContext): string {
  const { m } = ctx;
  let out = '';
  m.moduleHandles.forEach((h, i) => {
    const key = moduleKey(m, i);
    if (key === ctx.selfKey) return;
    const address = (m.addressIdentifiers[h.address] ?? '').replace(/^0x/, '');
    const alias = ctx.aliases.get(key);
    out += `use ${address}::${m.identifiers[h.name]}${alias === undefined ? '' : ` as ${alias}`};\n`;
  });
  return out;
}

/** `<phantom Ty0: copy + drop, Ty1>` of a struct or enum. */
function datatypeFormals(m: CompiledModule, handleIndex: number, given: readonly string[] | undefined): { text: string; names: string[] } {
  const params = m.datatypeHandles[handleIndex]?.typeParameters ?? [];
  const tp = names(params.length, 'Ty', given);
  const text = typeList(params.map((p, i) => `${p.isPhantom ? 'phantom ' : ''}${tp[i]}${formatConstraints(p.constraints)}`));
  return { text, names: tp };
}

/** ` has copy, drop` (nothing for no abilities). */
function abilitiesText(set: number): string {
  const list = abilityNames(set);
  return list.length === 0 ? '' : ` has ${list.join(', ')}`;
}

function structText(m: CompiledModule, index: number, s: Settings): string {
  const def = m.structDefs[index];
  const handle = m.datatypeHandles[def.structHandle];
  const formals = datatypeFormals(m, def.structHandle, s.sourceNames.structs?.[index]?.typeParameters);
  const native = def.fieldInformation.$kind === 'Native';
  const name = m.identifiers[handle.name];
  let out = `${native ? 'native ' : ''}struct ${name}${formals.text}${abilitiesText(handle.abilities)} {`;
  if (def.fieldInformation.$kind === 'Declared') {
    const fields = def.fieldInformation.fields.map((f) => `\t${m.identifiers[f.name]}: ${renderType(m, f.type, formals.names)}`);
    out += (fields.length === 0 ? '' : '\n' + fields.join(',\n')) + '\n';
  }
  return out + '}\n';
}

function enumText(m: CompiledModule, index: number, s: Settings): string {
  const def = m.enumDefs[index];
  const handle = m.datatypeHandles[def.enumHandle];
  const formals = datatypeFormals(m, def.enumHandle, s.sourceNames.enums?.[index]?.typeParameters);
  let out = `enum ${m.identifiers[handle.name]}${formals.text}${abilitiesText(handle.abilities)}`;
  if (def.variants.length === 0) return out + '\n';
  const variants = def.variants.map((v) => {
    const fields = v.fields.map((f) => `${m.identifiers[f.name]}: ${renderType(m, f.type, formals.names)}`);
    return `\n\t${m.identifiers[v.variantName]} { ${fields.join(', ')} }`;
  });
  out += ` {${variants.join(',')}\n}\n`;
  return out;
}

/** Names of a function's type parameters, parameters and locals. */
function functionNames(m: CompiledModule, def: FunctionDefinition, given: FunctionSourceNames | undefined): FunctionNames {
  const fh = m.functionHandles[def.function];
  const localCount = def.code === null ? 0 : (m.signatures[def.code.locals]?.length ?? 0);
  return {
    typeParameters: names(fh.typeParameters.length, 'Ty', given?.typeParameters),
    parameters: names(m.signatures[fh.parameters]?.length ?? 0, 'Arg', given?.parameters),
    locals: names(localCount, 'loc', given?.locals),
  };
}

function visibilityText(def: FunctionDefinition): string {
  switch (def.visibility) {
    case 'Public':
      return 'public ';
    case 'Friend':
      return 'public(friend) ';
    case 'Private':
      return '';
  }
}

function functionText(ctx: RenderContext, index: number, s: Settings): string {
  const { m } = ctx;
  const def = m.functionDefs[index];
  const fh = m.functionHandles[def.function];
  const fnNames = functionNames(m, def, s.sourceNames.functions?.[index]);
  const tp = fnNames.typeParameters;
  const parameterTypes = m.signatures[fh.parameters] ?? [];
  const modifiers = `${def.isEntry ? 'entry ' : ''}${def.code === null ? 'native ' : ''}${visibilityText(def)}`;
  const formals = typeList(fh.typeParameters.map((c, i) => `${tp[i]}${formatConstraints(c)}`));
  const params = parameterTypes.map((t, i) => `${fnNames.parameters[i]}: ${renderType(m, t, tp)}`);
  const returns = (m.signatures[fh.return] ?? []).map((t) => renderType(m, t, tp));
  const head = `${modifiers}${m.identifiers[fh.name]}${formals}(${params.join(', ')})${returnList(returns)}`;
  if (def.code === null) return `${head};\n`;

  const code = def.code;
  const localTypes = m.signatures[code.locals] ?? [];
  const lines: string[] = [`${head} {`];
  if (s.printLocals) {
    fnNames.locals.forEach((name, i) => {
      const t = localTypes[i];
      const type = t === undefined ? `ERROR[Unable to get type for local at index ${i}]` : renderType(m, t, tp);
      lines.push(`L${i + parameterTypes.length}:\t${name}: ${type}`);
    });
  }
  if (s.printCode) {
    const frame: FunctionFrame = { names: fnNames, parameterTypes, localTypes };
    const blocks = s.printBasicBlocks ? basicBlockStarts(code) : new Map<number, number>();
    code.code.forEach((instr, pc) => {
      const block = blocks.get(pc);
      if (block !== undefined) lines.push(`B${block}:`);
      lines.push(`\t${pc}: ${renderInstruction(ctx, frame, instr)}`);
    });
    if (code.jumpTables.length > 0) {
      lines.push('Jump tables:');
      code.jumpTables.forEach((jt, i) => {
        const enumDef = m.enumDefs[jt.headEnum];
        const enumName = enumDef === undefined ? `ERROR[Bad enum definition index ${jt.headEnum}]` : m.identifiers[m.datatypeHandles[enumDef.enumHandle].name];
        const variantNames = s.sourceNames.enums?.[jt.headEnum]?.variants;
        lines.push(`[${i}]:\tvariant_switch ${enumName} {`);
        jt.jumpTable.offsets.forEach((offset, tag) => {
          lines.push(`\t\t${variantNames?.[tag] ?? `Variant${tag}`} => jump ${offset}`);
        });
        lines.push('\t}');
      });
    }
  }
  lines.push('}');
  return lines.join('\n') + '\n';
}

/**
 * A constant's value as the disassembler's `Constants` section shows it: numbers, `true`,
 * `0x`-prefixed addresses, UTF-8 `vector<u8>` as a quoted string, else BCS hex.
 */
export const formatConstantValue: (c: Constant) => string = renderConstantValue;
