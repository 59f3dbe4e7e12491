/**
 * The Move IR module parser: `[unpublishable] mvir ADDR::Name { friends imports members }`
 * with upstream's member modifiers (`public`, `public(friend)`, `native`, `entry`, each
 * at most once), structs, enums, constants and functions. `parseModule` returns the
 * syntax tree; errors are {@link IrParseError}s with upstream's texts.
 */
import type {
  ConstantDefinition,
  ConstantValue,
  DatatypeTypeParameter,
  EnumDefinition,
  FieldDecl,
  FunctionDefinition,
  FunctionTypeParameter,
  FunctionVisibility,
  ImportDefinition,
  ModuleDefinition,
  ModuleIdent,
  StructDefinition,
  Type,
  VariantDefinition,
  Var,
} from './ast.js';
import { canonicalAddress } from '@smi/bytecode';
import { IrParseError } from './errors.js';
import { Lexer, type Loc } from './lexer.js';
import {
  abilitySet,
  consumeToken,
  invalid,
  isConstantName,
  matchToken,
  parseAbility,
  parseAccountAddress,
  parseBindingVar,
  parseCommaList,
  parseCopyableValue,
  parseName,
  parseNameAndTypeParameters,
  parseType,
  spanFrom,
} from './parser-base.js';
import { parseFunctionBlock } from './parser-exp.js';

/** Options of {@link parseModule}. */
export interface ParseOptions {
  /** Named addresses usable in `mvir A::M`, `import A::M` and `@A`, as name → hex address. */
  namedAddresses?: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
}

/** Characters upstream accepts in a source file (printable ASCII, tab, LF, non-ASCII non-space). */
function checkCharacters(text: string): void {
  const bidi = new Set(['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069']);
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    const x = c.codePointAt(0) ?? 0;
    if ((x >= 0x20 && x <= 0x7e) || x === 0x09 || x === 0x0a) continue;
    if (x === 0x0d && chars[i + 1] === '\n') continue;
    if (x > 0x7f && !/\s/u.test(c) && !bidi.has(c)) continue;
    throw new IrParseError(
      `Invalid character '${c}' found when reading file. For ASCII, only printable characters (tabs '\\t', lf '\\n' and crlf '\\r'+'\\n') are permitted. Unicode can be used, excluding certain control characters.`,
      undefined,
      'plain',
    );
  }
}

function namedAddressMap(given: ParseOptions['namedAddresses']): Map<string, string> {
  const map = new Map<string, string>();
  if (given === undefined) return map;
  const entries = given instanceof Map ? [...given.entries()] : Object.entries(given as Readonly<Record<string, string>>);
  for (const [name, address] of entries) map.set(name, canonicalAddress(address));
  return map;
}

/**
 * Parses one Move IR module.
 *
 * @throws {IrParseError} with upstream's message when the text is not a valid module.
 */
export function parseModule(text: string, options: ParseOptions = {}): ModuleDefinition {
  checkCharacters(text);
  const tokens = new Lexer(text, namedAddressMap(options.namedAddresses));
  tokens.advance();
  const module = parseModuleDefinition(tokens);
  consumeToken(tokens, 'EOF');
  return module;
}

interface Modifiers {
  visibility?: { value: FunctionVisibility; loc: Loc };
  native?: Loc;
  entry?: Loc;
}

function parseModifiers(tokens: Lexer): Modifiers {
  const mods: Modifiers = {};
  const duplicate = (loc: Loc, what: string): IrParseError => invalid(loc, `Duplicate ${what} modifier`);
  for (;;) {
    const tok = tokens.peek();
    if (tok === 'Public') {
      const loc = tokens.currentLoc();
      tokens.advance();
      let value: FunctionVisibility = 'Public';
      if (matchToken(tokens, 'LParen')) {
        if (tokens.peek() !== 'Friend') throw invalid(tokens.currentLoc(), `expected Tok::Friend, not ${tokens.peek()}`);
        tokens.advance();
        consumeToken(tokens, 'RParen');
        value = 'Friend';
      }
      if (mods.visibility !== undefined) throw duplicate(loc, 'visibility');
      mods.visibility = { value, loc };
    } else if (tok === 'Native') {
      const loc = tokens.currentLoc();
      tokens.advance();
      if (mods.native !== undefined) throw duplicate(loc, "'native'");
      mods.native = loc;
    } else if (tok === 'NameValue' && tokens.content() === 'entry') {
      const loc = tokens.currentLoc();
      tokens.advance();
      if (mods.entry !== undefined) throw duplicate(loc, "'entry'");
      mods.entry = loc;
    } else {
      return mods;
    }
  }
}

function checkNoModifier(loc: Loc | undefined, modifier: string, decl: string): void {
  if (loc !== undefined) throw invalid(loc, `'${modifier}' is not a valid modifier on ${decl} declarations`);
}

function requirePublic(mods: Modifiers, keywordLoc: Loc, decl: string): void {
  if (mods.visibility === undefined) throw invalid(keywordLoc, `${decl} declarations require an explicit 'public' visibility`);
  if (mods.visibility.value !== 'Public') {
    throw invalid(mods.visibility.loc, `only 'public' visibility is supported on ${decl} declarations`);
  }
}

function parseTypeParameter(tokens: Lexer): FunctionTypeParameter {
  const start = tokens.startLoc();
  const name = parseName(tokens);
  const loc = spanFrom(tokens, start);
  if (tokens.peek() !== 'Colon') return { name, loc, abilities: [] };
  tokens.advance();
  const list = [parseAbility(tokens)];
  while (matchToken(tokens, 'Plus')) list.push(parseAbility(tokens));
  return { name, loc, abilities: abilitySet(list) };
}

function parseDatatypeTypeParameter(tokens: Lexer): DatatypeTypeParameter {
  let isPhantom = false;
  if (tokens.peek() === 'NameValue' && tokens.content() === 'phantom') {
    tokens.advance();
    isPhantom = true;
  }
  return { ...parseTypeParameter(tokens), isPhantom };
}

function parseDatatypeAbilities(tokens: Lexer): ReturnType<typeof abilitySet> {
  if (tokens.peek() !== 'NameValue' || tokens.content() !== 'has') return [];
  tokens.advance();
  return abilitySet(parseCommaList(tokens, ['LBrace', 'Semicolon'], parseAbility, false));
}

function parseFieldDecl(tokens: Lexer): FieldDecl {
  const start = tokens.startLoc();
  const name = parseName(tokens);
  const loc = spanFrom(tokens, start);
  consumeToken(tokens, 'Colon');
  return { name, loc, type: parseType(tokens) };
}

function parseFields(tokens: Lexer): FieldDecl[] {
  consumeToken(tokens, 'LBrace');
  const fields = parseCommaList(tokens, ['RBrace'], parseFieldDecl, true);
  consumeToken(tokens, 'RBrace');
  return fields;
}

function parseStructDecl(tokens: Lexer, start: number, mods: Modifiers): StructDefinition {
  requirePublic(mods, tokens.currentLoc(), 'struct');
  checkNoModifier(mods.entry, 'entry', 'struct');
  consumeToken(tokens, 'Struct');
  const [name, typeParameters] = parseNameAndTypeParameters(tokens, parseDatatypeTypeParameter);
  const abilities = parseDatatypeAbilities(tokens);
  if (mods.native !== undefined) {
    consumeToken(tokens, 'Semicolon');
    return { $kind: 'Struct', name, abilities, typeParameters, fields: null, loc: spanFrom(tokens, start) };
  }
  const fields = parseFields(tokens);
  return { $kind: 'Struct', name, abilities, typeParameters, fields, loc: spanFrom(tokens, start) };
}

function parseVariantDecl(tokens: Lexer): VariantDefinition {
  const start = tokens.startLoc();
  const name = parseName(tokens);
  const fields = parseFields(tokens);
  return { name, fields, loc: spanFrom(tokens, start) };
}

function parseEnumDecl(tokens: Lexer, start: number, mods: Modifiers): EnumDefinition {
  requirePublic(mods, tokens.currentLoc(), 'enum');
  checkNoModifier(mods.native, 'native', 'enum');
  checkNoModifier(mods.entry, 'entry', 'enum');
  consumeToken(tokens, 'Enum');
  const [name, typeParameters] = parseNameAndTypeParameters(tokens, parseDatatypeTypeParameter);
  const abilities = parseDatatypeAbilities(tokens);
  consumeToken(tokens, 'LBrace');
  const variants = parseCommaList(tokens, ['RBrace'], parseVariantDecl, true);
  consumeToken(tokens, 'RBrace');
  return { $kind: 'Enum', name, abilities, typeParameters, variants, loc: spanFrom(tokens, start) };
}

function parseConstantValue(tokens: Lexer): ConstantValue {
  if (tokens.peek() === 'NameValue' && tokens.content() === 'vector') {
    tokens.advance();
    consumeToken(tokens, 'LParen');
    const elements = parseCommaList(tokens, ['RParen'], parseConstantValue, true);
    consumeToken(tokens, 'RParen');
    return { $kind: 'Vector', elements };
  }
  if (tokens.peek() === 'At') {
    tokens.advance();
    return { $kind: 'Address', address: parseAccountAddress(tokens) };
  }
  if (tokens.peek() === 'U64Value' && !tokens.content().endsWith('u64')) {
    throw invalid(tokens.currentLoc(), 'integer constant value requires a type suffix (e.g. 7u64)');
  }
  const v = parseCopyableValue(tokens);
  if (v.$kind === 'ByteArray') return { $kind: 'Vector', elements: [...v.bytes].map((b) => ({ $kind: 'U8', value: b })) };
  return v;
}

function parseConstantDecl(tokens: Lexer, start: number, mods: Modifiers): ConstantDefinition {
  if (mods.visibility !== undefined) {
    checkNoModifier(mods.visibility.loc, mods.visibility.value === 'Public' ? 'public' : 'public(friend)', 'constant');
  }
  checkNoModifier(mods.native, 'native', 'constant');
  checkNoModifier(mods.entry, 'entry', 'constant');
  consumeToken(tokens, 'Const');
  const nameLoc = tokens.currentLoc();
  const name = parseName(tokens);
  if (!isConstantName(name)) throw invalid(nameLoc, 'constant names must begin with an uppercase letter');
  consumeToken(tokens, 'Colon');
  const type = parseType(tokens);
  consumeToken(tokens, 'Equal');
  const value = parseConstantValue(tokens);
  consumeToken(tokens, 'Semicolon');
  return { $kind: 'Constant', name, type, value, loc: spanFrom(tokens, start) };
}

function parseFunctionDecl(tokens: Lexer, start: number, mods: Modifiers): FunctionDefinition {
  tokens.advance(); // `fun`
  const [name, typeParameters] = parseNameAndTypeParameters(tokens, parseTypeParameter);
  consumeToken(tokens, 'LParen');
  const parameters = parseCommaList(
    tokens,
    ['RParen'],
    (t): { var: Var; type: Type } => {
      const v = parseBindingVar(t);
      consumeToken(t, 'Colon');
      return { var: v, type: parseType(t) };
    },
    true,
  );
  consumeToken(tokens, 'RParen');
  const returns: Type[] = [];
  if (tokens.peek() === 'Colon') {
    tokens.advance();
    returns.push(parseType(tokens));
    while (matchToken(tokens, 'Star')) returns.push(parseType(tokens));
  }
  let body = null;
  if (mods.native !== undefined) consumeToken(tokens, 'Semicolon');
  else body = parseFunctionBlock(tokens);
  return {
    $kind: 'Function',
    name,
    visibility: mods.visibility?.value ?? 'Internal',
    isEntry: mods.entry !== undefined,
    typeParameters,
    parameters,
    returns,
    body,
    loc: spanFrom(tokens, start),
  };
}

function parseModuleIdent(tokens: Lexer): ModuleIdent {
  const address = parseAccountAddress(tokens);
  consumeToken(tokens, 'ColonColon');
  return { address, name: parseName(tokens) };
}

function parseImport(tokens: Lexer): ImportDefinition {
  consumeToken(tokens, 'Import');
  const ident = parseModuleIdent(tokens);
  let alias = ident.name;
  if (tokens.peek() === 'As') {
    tokens.advance();
    const loc = tokens.currentLoc();
    alias = parseName(tokens);
    if (alias === 'Self') throw invalid(loc, "Invalid use of reserved module alias 'Self'");
  }
  consumeToken(tokens, 'Semicolon');
  return { ident, alias };
}

function parseModuleDefinition(tokens: Lexer): ModuleDefinition {
  let publishable = true;
  if (tokens.peek() === 'NameValue' && tokens.content() === 'unpublishable') {
    tokens.advance();
    publishable = false;
  }
  const start = tokens.startLoc();
  consumeToken(tokens, 'Mvir');
  const ident = parseModuleIdent(tokens);
  consumeToken(tokens, 'LBrace');
  const friends: ModuleIdent[] = [];
  while (tokens.peek() === 'Friend') {
    consumeToken(tokens, 'Friend');
    friends.push(parseModuleIdent(tokens));
    consumeToken(tokens, 'Semicolon');
  }
  const imports: ImportDefinition[] = [];
  while (tokens.peek() === 'Import') imports.push(parseImport(tokens));
  const structs: StructDefinition[] = [];
  const enums: EnumDefinition[] = [];
  const constants: ConstantDefinition[] = [];
  const functions: FunctionDefinition[] = [];
  while (tokens.peek() !== 'RBrace') {
    const declStart = tokens.startLoc();
    const mods = parseModifiers(tokens);
    const tok = tokens.peek();
    if (tok === 'Struct') structs.push(parseStructDecl(tokens, declStart, mods));
    else if (tok === 'Enum') enums.push(parseEnumDecl(tokens, declStart, mods));
    else if (tok === 'Const') constants.push(parseConstantDecl(tokens, declStart, mods));
    else if (tok === 'NameValue' && tokens.content() === 'fun') functions.push(parseFunctionDecl(tokens, declStart, mods));
    else throw invalid(tokens.currentLoc(), "expected 'const', 'struct', 'enum', or 'fun' declaration");
  }
  tokens.advance();
  return {
    $kind: 'Module',
    publishable,
    ident,
    friends,
    imports,
    structs,
    enums,
    constants,
    functions,
    loc: spanFrom(tokens, start),
  };
}
