/**
 * Values and types as the adapter tests write them: `100`, `7u8`, `@A`, `@0x42`, `true`,
 * `vector[1, 2]`, `b"bytes"`, `x"0f"`, `"utf8"`, `struct(1, 2)`, and the Sui extras
 * `object(2,0)`, `object(2,0)@3`, `receiving(2,0)`, `owned(..)`, `immshared(..)`,
 * `mutshared(..)`, `nonexclusive(..)`, `digest(pkg)`, `withdraw<T>(amount)`. Types:
 * `u64`, `vector<T>`, `addr::module::Name<T, ...>` with named or numeric addresses.
 * Unsuffixed integers are `u64` when they fit, `u256` otherwise (upstream's rule).
 */
import { pushUleb128, addressOfNumber } from '@smi/bytecode';
import { AdapterError } from './errors.js';

/** A fake object id: `task,index` as the runner enumerates them, or a known address. */
export type FakeId = { kind: 'enumerated'; task: number; index: number } | { kind: 'known'; address: string };

/** A parsed address: a name to look up, or a number. */
export type ParsedAddress = { kind: 'named'; name: string } | { kind: 'numeric'; value: bigint };

/** A parsed type. */
export type ParsedType =
  | { kind: 'primitive'; name: 'bool' | 'u8' | 'u16' | 'u32' | 'u64' | 'u128' | 'u256' | 'address' | 'signer' }
  | { kind: 'vector'; elem: ParsedType }
  | { kind: 'struct'; address: ParsedAddress; module: string; name: string; typeArgs: ParsedType[] };

export type IntKind = 'u8' | 'u16' | 'u32' | 'u64' | 'u128' | 'u256';

/** Object inputs and how they are passed. */
export type ObjectValueKind = 'object' | 'receiving' | 'owned' | 'immshared' | 'mutshared' | 'nonexclusive';

/** A parsed value. */
export type ParsedValue =
  | { kind: 'address'; address: ParsedAddress }
  | { kind: 'inferred'; value: bigint }
  | { kind: 'int'; type: IntKind; value: bigint }
  | { kind: 'bool'; value: boolean }
  | { kind: 'vector'; elems: ParsedValue[] }
  | { kind: 'struct'; fields: ParsedValue[] }
  | { kind: ObjectValueKind; id: FakeId; version: bigint | null }
  | { kind: 'digest'; package: string }
  | { kind: 'withdraw'; amount: bigint; type: ParsedType };

type Tok = 'num' | 'numTyped' | 'true' | 'false' | 'bytes' | 'hex' | 'utf8' | 'ident' | '@' | '{' | '}' | '[' | ']' | '(' | ')' | '<' | '>' | ',' | ':' | '::' | 'ws';

const IDENT_CHAR = /[A-Za-z0-9_]/;
const MAX: Record<IntKind, bigint> = {
  u8: 0xffn,
  u16: 0xffffn,
  u32: 0xffffffffn,
  u64: (1n << 64n) - 1n,
  u128: (1n << 128n) - 1n,
  u256: (1n << 256n) - 1n,
};

function parseError(msg: string): AdapterError {
  return new AdapterError('PARSE_ERROR', msg);
}

function numberWithSuffix(s: string, len: number): [Tok, number] {
  const rest = s.slice(len);
  if (rest.startsWith('u8')) return ['numTyped', len + 2];
  if (rest.startsWith('u16') || rest.startsWith('u32') || rest.startsWith('u64')) return ['numTyped', len + 3];
  if (rest.startsWith('u128') || rest.startsWith('u256')) return ['numTyped', len + 4];
  return ['num', len];
}

function countWhile(s: string, from: number, re: RegExp): number {
  let i = from;
  while (i < s.length && re.test(s[i])) i++;
  return i - from;
}

function nextToken(s: string): [Tok, number] {
  if (s.startsWith('true') && !IDENT_CHAR.test(s[4] ?? '')) return ['true', 4];
  if (s.startsWith('false') && !IDENT_CHAR.test(s[5] ?? '')) return ['false', 5];
  const c = s[0];
  switch (c) {
    case '@':
    case '{':
    case '}':
    case '[':
    case ']':
    case '(':
    case ')':
    case '<':
    case '>':
    case ',':
      return [c, 1];
    case ':':
      return s[1] === ':' ? ['::', 2] : [':', 1];
    default:
      break;
  }
  if (c === '0' && s[1] === 'x') {
    if (!/[0-9a-fA-F]/.test(s[2] ?? '')) throw parseError(`unrecognized token: ${s}`);
    return numberWithSuffix(s, 3 + countWhile(s, 3, /[0-9a-fA-F_]/));
  }
  if ((c === 'b' || c === 'x') && s[1] === '"') {
    const end = s.indexOf('"', 2);
    if (end < 0) throw parseError(`unexpected end of string before end quote: ${s}`);
    return [c === 'b' ? 'bytes' : 'hex', end + 1];
  }
  if (c === '"') {
    const end = s.indexOf('"', 1);
    if (end < 0) throw parseError(`unexpected end of string before end quote: ${s}`);
    return ['utf8', end + 1];
  }
  if (/[0-9]/.test(c)) return numberWithSuffix(s, 1 + countWhile(s, 1, /[0-9_]/));
  if (/\s/.test(c)) return ['ws', 1 + countWhile(s, 1, /\s/)];
  if (/[A-Za-z_]/.test(c)) return ['ident', 1 + countWhile(s, 1, IDENT_CHAR)];
  throw parseError(`unrecognized token: ${s}`);
}

/** Tokens of a value or type string (whitespace dropped). */
function tokenize(text: string): { tok: Tok; text: string }[] {
  const out: { tok: Tok; text: string }[] = [];
  let s = text;
  while (s.length > 0) {
    const [tok, len] = nextToken(s);
    if (tok !== 'ws') out.push({ tok, text: s.slice(0, len) });
    s = s.slice(len);
  }
  return out;
}

/** Parse an unsigned integer literal (decimal or `0x` hex, `_` separators allowed). */
export function parseUnsigned(text: string): bigint {
  const t = text.replace(/_/g, '');
  if (!/^(0x[0-9a-fA-F]+|[0-9]+)$/.test(t)) throw parseError(`bad number ${text}`);
  return BigInt(t);
}

class Parser {
  private i = 0;
  constructor(
    private readonly toks: { tok: Tok; text: string }[],
    private readonly source: string,
  ) {}

  peek(): { tok: Tok; text: string } | undefined {
    return this.toks[this.i];
  }

  next(): { tok: Tok; text: string } {
    const t = this.toks[this.i];
    if (t === undefined) throw parseError(`unexpected end of input in "${this.source}"`);
    this.i++;
    return t;
  }

  expect(tok: Tok): string {
    const t = this.next();
    if (t.tok !== tok) throw parseError(`expected ${tok}, got "${t.text}" in "${this.source}"`);
    return t.text;
  }

  done(): boolean {
    return this.i >= this.toks.length;
  }

  /** `a, b, c` up to (not consuming) `end`, trailing comma allowed. */
  list<T>(item: () => T, end: Tok): T[] {
    const out: T[] = [];
    while (this.peek()?.tok !== end) {
      out.push(item());
      if (this.peek()?.tok !== ',') break;
      this.next();
    }
    return out;
  }

  address(): ParsedAddress {
    const t = this.next();
    if (t.tok === 'num') return { kind: 'numeric', value: parseUnsigned(t.text) };
    if (t.tok === 'ident') return { kind: 'named', name: t.text };
    throw parseError(`expected an address, got "${t.text}"`);
  }

  type(): ParsedType {
    const t = this.next();
    if (t.tok === 'ident') {
      switch (t.text) {
        case 'bool':
        case 'u8':
        case 'u16':
        case 'u32':
        case 'u64':
        case 'u128':
        case 'u256':
        case 'address':
        case 'signer':
          if (this.peek()?.tok !== '::') return { kind: 'primitive', name: t.text };
          break;
        case 'vector':
          if (this.peek()?.tok === '<') {
            this.expect('<');
            const elem = this.type();
            this.expect('>');
            return { kind: 'vector', elem };
          }
          break;
        default:
          break;
      }
    }
    if (t.tok !== 'ident' && t.tok !== 'num') throw parseError(`expected a type, got "${t.text}" in "${this.source}"`);
    const address: ParsedAddress = t.tok === 'num' ? { kind: 'numeric', value: parseUnsigned(t.text) } : { kind: 'named', name: t.text };
    this.expect('::');
    const module = this.expect('ident');
    this.expect('::');
    const name = this.expect('ident');
    let typeArgs: ParsedType[] = [];
    if (this.peek()?.tok === '<') {
      this.next();
      typeArgs = this.list(() => this.type(), '>');
      this.expect('>');
    }
    return { kind: 'struct', address, module, name, typeArgs };
  }

  private fakeId(what: ObjectValueKind): { id: FakeId; version: bigint | null } {
    this.expect('(');
    const first = parseUnsigned(this.expect('num'));
    let id: FakeId;
    if (this.peek()?.tok === ',') {
      this.next();
      const index = parseUnsigned(this.expect('num'));
      id = { kind: 'enumerated', task: Number(first), index: Number(index) };
    } else {
      id = { kind: 'known', address: addressOfNumber(first) };
    }
    this.expect(')');
    let version: bigint | null = null;
    if (this.peek()?.tok === '@') {
      this.next();
      version = parseUnsigned(this.expect('num'));
    }
    void what;
    return { id, version };
  }

  value(): ParsedValue {
    const p = this.peek();
    if (p?.tok === 'ident') {
      switch (p.text) {
        case 'object':
        case 'receiving':
        case 'owned':
        case 'immshared':
        case 'mutshared':
        case 'nonexclusive': {
          this.next();
          const kind = p.text;
          return { kind, ...this.fakeId(kind) };
        }
        case 'digest': {
          this.next();
          this.expect('(');
          const pkg = this.expect('ident');
          this.expect(')');
          return { kind: 'digest', package: pkg };
        }
        case 'withdraw': {
          this.next();
          this.expect('<');
          const type = this.type();
          this.expect('>');
          this.expect('(');
          const amount = parseUnsigned(this.expect('num'));
          this.expect(')');
          return { kind: 'withdraw', amount, type };
        }
        default:
          break;
      }
    }
    const t = this.next();
    switch (t.tok) {
      case 'num':
        return { kind: 'inferred', value: parseUnsigned(t.text) };
      case 'numTyped': {
        const m = /^(.*?)(u8|u16|u32|u64|u128|u256)$/.exec(t.text);
        if (m === null) throw parseError(`bad number ${t.text}`);
        const type = m[2] as IntKind;
        const value = parseUnsigned(m[1]);
        if (value > MAX[type]) throw parseError(`${t.text} does not fit ${type}`);
        return { kind: 'int', type, value };
      }
      case 'true':
        return { kind: 'bool', value: true };
      case 'false':
        return { kind: 'bool', value: false };
      case 'bytes':
        return bytesValue(new TextEncoder().encode(t.text.slice(2, -1)));
      case 'hex': {
        const hex = t.text.slice(2, -1);
        if (hex.length % 2 !== 0) throw parseError(`odd number of hex digits in ${t.text}`);
        return bytesValue(Uint8Array.from(Buffer.from(hex, 'hex')));
      }
      case 'utf8':
        return bytesValue(new TextEncoder().encode(t.text.slice(1, -1)));
      case '@':
        return { kind: 'address', address: this.address() };
      case 'ident':
        if (t.text === 'vector') {
          this.expect('[');
          const elems = this.list(() => this.value(), ']');
          this.expect(']');
          return { kind: 'vector', elems };
        }
        if (t.text === 'struct') {
          this.expect('(');
          const fields = this.list(() => this.value(), ')');
          this.expect(')');
          return { kind: 'struct', fields };
        }
        break;
      default:
        break;
    }
    throw parseError(`unexpected token "${t.text}" in value "${this.source}"`);
  }
}

function bytesValue(bytes: Uint8Array): ParsedValue {
  return { kind: 'vector', elems: [...bytes].map((b) => ({ kind: 'int', type: 'u8', value: BigInt(b) })) };
}

function parseAll<T>(text: string, f: (p: Parser) => T): T {
  const p = new Parser(tokenize(text), text);
  const out = f(p);
  if (!p.done()) throw parseError(`trailing input in "${text}"`);
  return out;
}

/** Parse one value. */
export function parseValue(text: string): ParsedValue {
  return parseAll(text, (p) => p.value());
}

/** Parse one type. */
export function parseType(text: string): ParsedType {
  return parseAll(text, (p) => p.type());
}

/** Parse `<T1, T2>` (the angle brackets included). */
export function parseTypeArgs(text: string): ParsedType[] {
  return parseAll(text, (p) => {
    p.expect('<');
    const out = p.list(() => p.type(), '>');
    p.expect('>');
    return out;
  });
}

/** Parse a fake id as `view-object` takes it: `2,0` or a number (`0x6`). */
export function parseFakeId(text: string): FakeId {
  const comma = text.indexOf(',');
  if (comma >= 0) return { kind: 'enumerated', task: Number(parseUnsigned(text.slice(0, comma))), index: Number(parseUnsigned(text.slice(comma + 1))) };
  return { kind: 'known', address: addressOfNumber(parseUnsigned(text)) };
}

/** `task,index` or the address of a fake id (as upstream prints it inside `object(...)`). */
export function formatFakeId(id: FakeId): string {
  if (id.kind === 'enumerated') return `${id.task},${id.index}`;
  // Upstream's `FakeID::Known` prints the address in full (`0x{:x}` of an AccountAddress).
  return addressOfNumber(BigInt(id.address));
}

/** Name resolution of addresses (named address → `0x` + 64 hex). */
export type AddressResolver = (name: string) => string | undefined;

/** The canonical address of a parsed address (an unbound name is 0x0, upstream's default mapping). */
export function resolveAddress(a: ParsedAddress, resolve: AddressResolver): string {
  if (a.kind === 'numeric') return addressOfNumber(a.value);
  return resolve(a.name) ?? addressOfNumber(0n);
}

/** A parsed type as a type-tag string with full addresses. */
export function typeTagString(t: ParsedType, resolve: AddressResolver): string {
  switch (t.kind) {
    case 'primitive':
      return t.name;
    case 'vector':
      return `vector<${typeTagString(t.elem, resolve)}>`;
    case 'struct': {
      const base = `${resolveAddress(t.address, resolve)}::${t.module}::${t.name}`;
      return t.typeArgs.length === 0 ? base : `${base}<${t.typeArgs.map((a) => typeTagString(a, resolve)).join(', ')}>`;
    }
  }
}

function leBytes(v: bigint, n: number): number[] {
  const out: number[] = [];
  let x = v;
  for (let i = 0; i < n; i++) {
    out.push(Number(x & 0xffn));
    x >>= 8n;
  }
  return out;
}

const INT_BYTES: Record<IntKind, number> = { u8: 1, u16: 2, u32: 4, u64: 8, u128: 16, u256: 32 };

/** BCS of a pure value (upstream `MoveValue::simple_serialize`). Object values are not pure. */
export function pureBytes(v: ParsedValue, resolve: AddressResolver): Uint8Array {
  const out: number[] = [];
  const walk = (x: ParsedValue): void => {
    switch (x.kind) {
      case 'address':
        out.push(...Buffer.from(resolveAddress(x.address, resolve).slice(2), 'hex'));
        return;
      case 'inferred':
        if (x.value <= MAX.u64) out.push(...leBytes(x.value, 8));
        else out.push(...leBytes(x.value, 32));
        return;
      case 'int':
        out.push(...leBytes(x.value, INT_BYTES[x.type]));
        return;
      case 'bool':
        out.push(x.value ? 1 : 0);
        return;
      case 'vector':
        pushUleb128(out, x.elems.length);
        for (const e of x.elems) walk(e);
        return;
      case 'struct':
        for (const f of x.fields) walk(f);
        return;
      default:
        throw new AdapterError('INVALID_TEST', `${x.kind} values cannot be nested in a pure value`);
    }
  };
  walk(v);
  return Uint8Array.from(out);
}
