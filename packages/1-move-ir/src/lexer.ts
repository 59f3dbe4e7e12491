/**
 * The Move IR lexer, with the token set and the lexing rules of upstream
 * `move-ir-to-bytecode-syntax/src/lexer.rs`: a name directly followed by `<` is one
 * `NameBeginTyValue` token (`vector<`, `T<`), `copy(`, `move(` and `assert(` swallow their
 * parenthesis, `&mut ` needs its space, `//` comments run to the end of the line and
 * `/* *\/` is not a comment. Token names are upstream's `Tok` variant names, so error
 * messages print them exactly as upstream does (`expected Colon, not LParen`).
 */
import { IrParseError, type Loc } from './errors.js';
export type { Loc } from './errors.js';

/** Every token kind, spelled as upstream's `Tok` enum variants. */
export type Tok =
  | 'EOF'
  | 'AccountAddressValue'
  | 'U8Value'
  | 'U16Value'
  | 'U32Value'
  | 'U64Value'
  | 'U128Value'
  | 'U256Value'
  | 'NameValue'
  | 'NameBeginTyValue'
  | 'ByteArrayValue'
  | 'Exclaim'
  | 'ExclaimEqual'
  | 'Percent'
  | 'Amp'
  | 'AmpAmp'
  | 'AmpMut'
  | 'LParen'
  | 'RParen'
  | 'Star'
  | 'Plus'
  | 'Comma'
  | 'Minus'
  | 'Period'
  | 'Slash'
  | 'Colon'
  | 'ColonColon'
  | 'Semicolon'
  | 'Less'
  | 'LessEqual'
  | 'LessLess'
  | 'Equal'
  | 'EqualEqual'
  | 'EqualEqualGreater'
  | 'Greater'
  | 'GreaterEqual'
  | 'GreaterGreater'
  | 'Caret'
  | 'Underscore'
  | 'Abort'
  | 'As'
  | 'Assert'
  | 'Const'
  | 'Copy'
  | 'False'
  | 'Freeze'
  | 'ToU8'
  | 'ToU16'
  | 'ToU32'
  | 'ToU64'
  | 'ToU128'
  | 'ToU256'
  | 'Import'
  | 'Jump'
  | 'JumpIf'
  | 'JumpIfFalse'
  | 'Label'
  | 'Let'
  | 'Mvir'
  | 'Move'
  | 'Native'
  | 'Public'
  | 'Script'
  | 'Friend'
  | 'Return'
  | 'Struct'
  | 'True'
  | 'VecLen'
  | 'VecImmBorrow'
  | 'VecMutBorrow'
  | 'VecPushBack'
  | 'VecPopBack'
  | 'VecSwap'
  | 'LBrace'
  | 'Pipe'
  | 'PipePipe'
  | 'RBrace'
  | 'LSquare'
  | 'RSquare'
  | 'Enum'
  | 'VariantSwitch'
  | 'At';

const KEYWORDS: Readonly<Record<string, Tok>> = {
  _: 'Underscore',
  abort: 'Abort',
  as: 'As',
  const: 'Const',
  copy: 'Copy',
  false: 'False',
  freeze: 'Freeze',
  friend: 'Friend',
  to_u8: 'ToU8',
  to_u16: 'ToU16',
  to_u32: 'ToU32',
  to_u64: 'ToU64',
  to_u128: 'ToU128',
  to_u256: 'ToU256',
  import: 'Import',
  jump: 'Jump',
  jump_if: 'JumpIf',
  jump_if_false: 'JumpIfFalse',
  label: 'Label',
  let: 'Let',
  mvir: 'Mvir',
  native: 'Native',
  public: 'Public',
  return: 'Return',
  script: 'Script',
  struct: 'Struct',
  true: 'True',
  enum: 'Enum',
  variant_switch: 'VariantSwitch',
};

const VECTOR_BUILTINS: Readonly<Record<string, Tok>> = {
  vec_len: 'VecLen',
  vec_imm_borrow: 'VecImmBorrow',
  vec_mut_borrow: 'VecMutBorrow',
  vec_push_back: 'VecPushBack',
  vec_pop_back: 'VecPopBack',
  vec_swap: 'VecSwap',
};

const SINGLE: Readonly<Record<string, Tok>> = {
  '@': 'At',
  '%': 'Percent',
  '(': 'LParen',
  ')': 'RParen',
  '*': 'Star',
  '+': 'Plus',
  ',': 'Comma',
  '-': 'Minus',
  '.': 'Period',
  '/': 'Slash',
  ';': 'Semicolon',
  '^': 'Caret',
  '{': 'LBrace',
  '}': 'RBrace',
  '[': 'LSquare',
  ']': 'RSquare',
};

/** Multi-character operators, longest first within each leading character. */
const OPERATORS: readonly (readonly [string, Tok])[] = [
  ['&mut ', 'AmpMut'],
  ['&&', 'AmpAmp'],
  ['&', 'Amp'],
  ['||', 'PipePipe'],
  ['|', 'Pipe'],
  ['==>', 'EqualEqualGreater'],
  ['==', 'EqualEqual'],
  ['=', 'Equal'],
  ['!=', 'ExclaimEqual'],
  ['!', 'Exclaim'],
  ['<=', 'LessEqual'],
  ['<<', 'LessLess'],
  ['<', 'Less'],
  ['>=', 'GreaterEqual'],
  ['>>', 'GreaterGreater'],
  ['>', 'Greater'],
  ['::', 'ColonColon'],
  [':', 'Colon'],
];

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isHex = (c: string): boolean => isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c === '_';
const isNameStart = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '$' || c === '_';
const isNameChar = (c: string): boolean => isNameStart(c) || isDigit(c);

function runLength(text: string, from: number, pred: (c: string) => boolean): number {
  let i = from;
  while (i < text.length && pred(text[i])) i++;
  return i - from;
}

const NUMBER_SUFFIXES: readonly (readonly [string, Tok])[] = [
  ['u8', 'U8Value'],
  ['u16', 'U16Value'],
  ['u32', 'U32Value'],
  ['u64', 'U64Value'],
  ['u128', 'U128Value'],
  ['u256', 'U256Value'],
];

/**
 * A pull lexer over one IR source text. `peek()` is the current token, `content()` its
 * text; `advance()` moves on. Named addresses (from `//# init --addresses`) are resolved
 * through {@link Lexer.resolveNamedAddress}.
 */
export class Lexer {
  private prevEnd = 0;
  private curStart = 0;
  private curEnd = 0;
  private token: Tok = 'EOF';

  constructor(
    readonly text: string,
    private readonly namedAddresses: ReadonlyMap<string, string> = new Map(),
  ) {}

  /** The current token. */
  peek(): Tok {
    return this.token;
  }

  /** The text of the current token. */
  content(): string {
    return this.text.slice(this.curStart, this.curEnd);
  }

  /** Start offset of the current token. */
  startLoc(): number {
    return this.curStart;
  }

  /** End offset of the previous token. */
  previousEndLoc(): number {
    return this.prevEnd;
  }

  /** Span of the current token. */
  currentLoc(): Loc {
    return { start: this.curStart, end: this.curEnd };
  }

  /** The canonical address bound to a named address, if any. */
  resolveNamedAddress(name: string): string | undefined {
    return this.namedAddresses.get(name);
  }

  private skipTrivia(from: number): number {
    const t = this.text;
    let i = from;
    for (;;) {
      while (t.startsWith('\r\n', i)) i += 2;
      while (i < t.length && (t[i] === '\n' || t[i] === '\t' || t[i] === ' ')) i++;
      if (t.startsWith('//', i)) {
        while (i < t.length && t[i] !== '\n') i++;
        continue;
      }
      return i;
    }
  }

  /** The token after the current one, without moving. */
  lookahead(): Tok {
    return this.findToken(this.skipTrivia(this.curEnd))[0];
  }

  /** Moves to the next token. */
  advance(): void {
    this.prevEnd = this.curEnd;
    this.curStart = this.skipTrivia(this.curEnd);
    const [token, len] = this.findToken(this.curStart);
    this.curEnd = this.curStart + len;
    this.token = token;
  }

  /** Re-reads the current token as a shorter one (`>>` as `>` closing a type list). */
  replaceToken(token: Tok, len: number): void {
    this.token = token;
    this.curEnd = this.curStart + len;
  }

  private findToken(at: number): [Tok, number] {
    const t = this.text;
    if (at >= t.length) return ['EOF', 0];
    const c = t[at];
    if (isDigit(c)) return this.number(at);
    if (isNameStart(c)) return this.name(at);
    const single = SINGLE[c];
    if (single !== undefined) return [single, 1];
    for (const [op, tok] of OPERATORS) if (t.startsWith(op, at)) return [tok, op.length];
    throw new IrParseError(`unrecognized character for token ${rustCharDebug(c)}`, { start: at, end: at });
  }

  private number(at: number): [Tok, number] {
    const t = this.text;
    if ((t.startsWith('0x', at) || t.startsWith('0X', at)) && t.length - at > 2) {
      const hexLen = runLength(t, at + 2, isHex);
      return hexLen === 0 ? ['U64Value', 1] : ['AccountAddressValue', 2 + hexLen];
    }
    const len = runLength(t, at, (ch) => isDigit(ch) || ch === '_');
    for (const [suffix, tok] of NUMBER_SUFFIXES) if (t.startsWith(suffix, at + len)) return [tok, len + suffix.length];
    return ['U64Value', len];
  }

  private name(at: number): [Tok, number] {
    const t = this.text;
    const len = runLength(t, at, isNameChar);
    const name = t.slice(at, at + len);
    const next = t[at + len];
    if (next === '"') {
      if (name === 'h') {
        const hexLen = runLength(t, at + len + 1, isHex);
        if (t[at + len + 1 + hexLen] === '"') return ['ByteArrayValue', 2 + hexLen + 1];
      }
      return [nameToken(name), len];
    }
    if (next === '<') return [VECTOR_BUILTINS[name] ?? 'NameBeginTyValue', VECTOR_BUILTINS[name] ? len : len + 1];
    if (next === '(') {
      if (name === 'assert') return ['Assert', len + 1];
      if (name === 'copy') return ['Copy', len + 1];
      if (name === 'move') return ['Move', len + 1];
    }
    return [nameToken(name), len];
  }
}

function nameToken(name: string): Tok {
  return Object.hasOwn(KEYWORDS, name) ? KEYWORDS[name] : 'NameValue';
}

/** Rust's `{:?}` of a `char`. */
function rustCharDebug(c: string): string {
  const escapes: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\t': '\\t', "'": "\\'", '\\': '\\\\', '\0': '\\0' };
  if (escapes[c] !== undefined) return `'${escapes[c]}'`;
  const code = c.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return `'\\u{${code.toString(16)}}'`;
  return `'${c}'`;
}
