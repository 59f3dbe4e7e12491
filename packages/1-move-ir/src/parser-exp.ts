/**
 * Expressions, statements and function bodies of Move IR, with upstream's precedence
 * climbing, its disambiguation by one token of lookahead, and its error texts.
 */
import type { BinaryOperator, Block, BuiltinName, Exp, FieldBinding, FieldExp, FunctionBody, FunctionCall, LValue, Statement, Type, UnpackType, Var } from './ast.js';
import type { Lexer, Loc, Tok } from './lexer.js';
import {
  adjustToken,
  consumeToken,
  invalid,
  isConstantName,
  isCopyableValueToken,
  parseAccountAddress,
  parseBindingVar,
  parseCommaList,
  parseCopyableValue,
  parseName,
  parseNameAndTypeActuals,
  parseType,
  parseTypeActuals,
  parseVar,
  spanFrom,
} from './parser-base.js';

type ExpBody = Exp extends infer E ? (E extends unknown ? Omit<E, 'loc'> : never) : never;
type StatementBody = Statement extends infer S ? (S extends unknown ? Omit<S, 'loc'> : never) : never;

const PRECEDENCE: Readonly<Partial<Record<Tok, number>>> = {
  EqualEqualGreater: 1,
  PipePipe: 5,
  AmpAmp: 10,
  EqualEqual: 15,
  ExclaimEqual: 15,
  Less: 15,
  Greater: 15,
  LessEqual: 15,
  GreaterEqual: 15,
  Pipe: 25,
  Caret: 30,
  Amp: 35,
  LessLess: 40,
  GreaterGreater: 40,
  Plus: 45,
  Minus: 45,
  Star: 50,
  Slash: 50,
  Percent: 50,
};

const BINARY_OPERATOR: Readonly<Partial<Record<Tok, BinaryOperator>>> = {
  EqualEqual: 'Eq',
  ExclaimEqual: 'Neq',
  Less: 'Lt',
  Greater: 'Gt',
  LessEqual: 'Le',
  GreaterEqual: 'Ge',
  PipePipe: 'Or',
  AmpAmp: 'And',
  Caret: 'Xor',
  LessLess: 'Shl',
  GreaterGreater: 'Shr',
  Pipe: 'BitOr',
  Amp: 'BitAnd',
  Plus: 'Add',
  Minus: 'Sub',
  Star: 'Mul',
  Slash: 'Div',
  Percent: 'Mod',
};

const BUILTINS: Readonly<Partial<Record<Tok, BuiltinName>>> = {
  VecLen: 'VecLen',
  VecImmBorrow: 'VecImmBorrow',
  VecMutBorrow: 'VecMutBorrow',
  VecPushBack: 'VecPushBack',
  VecPopBack: 'VecPopBack',
  VecSwap: 'VecSwap',
  Freeze: 'Freeze',
  ToU8: 'ToU8',
  ToU16: 'ToU16',
  ToU32: 'ToU32',
  ToU64: 'ToU64',
  ToU128: 'ToU128',
  ToU256: 'ToU256',
};

const precedence = (tok: Tok): number => PRECEDENCE[tok] ?? 0;

function withLoc<T extends object>(body: T, loc: Loc): T & { loc: Loc } {
  return { ...body, loc };
}

/** An expression. */
function parseExp(tokens: Lexer): Exp {
  return parseBinaryRhs(tokens, parseUnaryExp(tokens), 1);
}

function parseBinaryRhs(tokens: Lexer, lhs: Exp, minPrec: number): Exp {
  let result = lhs;
  let nextPrec = precedence(tokens.peek());
  while (nextPrec >= minPrec) {
    const opTok = tokens.peek();
    tokens.advance();
    let rhs = parseUnaryExp(tokens);
    const thisPrec = nextPrec;
    nextPrec = precedence(tokens.peek());
    if (thisPrec < nextPrec) {
      rhs = parseBinaryRhs(tokens, rhs, thisPrec + 1);
      nextPrec = precedence(tokens.peek());
    }
    const op = BINARY_OPERATOR[opTok];
    if (op === undefined) throw invalid(tokens.currentLoc(), `${opTok} is not a binary operator`);
    result = { $kind: 'Binary', op, lhs: result, rhs, loc: { start: result.loc.start, end: tokens.previousEndLoc() } };
  }
  return result;
}

/** A builtin or `Module::function<T>` callee. */
function parseQualifiedFunctionName(tokens: Lexer): FunctionCall {
  const start = tokens.startLoc();
  const tok = tokens.peek();
  const builtin = BUILTINS[tok];
  if (builtin !== undefined) {
    tokens.advance();
    const typeArguments = builtin.startsWith('Vec') ? parseTypeActuals(tokens) : [];
    return { $kind: 'Builtin', builtin, typeArguments, loc: spanFrom(tokens, start) };
  }
  if (tok === 'NameValue') {
    const module = parseName(tokens);
    consumeToken(tokens, 'ColonColon');
    const [name, typeArguments] = parseNameAndTypeActuals(tokens);
    return { $kind: 'ModuleFunction', module, name, typeArguments, loc: spanFrom(tokens, start) };
  }
  throw invalid(tokens.currentLoc(), `unrecognized token kind for qualified function name ${tok}`);
}

function parseBorrowField(tokens: Lexer, mutable: boolean): ExpBody {
  let inner: Exp;
  if (tokens.peek() === 'NameValue') {
    const ahead = tokens.lookahead();
    if (ahead === 'LBrace') {
      const start = tokens.startLoc();
      const name = parseName(tokens);
      const pack = parsePack(tokens, name, []);
      inner = withLoc(pack, spanFrom(tokens, start));
    } else if (ahead === 'ColonColon') {
      inner = parseUnaryExp(tokens);
    } else {
      const v = parseVar(tokens);
      if (isConstantName(v.name)) {
        throw invalid(v.loc, mutable ? 'constants cannot be mutably borrowed' : 'borrowing constants is not yet supported');
      }
      return { $kind: 'BorrowLocal', mutable, var: v };
    }
  } else {
    inner = parseUnaryExp(tokens);
  }
  consumeToken(tokens, 'Period');
  const [struct, typeArguments] = parseNameAndTypeActuals(tokens);
  consumeToken(tokens, 'ColonColon');
  const field = parseName(tokens);
  return { $kind: 'Borrow', mutable, exp: inner, struct, typeArguments, field };
}

function parseUnaryExpBody(tokens: Lexer): ExpBody {
  switch (tokens.peek()) {
    case 'Exclaim':
      tokens.advance();
      return { $kind: 'Not', exp: parseUnaryExp(tokens) };
    case 'Star':
      tokens.advance();
      return { $kind: 'Dereference', exp: parseUnaryExp(tokens) };
    case 'AmpMut':
      tokens.advance();
      return parseBorrowField(tokens, true);
    case 'Amp':
      tokens.advance();
      return parseBorrowField(tokens, false);
    default:
      return parseCallOrTermBody(tokens);
  }
}

function parseUnaryExp(tokens: Lexer): Exp {
  const start = tokens.startLoc();
  const body = parseUnaryExpBody(tokens);
  return withLoc(body, spanFrom(tokens, start)) as Exp;
}

const isVectorPrefix = (tokens: Lexer): boolean => tokens.peek() === 'NameBeginTyValue' && tokens.content() === 'vector<';

function parseVectorPrefix(tokens: Lexer): [Type, bigint] {
  tokens.advance();
  const type = parseType(tokens);
  consumeToken(tokens, 'Semicolon');
  if (tokens.peek() !== 'U64Value') throw invalid(tokens.currentLoc(), 'expected unsigned integer literal');
  let s = tokens.content();
  if (s.endsWith('u64')) s = s.slice(0, -3);
  if (!/^[0-9]+$/.test(s) || BigInt(s) >> 64n !== 0n) throw invalid(tokens.currentLoc(), `invalid u64 literal: ${s}`);
  const arity = BigInt(s);
  tokens.advance();
  adjustToken(tokens, ['Greater']);
  consumeToken(tokens, 'Greater');
  return [type, arity];
}

function parseCallOrTermBody(tokens: Lexer): ExpBody {
  if (isVectorPrefix(tokens)) {
    const [type, count] = parseVectorPrefix(tokens);
    return { $kind: 'VecPack', type, count, args: parseCallOrTerm(tokens) };
  }
  if (tokens.peek() === 'NameValue' && tokens.lookahead() === 'ColonColon') {
    const f = parseQualifiedFunctionName(tokens);
    if (tokens.peek() === 'LBrace') {
      if (f.$kind !== 'ModuleFunction') throw invalid(f.loc, 'Invalid variant pack call');
      return parseVariantPack(tokens, f.module, f.name, f.typeArguments);
    }
    return { $kind: 'Call', call: f, args: parseCallOrTerm(tokens) };
  }
  if (BUILTINS[tokens.peek()] !== undefined) {
    const f = parseQualifiedFunctionName(tokens);
    return { $kind: 'Call', call: f, args: parseCallOrTerm(tokens) };
  }
  return parseTermBody(tokens);
}

function parseCallOrTerm(tokens: Lexer): Exp {
  const start = tokens.startLoc();
  const body = parseCallOrTermBody(tokens);
  return withLoc(body, spanFrom(tokens, start)) as Exp;
}

function parseFieldExp(tokens: Lexer): FieldExp {
  const start = tokens.startLoc();
  const field = parseName(tokens);
  const loc = spanFrom(tokens, start);
  consumeToken(tokens, 'Colon');
  return { field, loc, exp: parseExp(tokens) };
}

function parsePack(tokens: Lexer, name: string, typeArguments: Type[]): ExpBody {
  consumeToken(tokens, 'LBrace');
  const fields = parseCommaList(tokens, ['RBrace'], parseFieldExp, true);
  consumeToken(tokens, 'RBrace');
  return { $kind: 'Pack', name, typeArguments, fields };
}

function parseVariantPack(tokens: Lexer, enumName: string, variant: string, typeArguments: readonly Type[]): ExpBody {
  consumeToken(tokens, 'LBrace');
  const fields = parseCommaList(tokens, ['RBrace'], parseFieldExp, true);
  consumeToken(tokens, 'RBrace');
  return { $kind: 'PackVariant', enum: enumName, variant, typeArguments, fields };
}

function parseTermBody(tokens: Lexer): ExpBody {
  const tok = tokens.peek();
  switch (tok) {
    case 'Move': {
      tokens.advance();
      const v = parseVar(tokens);
      consumeToken(tokens, 'RParen');
      if (isConstantName(v.name)) throw invalid(v.loc, 'constants cannot be moved; use copy(...) to load a constant');
      return { $kind: 'Move', var: v };
    }
    case 'Copy': {
      tokens.advance();
      const v = parseVar(tokens);
      consumeToken(tokens, 'RParen');
      return isConstantName(v.name) ? { $kind: 'Constant', name: v.name } : { $kind: 'Copy', var: v };
    }
    case 'AmpMut':
    case 'Amp': {
      tokens.advance();
      const v = parseVar(tokens);
      const mutable = tok === 'AmpMut';
      if (isConstantName(v.name)) {
        throw invalid(v.loc, mutable ? 'constants cannot be mutably borrowed' : 'borrowing constants is not yet supported');
      }
      return { $kind: 'BorrowLocal', mutable, var: v };
    }
    case 'NameValue':
    case 'NameBeginTyValue': {
      const [name, typeArguments] = parseNameAndTypeActuals(tokens);
      return parsePack(tokens, name, typeArguments);
    }
    case 'LParen': {
      tokens.advance();
      const exps = parseCommaList(tokens, ['RParen'], parseExp, true);
      consumeToken(tokens, 'RParen');
      return { $kind: 'ExprList', exps };
    }
    case 'At': {
      tokens.advance();
      return { $kind: 'Value', value: { $kind: 'Address', address: parseAccountAddress(tokens) } };
    }
    default:
      if (isCopyableValueToken(tok)) return { $kind: 'Value', value: parseCopyableValue(tokens) };
      throw invalid(tokens.currentLoc(), `unrecognized token kind for term ${tok}`);
  }
}

function parseLValue(tokens: Lexer): LValue {
  const start = tokens.startLoc();
  const tok = tokens.peek();
  if (tok === 'NameValue') {
    const v = parseVar(tokens);
    if (isConstantName(v.name)) throw invalid(v.loc, 'cannot assign to a constant');
    return { $kind: 'Var', var: v, loc: spanFrom(tokens, start) };
  }
  if (tok === 'Star') {
    tokens.advance();
    const exp = parseExp(tokens);
    return { $kind: 'Mutate', exp, loc: spanFrom(tokens, start) };
  }
  if (tok === 'Underscore') {
    tokens.advance();
    return { $kind: 'Pop', loc: spanFrom(tokens, start) };
  }
  throw invalid(tokens.currentLoc(), `unrecognized token kind for lvalue ${tok}`);
}

function parseFieldBinding(tokens: Lexer): FieldBinding {
  const start = tokens.startLoc();
  const field = parseName(tokens);
  const loc = spanFrom(tokens, start);
  let v: Var = { name: field, loc };
  if (tokens.peek() === 'Colon') {
    tokens.advance();
    v = parseBindingVar(tokens);
  }
  return { field, loc, var: v };
}

function parseAssign(tokens: Lexer): StatementBody {
  const lvalues = parseCommaList(tokens, ['Equal'], parseLValue, false);
  if (lvalues.length === 0) throw invalid(tokens.currentLoc(), 'could not parse lvalues in assignment');
  consumeToken(tokens, 'Equal');
  return { $kind: 'Assign', lvalues, exp: parseExp(tokens) };
}

function parseVectorUnpack(tokens: Lexer): StatementBody {
  const [type, count] = parseVectorPrefix(tokens);
  consumeToken(tokens, 'LParen');
  const lparenEnd = tokens.previousEndLoc();
  const lvalues = parseCommaList(tokens, ['RParen'], parseLValue, true);
  consumeToken(tokens, 'RParen');
  if (BigInt(lvalues.length) !== count) {
    throw invalid({ start: lparenEnd, end: tokens.previousEndLoc() }, `vector unpack arity mismatch: expected ${count} lvalues, got ${lvalues.length}`);
  }
  consumeToken(tokens, 'Equal');
  return { $kind: 'VecUnpack', type, count, lvalues, exp: parseExp(tokens) };
}

function parseBindings(tokens: Lexer): FieldBinding[] {
  consumeToken(tokens, 'LBrace');
  const bindings = parseCommaList(tokens, ['RBrace'], parseFieldBinding, true);
  consumeToken(tokens, 'RBrace');
  consumeToken(tokens, 'Equal');
  return bindings;
}

function parseUnpack(tokens: Lexer, name: string, typeArguments: Type[]): StatementBody {
  const bindings = parseBindings(tokens);
  return { $kind: 'Unpack', name, typeArguments, bindings, exp: parseExp(tokens) };
}

function parseVariantUnpack(tokens: Lexer, f: FunctionCall, unpackType: UnpackType, what: string): StatementBody {
  if (f.$kind !== 'ModuleFunction') throw invalid(f.loc, `Invalid variant ${what} call`);
  const bindings = parseBindings(tokens);
  const exp = parseExp(tokens);
  return { $kind: 'UnpackVariant', enum: f.module, variant: f.name, typeArguments: f.typeArguments, bindings, exp, unpackType };
}

function parseCallStatement(tokens: Lexer, f: FunctionCall, start: number): StatementBody {
  const args = parseCallOrTerm(tokens);
  const exp: Exp = { $kind: 'Call', call: f, args, loc: spanFrom(tokens, start) };
  return { $kind: 'Exp', exp };
}

function parseLabel(tokens: Lexer): { label: string; labelLoc: Loc } {
  const start = tokens.startLoc();
  const label = parseName(tokens);
  return { label, labelLoc: spanFrom(tokens, start) };
}

function parseStatementBody(tokens: Lexer): StatementBody {
  const tok = tokens.peek();
  switch (tok) {
    case 'Abort':
      tokens.advance();
      return { $kind: 'Abort', exp: tokens.peek() === 'Semicolon' ? null : parseExp(tokens) };
    case 'Assert': {
      tokens.advance();
      const e = parseExp(tokens);
      consumeToken(tokens, 'Comma');
      const error = parseExp(tokens);
      consumeToken(tokens, 'RParen');
      return { $kind: 'Assert', cond: { $kind: 'Not', exp: e, loc: e.loc }, error };
    }
    case 'Jump':
      tokens.advance();
      return { $kind: 'Jump', ...parseLabel(tokens) };
    case 'JumpIf':
    case 'JumpIfFalse': {
      tokens.advance();
      consumeToken(tokens, 'LParen');
      const cond = parseExp(tokens);
      consumeToken(tokens, 'RParen');
      return { $kind: tok, cond, ...parseLabel(tokens) };
    }
    case 'NameValue': {
      const ahead = tokens.lookahead();
      if (ahead === 'LBrace') return parseUnpack(tokens, parseName(tokens), []);
      if (ahead === 'ColonColon') {
        const start = tokens.startLoc();
        const f = parseQualifiedFunctionName(tokens);
        if (tokens.peek() === 'LBrace') return parseVariantUnpack(tokens, f, 'ByValue', 'unpack');
        return parseCallStatement(tokens, f, start);
      }
      return parseAssign(tokens);
    }
    case 'Return': {
      tokens.advance();
      const start = tokens.startLoc();
      const exps = parseCommaList(tokens, ['Semicolon'], parseExp, true);
      return { $kind: 'Return', exp: { $kind: 'ExprList', exps, loc: { start, end: tokens.startLoc() } } };
    }
    case 'Star':
    case 'Underscore':
      return parseAssign(tokens);
    case 'NameBeginTyValue': {
      if (isVectorPrefix(tokens)) return parseVectorUnpack(tokens);
      const [name, typeArguments] = parseNameAndTypeActuals(tokens);
      return parseUnpack(tokens, name, typeArguments);
    }
    case 'VariantSwitch': {
      tokens.advance();
      const enumName = parseName(tokens);
      const exp = parseExp(tokens);
      consumeToken(tokens, 'LBrace');
      const arms = parseCommaList(
        tokens,
        ['RBrace'],
        (t) => {
          const variant = parseName(t);
          consumeToken(t, 'Colon');
          return { variant, label: parseLabel(t).label };
        },
        true,
      );
      consumeToken(tokens, 'RBrace');
      return { $kind: 'VariantSwitch', enum: enumName, arms, exp };
    }
    case 'Amp':
    case 'AmpMut': {
      const loc = tokens.currentLoc();
      tokens.advance();
      const f = parseQualifiedFunctionName(tokens);
      if (tokens.peek() === 'LBrace') return parseVariantUnpack(tokens, f, tok === 'Amp' ? 'ByImmRef' : 'ByMutRef', 'unpack');
      throw invalid(loc, `invalid token kind for statement ${tok}`);
    }
    case 'LParen': {
      tokens.advance();
      const start = tokens.startLoc();
      const exps = parseCommaList(tokens, ['RParen'], parseExp, true);
      consumeToken(tokens, 'RParen');
      return { $kind: 'Exp', exp: { $kind: 'ExprList', exps, loc: { start, end: tokens.startLoc() } } };
    }
    default:
      if (BUILTINS[tok] !== undefined) {
        const start = tokens.startLoc();
        return parseCallStatement(tokens, parseQualifiedFunctionName(tokens), start);
      }
      throw invalid(tokens.currentLoc(), `invalid token kind for statement ${tok}`);
  }
}

function parseStatement(tokens: Lexer): Statement {
  const start = tokens.startLoc();
  const body = parseStatementBody(tokens);
  const statement = withLoc(body, spanFrom(tokens, start)) as Statement;
  consumeToken(tokens, 'Semicolon');
  return statement;
}

function parseBlock(tokens: Lexer): Block {
  const start = tokens.startLoc();
  consumeToken(tokens, 'Label');
  const { label, labelLoc } = parseLabel(tokens);
  consumeToken(tokens, 'Colon');
  const statements: Statement[] = [];
  while (tokens.peek() !== 'Label' && tokens.peek() !== 'RBrace') statements.push(parseStatement(tokens));
  return { label, labelLoc, statements, loc: spanFrom(tokens, start) };
}

/** `{ let x: T; ... label b0: ... }`. */
export function parseFunctionBlock(tokens: Lexer): FunctionBody {
  consumeToken(tokens, 'LBrace');
  const locals: { var: Var; type: Type }[] = [];
  while (tokens.peek() === 'Let') {
    consumeToken(tokens, 'Let');
    const v = parseBindingVar(tokens);
    consumeToken(tokens, 'Colon');
    const type = parseType(tokens);
    consumeToken(tokens, 'Semicolon');
    locals.push({ var: v, type });
  }
  const blocks: Block[] = [];
  while (tokens.peek() !== 'RBrace') blocks.push(parseBlock(tokens));
  consumeToken(tokens, 'RBrace');
  return { locals, blocks };
}
