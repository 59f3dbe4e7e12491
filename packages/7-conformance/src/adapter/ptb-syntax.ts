/**
 * The `//>` lines of a `programmable` task: PTB commands separated by `;`, each optionally
 * prefixed by its index (`0: SplitCoins(Gas, [Input(0)])`). Commands: `TransferObjects`,
 * `SplitCoins`, `MergeCoins`, `MakeMoveVec<T>`, `Publish(pkg, [deps])`,
 * `Upgrade(pkg, [deps], upgraded, ticket)` and Move calls `addr::module::function<T>(args)`;
 * arguments `Gas`, `Input(i)`, `Result(i)`, `NestedResult(i, j)`. Line and block comments
 * between commands are ignored, as upstream's tokenizer does.
 */
import type { Argument } from '@smi/ptb';
import { AdapterError } from './errors.js';
import { parseTypeArgs, type ParsedType } from './values.js';

/** A parsed PTB command (type arguments and package names still unresolved). */
export type ParsedCommand =
  | { kind: 'MoveCall'; package: string; module: string; function: string; typeArgs: ParsedType[]; args: Argument[] }
  | { kind: 'TransferObjects'; objects: Argument[]; address: Argument }
  | { kind: 'SplitCoins'; coin: Argument; amounts: Argument[] }
  | { kind: 'MergeCoins'; destination: Argument; sources: Argument[] }
  | { kind: 'MakeMoveVec'; type: ParsedType | null; elements: Argument[] }
  | { kind: 'Publish'; package: string; dependencies: string[] }
  | { kind: 'Upgrade'; package: string; dependencies: string[]; upgraded: string; ticket: Argument };

type Tok = 'start' | 'ident' | 'num' | '::' | ':' | ',' | ';' | '[' | ']' | '(' | ')' | 'typeArgs';

function fail(msg: string): AdapterError {
  return new AdapterError('PARSE_ERROR', msg);
}

/** Length of a balanced `open ... close` region at the start of `s`. */
function balanced(s: string, open: string, close: string): number {
  let depth = 0;
  let i = 0;
  while (i < s.length) {
    if (s.startsWith(open, i)) {
      depth++;
      i += open.length;
    } else if (s.startsWith(close, i)) {
      depth--;
      i += close.length;
      if (depth === 0) return i;
    } else i++;
  }
  throw fail(`unbalanced ${open}${close} in "${s}"`);
}

function tokenize(text: string): { tok: Tok; text: string }[] {
  const out: { tok: Tok; text: string }[] = [];
  let s = text;
  while (s.length > 0) {
    let len: number;
    let tok: Tok | null = null;
    if (s.startsWith('<')) {
      len = balanced(s, '<', '>');
      tok = 'typeArgs';
    } else if (s.startsWith('//>')) {
      len = 3;
      tok = 'start';
    } else if (s.startsWith('//')) {
      const nl = s.indexOf('\n');
      const line = nl < 0 ? s.slice(2) : s.slice(2, nl);
      if (/^\s*>/.test(line)) throw fail('Remove whitespace between // and > to start a command');
      len = nl < 0 ? s.length : nl + 1;
    } else if (s.startsWith('/*')) {
      len = balanced(s, '/*', '*/');
    } else if (/^\s/.test(s)) {
      len = /^\s+/.exec(s)?.[0].length ?? 1;
    } else if (s.startsWith('::')) {
      len = 2;
      tok = '::';
    } else if ('(),;[]:'.includes(s[0])) {
      len = 1;
      tok = s[0] as Tok;
    } else if (/^[0-9]/.test(s)) {
      len = /^[0-9][0-9_]*/.exec(s)?.[0].length ?? 1;
      tok = 'num';
    } else if (/^[A-Za-z_]/.test(s)) {
      len = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s)?.[0].length ?? 1;
      tok = 'ident';
    } else {
      throw fail(`unrecognized token: ${s.split('\n')[0]}`);
    }
    if (tok !== null) out.push({ tok, text: s.slice(0, len) });
    s = s.slice(len);
  }
  return out;
}

class CommandParser {
  private i = 0;
  constructor(private readonly toks: { tok: Tok; text: string }[]) {}

  peek(): Tok | undefined {
    return this.toks[this.i]?.tok;
  }

  next(): { tok: Tok; text: string } {
    const t = this.toks[this.i];
    if (t === undefined) throw fail('unexpected end of the commands');
    this.i++;
    return t;
  }

  expect(tok: Tok): string {
    const t = this.next();
    if (t.tok !== tok) throw fail(`expected ${tok}, got "${t.text}"`);
    return t.text;
  }

  done(): boolean {
    return this.i >= this.toks.length;
  }

  list<T>(item: () => T, end: Tok): T[] {
    const out: T[] = [];
    while (this.peek() !== end) {
      out.push(item());
      if (this.peek() !== ',') break;
      this.next();
    }
    return out;
  }

  trailingComma(): void {
    if (this.peek() === ',') this.next();
  }

  u16(): number {
    const n = Number(this.expect('num').replace(/_/g, ''));
    if (!Number.isInteger(n) || n > 0xffff) throw fail('expected u16 for Argument');
    return n;
  }

  argument(): Argument {
    const name = this.expect('ident');
    switch (name) {
      case 'Gas':
        return { $kind: 'GasCoin', GasCoin: true } as Argument;
      case 'Input':
      case 'Result': {
        this.expect('(');
        const n = this.u16();
        this.trailingComma();
        this.expect(')');
        return (name === 'Input' ? { $kind: 'Input', Input: n } : { $kind: 'Result', Result: n }) as Argument;
      }
      case 'NestedResult': {
        this.expect('(');
        const a = this.u16();
        this.expect(',');
        const b = this.u16();
        this.trailingComma();
        this.expect(')');
        return { $kind: 'NestedResult', NestedResult: [a, b] } as Argument;
      }
      default:
        throw fail(`unexpected token ${name}, expected argument identifier`);
    }
  }

  args(open: Tok, close: Tok): Argument[] {
    this.expect(open);
    const out = this.list(() => this.argument(), close);
    this.expect(close);
    return out;
  }

  typeArgsOpt(): ParsedType[] | null {
    if (this.peek() !== 'typeArgs') return null;
    return parseTypeArgs(this.next().text);
  }

  identList(): string[] {
    this.expect('[');
    const out = this.list(() => this.expect('ident'), ']');
    this.expect(']');
    return out;
  }

  command(): ParsedCommand {
    const head = this.expect('ident');
    switch (head) {
      case 'TransferObjects': {
        this.expect('(');
        const objects = this.args('[', ']');
        this.expect(',');
        const address = this.argument();
        this.trailingComma();
        this.expect(')');
        return { kind: 'TransferObjects', objects, address };
      }
      case 'SplitCoins': {
        this.expect('(');
        const coin = this.argument();
        this.expect(',');
        const amounts = this.args('[', ']');
        this.trailingComma();
        this.expect(')');
        return { kind: 'SplitCoins', coin, amounts };
      }
      case 'MergeCoins': {
        this.expect('(');
        const destination = this.argument();
        this.expect(',');
        const sources = this.args('[', ']');
        this.trailingComma();
        this.expect(')');
        return { kind: 'MergeCoins', destination, sources };
      }
      case 'MakeMoveVec': {
        const types = this.typeArgsOpt();
        if (types !== null && types.length !== 1) throw fail(`unexpected multiple type arguments. Expected 1 type argument but got ${types.length}`);
        this.expect('(');
        const elements = this.args('[', ']');
        this.trailingComma();
        this.expect(')');
        return { kind: 'MakeMoveVec', type: types === null ? null : types[0], elements };
      }
      case 'Publish': {
        this.expect('(');
        const pkg = this.expect('ident');
        this.expect(',');
        const dependencies = this.identList();
        this.trailingComma();
        this.expect(')');
        return { kind: 'Publish', package: pkg, dependencies };
      }
      case 'Upgrade': {
        this.expect('(');
        const pkg = this.expect('ident');
        this.expect(',');
        const dependencies = this.identList();
        this.expect(',');
        const upgraded = this.expect('ident');
        this.expect(',');
        const ticket = this.argument();
        this.trailingComma();
        this.expect(')');
        return { kind: 'Upgrade', package: pkg, dependencies, upgraded, ticket };
      }
      default: {
        this.expect('::');
        const module = this.expect('ident');
        this.expect('::');
        const fn = this.expect('ident');
        const typeArgs = this.typeArgsOpt() ?? [];
        const args = this.args('(', ')');
        return { kind: 'MoveCall', package: head, module, function: fn, typeArgs, args };
      }
    }
  }

  commands(): ParsedCommand[] {
    const out: ParsedCommand[] = [];
    while (!this.done()) {
      this.expect('start');
      let annotated: number | null = null;
      if (this.peek() === 'num') {
        annotated = Number(this.next().text.replace(/_/g, ''));
        this.expect(':');
      }
      const c = this.command();
      if (annotated !== null && annotated !== out.length) {
        throw fail(`Actual command index of ${out.length} does not match annotated index ${annotated}`);
      }
      out.push(c);
      if (this.peek() !== ';') break;
      this.next();
    }
    if (!this.done()) throw fail(`Expected end of token stream. Got: ${this.next().text}`);
    return out;
  }
}

/** Parse the body of a `programmable` task (its `//>` lines and comments). */
export function parsePtbCommands(text: string): ParsedCommand[] {
  return new CommandParser(tokenize(text)).commands();
}
