/**
 * Parser building blocks shared by the expression and the module parsers: token
 * matching, names, comma lists, types, type actuals, addresses and literals. The rules
 * and error texts follow upstream `move-ir-to-bytecode-syntax/src/syntax.rs`.
 */
import type { AbilityName, CopyableValue, Type, Var } from './ast.js';
import { IrParseError } from './errors.js';
import type { Lexer, Loc, Tok } from './lexer.js';
import { canonicalAddress } from '@smi/bytecode';

/** An `InvalidToken` parse error at a span. */
export function invalid(location: Loc, message: string): IrParseError {
  return new IrParseError(message, location);
}

/** Span from `start` to the end of the previous token. */
export function spanFrom(tokens: Lexer, start: number): Loc {
  return { start, end: tokens.previousEndLoc() };
}

/** Consumes `tok` when it is next; returns whether it was. */
export function matchToken(tokens: Lexer, tok: Tok): boolean {
  if (tokens.peek() !== tok) return false;
  tokens.advance();
  return true;
}

/** Consumes `tok` or fails with `expected X, not Y`. */
export function consumeToken(tokens: Lexer, tok: Tok): void {
  if (tokens.peek() !== tok) throw invalid(tokens.currentLoc(), `expected ${tok}, not ${tokens.peek()}`);
  tokens.advance();
}

/** Splits `>>` when a list may end with `>`. */
export function adjustToken(tokens: Lexer, endTokens: readonly Tok[]): void {
  if (tokens.peek() === 'GreaterGreater' && endTokens.includes('Greater')) tokens.replaceToken('Greater', 1);
}

/** A comma-separated list ending before one of `endTokens` (not consumed). */
export function parseCommaList<R>(tokens: Lexer, endTokens: readonly Tok[], item: (tokens: Lexer) => R, allowTrailingComma: boolean): R[] {
  const out: R[] = [];
  adjustToken(tokens, endTokens);
  if (endTokens.includes(tokens.peek())) return out;
  for (;;) {
    out.push(item(tokens));
    adjustToken(tokens, endTokens);
    if (endTokens.includes(tokens.peek())) break;
    consumeToken(tokens, 'Comma');
    adjustToken(tokens, endTokens);
    if (endTokens.includes(tokens.peek()) && allowTrailingComma) break;
  }
  return out;
}

/** A plain name (`NameValue`). */
export function parseName(tokens: Lexer): string {
  if (tokens.peek() !== 'NameValue') throw invalid(tokens.currentLoc(), 'expected Tok::NameValue');
  const name = tokens.content();
  tokens.advance();
  return name;
}

/** A name directly followed by `<` (the `<` is part of the token and dropped). */
function parseNameBeginTy(tokens: Lexer): string {
  if (tokens.peek() !== 'NameBeginTyValue') throw invalid(tokens.currentLoc(), 'expected Tok::NameBeginTyValue');
  const s = tokens.content();
  tokens.advance();
  return s.slice(0, -1);
}

/** A variable name with its span. */
export function parseVar(tokens: Lexer): Var {
  const start = tokens.startLoc();
  const name = parseName(tokens);
  return { name, loc: spanFrom(tokens, start) };
}

/** Upstream's rule: a name starting with an ASCII uppercase letter denotes a constant. */
export function isConstantName(name: string): boolean {
  return name.length > 0 && name[0] >= 'A' && name[0] <= 'Z';
}

/** A variable that introduces a binding: it must not look like a constant. */
export function parseBindingVar(tokens: Lexer): Var {
  const v = parseVar(tokens);
  if (isConstantName(v.name)) {
    throw invalid(v.loc, 'local and parameter names must not begin with an uppercase letter (that is reserved for constants)');
  }
  return v;
}

/** Canonical form of an address literal (`0x` + 1..64 hex digits), or `undefined`. */
function hexLiteralAddress(literal: string): string | undefined {
  if (!literal.startsWith('0x')) return undefined;
  const hex = literal.slice(2);
  if (hex.length === 0 || hex.length > 64 || !/^[0-9a-fA-F]+$/.test(hex)) return undefined;
  return canonicalAddress(literal);
}

/** An address: a hex literal or a named address. */
export function parseAccountAddress(tokens: Lexer): string {
  const tok = tokens.peek();
  if (tok !== 'AccountAddressValue' && tok !== 'NameValue') {
    throw invalid(tokens.currentLoc(), 'expected Tok::AccountAddressValue');
  }
  const literal = tokens.content();
  const address = hexLiteralAddress(literal) ?? tokens.resolveNamedAddress(literal);
  if (address === undefined) throw invalid(tokens.currentLoc(), `Invalid address '${literal}'`);
  tokens.advance();
  return address;
}

const INT_TOKENS: Readonly<Partial<Record<Tok, readonly [kind: 'U8' | 'U16' | 'U32' | 'U64' | 'U128' | 'U256', suffix: string, bits: number]>>> = {
  U8Value: ['U8', 'u8', 8],
  U16Value: ['U16', 'u16', 16],
  U32Value: ['U32', 'u32', 32],
  U64Value: ['U64', 'u64', 64],
  U128Value: ['U128', 'u128', 128],
  U256Value: ['U256', 'u256', 256],
};

/** Parses the digits of an integer token of `bits` width (Rust `from_str` rules). */
export function parseUnsigned(digits: string, bits: number, loc: Loc): bigint {
  if (!/^[0-9]+$/.test(digits)) throw invalid(loc, `invalid integer literal: ${digits}`);
  const v = BigInt(digits);
  if (v >> BigInt(bits) !== 0n) throw invalid(loc, `integer literal out of range for u${bits}: ${digits}`);
  return v;
}

/** `true` when the token is a literal accepted by {@link parseCopyableValue}. */
export function isCopyableValueToken(tok: Tok): boolean {
  return tok === 'AccountAddressValue' || tok === 'True' || tok === 'False' || tok === 'ByteArrayValue' || INT_TOKENS[tok] !== undefined;
}

/** A literal: address, boolean, suffixed integer or `h"..."` byte array. */
export function parseCopyableValue(tokens: Lexer): CopyableValue {
  const tok = tokens.peek();
  const loc = tokens.currentLoc();
  if (tok === 'AccountAddressValue') return { $kind: 'Address', address: parseAccountAddress(tokens) };
  if (tok === 'True' || tok === 'False') {
    tokens.advance();
    return { $kind: 'Bool', value: tok === 'True' };
  }
  const int = INT_TOKENS[tok];
  if (int !== undefined) {
    const [kind, suffix, bits] = int;
    let s = tokens.content();
    if (s.endsWith(suffix)) s = s.slice(0, -suffix.length);
    const v = parseUnsigned(s, bits, loc);
    tokens.advance();
    if (kind === 'U8' || kind === 'U16' || kind === 'U32') return { $kind: kind, value: Number(v) };
    return { $kind: kind, value: v };
  }
  if (tok === 'ByteArrayValue') {
    const s = tokens.content();
    const hex = s.slice(2, -1);
    if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw invalid(loc, `The string "${s}" is not a valid hex-encoded byte array`);
    const bytes = new Uint8Array(hex.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
    tokens.advance();
    return { $kind: 'ByteArray', bytes };
  }
  throw invalid(loc, `unrecognized token kind ${tok}`);
}

/** An ability name (`copy` is a keyword token, the others are names). */
export function parseAbility(tokens: Lexer): { ability: AbilityName; loc: Loc } {
  const tok = tokens.peek();
  const content = tokens.content();
  const loc = tokens.currentLoc();
  let ability: AbilityName | undefined;
  if (tok === 'Copy') ability = 'copy';
  else if (tok === 'NameValue' && (content === 'drop' || content === 'store' || content === 'key')) ability = content;
  if (ability === undefined) throw invalid(loc, 'could not parse ability');
  tokens.advance();
  return { ability, loc };
}

const ABILITY_ORDER: readonly AbilityName[] = ['copy', 'drop', 'store', 'key'];

/** Collects abilities into a sorted set; a repeated ability is a user error. */
export function abilitySet(list: readonly { ability: AbilityName; loc: Loc }[]): AbilityName[] {
  const seen = new Set<AbilityName>();
  for (const { ability, loc } of list) {
    if (seen.has(ability)) throw new IrParseError(`Duplicate ability '${ability}'`, loc, 'user');
    seen.add(ability);
  }
  return ABILITY_ORDER.filter((a) => seen.has(a));
}

const PRIMITIVE_TYPES: Readonly<Record<string, 'Address' | 'Signer' | 'U8' | 'U16' | 'U32' | 'U64' | 'U128' | 'U256' | 'Bool'>> = {
  address: 'Address',
  u8: 'U8',
  u16: 'U16',
  u32: 'U32',
  u64: 'U64',
  u128: 'U128',
  u256: 'U256',
  bool: 'Bool',
  signer: 'Signer',
};

/** A type. */
export function parseType(tokens: Lexer): Type {
  const start = tokens.startLoc();
  const tok = tokens.peek();
  const content = tokens.content();
  if (tok === 'NameValue' && Object.hasOwn(PRIMITIVE_TYPES, content)) {
    tokens.advance();
    return { $kind: PRIMITIVE_TYPES[content], loc: spanFrom(tokens, start) };
  }
  if (tok === 'NameBeginTyValue' && content === 'vector<') {
    tokens.advance();
    const inner = parseType(tokens);
    adjustToken(tokens, ['Greater']);
    consumeToken(tokens, 'Greater');
    return { $kind: 'Vector', type: inner, loc: spanFrom(tokens, start) };
  }
  if (tok === 'Amp' || tok === 'AmpMut') {
    tokens.advance();
    const inner = parseType(tokens);
    return { $kind: 'Reference', mutable: tok === 'AmpMut', type: inner, loc: spanFrom(tokens, start) };
  }
  if (tok === 'NameValue' && tokens.lookahead() === 'ColonColon') {
    const module = parseName(tokens);
    consumeToken(tokens, 'ColonColon');
    const [name, typeArguments] = parseNameAndTypeActuals(tokens);
    return { $kind: 'Datatype', module, name, typeArguments, loc: spanFrom(tokens, start) };
  }
  if (tok === 'NameValue') {
    const name = parseName(tokens);
    return { $kind: 'TypeParameter', name, loc: spanFrom(tokens, start) };
  }
  throw invalid(tokens.currentLoc(), `invalid token kind for type ${tok}`);
}

/** Optional `<T1, T2>` after a builtin name. */
export function parseTypeActuals(tokens: Lexer): Type[] {
  if (tokens.peek() !== 'Less') return [];
  tokens.advance();
  const list = parseCommaList(tokens, ['Greater'], parseType, true);
  consumeToken(tokens, 'Greater');
  return list;
}

/** `Name` or `Name<T1, T2>` (the `<` belongs to the name token). */
export function parseNameAndTypeActuals(tokens: Lexer): [string, Type[]] {
  return parseNameAndTypeParameters(tokens, parseType);
}

/** `Name` or `Name<P1, P2>` with a custom parameter parser. */
export function parseNameAndTypeParameters<T>(tokens: Lexer, param: (tokens: Lexer) => T): [string, T[]] {
  if (tokens.peek() === 'NameBeginTyValue') {
    const name = parseNameBeginTy(tokens);
    const list = parseCommaList(tokens, ['Greater'], param, true);
    consumeToken(tokens, 'Greater');
    return [name, list];
  }
  return [parseName(tokens), []];
}
