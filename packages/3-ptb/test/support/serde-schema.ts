/**
 * An independent oracle for our codecs, driven only by Sui's serde-reflection registry
 * (`format__sui.yaml.snap`):
 * - `walk`: a generic BCS decoder that turns bytes of any schema type into Sui serde JSON
 *   (snake_case fields, `"Unit"` / `{ "Variant": payload }` enums, hex addresses, base58
 *   digests), so `fromSerdeJson` + our encoder must give the bytes back;
 * - `randomBcs`: random valid BCS of any schema type (every enum variant in turn);
 * - `compareShape`: our recorded codec structure against the schema (layout and names).
 */
import { readFileSync } from 'node:fs';
import { parseSnapYaml } from '@smi/move-vm';
import { digestToBase58, shapeOf, type AnyCodec } from '@smi/ptb';
import { bytesToHex } from '../../src/bcs/codec.js';
import { rng } from '../../../../test-support/rng.js';

/** A serde-reflection format (or container format) as the YAML parser gives it. */
export type Fmt = string | { [key: string]: unknown };
/** The registry: type name → container format. */
export type Registry = Record<string, Fmt>;

/** Loads the registry from the snap file. */
export function loadSchema(file: string): Registry {
  return parseSnapYaml(readFileSync(file, 'utf8')).body as unknown as Registry;
}

const entries = (o: unknown): [string, unknown][] => Object.entries(o as Record<string, unknown>);
/** `[{ name: fmt }, ...]` (struct fields) as pairs. */
const fieldList = (list: unknown): [string, Fmt][] => (list as Record<string, Fmt>[]).map((f) => entries(f)[0] as [string, Fmt]);
/** `{ "0": { Name: fmt }, ... }` (enum variants) in index order. */
const variantList = (variants: unknown): [string, Fmt][] =>
  entries(variants)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, v]) => entries(v)[0] as [string, Fmt]);
const tag = (fmt: Fmt): [string, unknown] => (typeof fmt === 'string' ? [fmt, null] : entries(fmt)[0]);

const ADDRESS_TYPES = new Set(['AccountAddress', 'SuiAddress']);

class Reader {
  pos = 0;
  constructor(readonly bytes: Uint8Array) {}
  take(n: number): Uint8Array {
    if (this.pos + n > this.bytes.length) throw new Error(`walker: read past end at ${this.pos}`);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  uint(n: number): bigint {
    let v = 0n;
    const b = this.take(n);
    for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]);
    return v;
  }
  uleb(): number {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const b = this.take(1)[0];
      v += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return v;
    }
  }
}

/** Decodes one value of schema type `typeName` from `bytes` into serde JSON; returns it and the bytes consumed. */
export function walk(reg: Registry, typeName: string, bytes: Uint8Array): { value: unknown; consumed: number } {
  const r = new Reader(bytes);
  const value = walkFmt(reg, { TYPENAME: typeName }, r);
  return { value, consumed: r.pos };
}

function walkFmt(reg: Registry, fmt: Fmt, r: Reader): unknown {
  const [kind, arg] = tag(fmt);
  switch (kind) {
    case 'UNIT':
      return null;
    case 'BOOL': {
      const b = r.take(1)[0];
      if (b > 1) throw new Error('walker: bad bool');
      return b === 1;
    }
    case 'U8':
    case 'U16':
    case 'U32':
      return Number(r.uint({ U8: 1, U16: 2, U32: 4 }[kind]));
    case 'U64':
      return r.uint(8).toString();
    case 'STR':
      return new TextDecoder('utf-8', { fatal: true }).decode(r.take(r.uleb()));
    case 'BYTES':
      return [...r.take(r.uleb())];
    case 'OPTION':
      return r.take(1)[0] === 0 ? null : walkFmt(reg, arg as Fmt, r);
    case 'SEQ':
      return Array.from({ length: r.uleb() }, () => walkFmt(reg, arg as Fmt, r));
    case 'TUPLE':
      return (arg as Fmt[]).map((f) => walkFmt(reg, f, r));
    case 'TUPLEARRAY': {
      const { CONTENT, SIZE } = arg as { CONTENT: Fmt; SIZE: number };
      return Array.from({ length: SIZE }, () => walkFmt(reg, CONTENT, r));
    }
    case 'MAP': {
      const { KEY, VALUE } = arg as { KEY: Fmt; VALUE: Fmt };
      return Array.from({ length: r.uleb() }, () => [walkFmt(reg, KEY, r), walkFmt(reg, VALUE, r)]);
    }
    case 'TYPENAME': {
      const name = arg as string;
      if (ADDRESS_TYPES.has(name)) return `0x${bytesToHex(r.take(32))}`;
      if (name === 'Digest') {
        const n = r.uleb();
        return digestToBase58(r.take(n));
      }
      return walkContainer(reg, reg[name], r);
    }
    default:
      throw new Error(`walker: unknown format ${kind}`);
  }
}

function walkContainer(reg: Registry, fmt: Fmt, r: Reader): unknown {
  const [kind, arg] = tag(fmt);
  if (kind === 'NEWTYPESTRUCT' || kind === 'NEWTYPE') return walkFmt(reg, arg as Fmt, r);
  if (kind === 'STRUCT') return Object.fromEntries(fieldList(arg).map(([n, f]) => [n, walkFmt(reg, f, r)]));
  if (kind === 'TUPLESTRUCT' || kind === 'TUPLE') return (arg as Fmt[]).map((f) => walkFmt(reg, f, r));
  if (kind === 'UNITSTRUCT' || kind === 'UNIT') return null;
  if (kind === 'ENUM') {
    const variants = variantList(arg);
    const i = r.uleb();
    if (i >= variants.length) throw new Error(`walker: bad variant ${i}`);
    const [name, vf] = variants[i];
    return vf === 'UNIT' ? name : { [name]: walkContainer(reg, vf, r) };
  }
  throw new Error(`walker: unknown container ${kind}`);
}

/** Deterministic PRNG (mulberry32). */
export const prng = rng;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

function compareBytes(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/**
 * Random valid BCS generator. Enum variants are taken in turn per enum (so enough samples
 * reach every variant); sequences have 0–2 elements and shrink to none past depth 6.
 */
export class RandomBcs {
  private readonly turn = new Map<string, number>();
  /** `enum name → set of variant indices produced`. */
  readonly variantsSeen = new Map<string, Set<number>>();

  constructor(
    private readonly reg: Registry,
    private readonly rand: () => number,
  ) {}

  of(typeName: string): Uint8Array {
    const out: number[] = [];
    this.fmt({ TYPENAME: typeName }, out, 0);
    return Uint8Array.from(out);
  }

  private bytes(n: number, out: number[]): void {
    for (let i = 0; i < n; i++) out.push(Math.floor(this.rand() * 256));
  }

  private fmt(fmt: Fmt, out: number[], depth: number): void {
    const [kind, arg] = tag(fmt);
    const len = (): number => (depth > 6 ? 0 : Math.floor(this.rand() * 3));
    switch (kind) {
      case 'UNIT':
        return;
      case 'BOOL':
        out.push(this.rand() < 0.5 ? 0 : 1);
        return;
      case 'U8':
      case 'U16':
      case 'U32':
      case 'U64':
        this.bytes({ U8: 1, U16: 2, U32: 4, U64: 8 }[kind], out);
        return;
      case 'STR': {
        const n = len() * 3;
        out.push(...uleb(n));
        for (let i = 0; i < n; i++) out.push(97 + Math.floor(this.rand() * 26));
        return;
      }
      case 'BYTES': {
        const n = len() * 5;
        out.push(...uleb(n));
        this.bytes(n, out);
        return;
      }
      case 'OPTION':
        if (depth > 6 || this.rand() < 0.4) out.push(0);
        else {
          out.push(1);
          this.fmt(arg as Fmt, out, depth + 1);
        }
        return;
      case 'SEQ': {
        const n = len();
        out.push(...uleb(n));
        for (let i = 0; i < n; i++) this.fmt(arg as Fmt, out, depth + 1);
        return;
      }
      case 'TUPLE':
        for (const f of arg as Fmt[]) this.fmt(f, out, depth + 1);
        return;
      case 'TUPLEARRAY': {
        const { CONTENT, SIZE } = arg as { CONTENT: Fmt; SIZE: number };
        for (let i = 0; i < SIZE; i++) this.fmt(CONTENT, out, depth + 1);
        return;
      }
      case 'MAP': {
        const { KEY, VALUE } = arg as { KEY: Fmt; VALUE: Fmt };
        const pairs: [number[], number[]][] = [];
        for (let i = len(); i > 0; i--) {
          const k: number[] = [];
          const v: number[] = [];
          this.fmt(KEY, k, depth + 1);
          this.fmt(VALUE, v, depth + 1);
          if (!pairs.some(([pk]) => compareBytes(pk, k) === 0)) pairs.push([k, v]);
        }
        pairs.sort(([a], [b]) => compareBytes(a, b));
        out.push(...uleb(pairs.length));
        for (const [k, v] of pairs) out.push(...k, ...v);
        return;
      }
      case 'TYPENAME': {
        const name = arg as string;
        if (name === 'Digest') {
          out.push(32);
          this.bytes(32, out);
          return;
        }
        this.container(name, this.reg[name], out, depth + 1);
        return;
      }
      default:
        throw new Error(`generator: unknown format ${kind}`);
    }
  }

  private container(name: string, fmt: Fmt, out: number[], depth: number): void {
    const [kind, arg] = tag(fmt);
    if (kind === 'NEWTYPESTRUCT' || kind === 'NEWTYPE') return this.fmt(arg as Fmt, out, depth);
    if (kind === 'STRUCT') return fieldList(arg).forEach(([, f]) => this.fmt(f, out, depth));
    if (kind === 'TUPLESTRUCT' || kind === 'TUPLE') return (arg as Fmt[]).forEach((f) => this.fmt(f, out, depth));
    if (kind === 'UNITSTRUCT' || kind === 'UNIT') return;
    if (kind === 'ENUM') {
      const variants = variantList(arg);
      let i = (this.turn.get(name) ?? 0) % variants.length;
      this.turn.set(name, i + 1);
      // Deep down, prefer a unit variant so recursive types (TypeTag) end.
      if (depth > 8)
        i = Math.max(
          0,
          variants.findIndex(([, vf]) => vf === 'UNIT'),
        );
      let seen = this.variantsSeen.get(name);
      if (seen === undefined) this.variantsSeen.set(name, (seen = new Set()));
      seen.add(i);
      out.push(...uleb(i));
      return this.container(`${name}::${variants[i][0]}`, variants[i][1], out, depth);
    }
    throw new Error(`generator: unknown container ${kind}`);
  }
}

/**
 * Compares our codec's recorded structure with the schema format `fmt`; returns the
 * mismatches (empty when layout and names agree). Enum variant names compare
 * case-insensitively (`TypeTag`'s serde names are lowercase, `TypeInput` reuses it).
 */
export function compareShape(reg: Registry, codec: AnyCodec, fmt: Fmt, path = '$'): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const ids = new WeakMap<object, number>();
  let next = 0;
  const idFor = (c: AnyCodec): number => {
    let id = ids.get(c);
    if (id === undefined) ids.set(c, (id = ++next));
    return id;
  };

  const cmp = (c: AnyCodec, f: Fmt, at: string): void => {
    const ours = shapeOf(c);
    const [kind, arg] = tag(f);
    const bad = (what: string): void => void problems.push(`${at}: ${what} (ours ${ours.kind}${ours.kind === 'leaf' ? `:${ours.leaf}` : ''}, schema ${kind})`);
    if (ours.kind === 'struct' && ours.serde === 'newtype' && !(kind === 'TYPENAME' && tag(reg[arg as string])[0] === 'STRUCT')) {
      if (ours.fields.length !== 1) return bad('newtype struct with several fields');
      return cmp(ours.fields[0].codec, f, `${at}.${ours.fields[0].name}`);
    }
    switch (kind) {
      case 'TYPENAME': {
        const name = arg as string;
        if (ADDRESS_TYPES.has(name)) return ours.kind === 'leaf' && ours.leaf === 'address' ? undefined : bad(`${name} is an address`);
        if (name === 'Digest') return ours.kind === 'leaf' && ours.leaf === 'digest' ? undefined : bad('Digest is a digest');
        const key = `${name}#${idFor(c)}`;
        if (seen.has(key)) return;
        seen.add(key);
        return cmpContainer(c, reg[name], `${at}<${name}>`);
      }
      case 'U8':
      case 'U16':
      case 'U32':
      case 'U64':
      case 'BOOL':
        return ours.kind === 'leaf' && ours.leaf === kind.toLowerCase() ? undefined : bad('primitive');
      case 'STR':
        return ours.kind === 'leaf' && ours.leaf === 'string' ? undefined : bad('string');
      case 'BYTES':
        return ours.kind === 'leaf' && ours.leaf === 'bytes' ? undefined : bad('bytes');
      case 'SEQ':
        if (arg === 'U8' && ours.kind === 'leaf' && ours.leaf === 'bytes') return;
        return ours.kind === 'vector' ? cmp(ours.element, arg as Fmt, `${at}[]`) : bad('sequence');
      case 'OPTION':
        return ours.kind === 'option' ? cmp(ours.element, arg as Fmt, `${at}?`) : bad('option');
      case 'TUPLEARRAY': {
        const { CONTENT, SIZE } = arg as { CONTENT: Fmt; SIZE: number };
        if (CONTENT === 'U8' && ours.kind === 'leaf' && ours.leaf === 'fixedBytes' && ours.size === SIZE) return;
        return bad(`[${String(CONTENT)}; ${SIZE}]`);
      }
      case 'MAP': {
        const { KEY, VALUE } = arg as { KEY: Fmt; VALUE: Fmt };
        if (ours.kind !== 'map') return bad('map');
        cmp(ours.key, KEY, `${at}{key}`);
        return cmp(ours.value, VALUE, `${at}{value}`);
      }
      case 'TUPLE': {
        const list = arg as Fmt[];
        const elems = ours.kind === 'tuple' ? ours.elements : ours.kind === 'struct' && ours.serde === 'tuple' ? ours.fields.map((x) => x.codec) : undefined;
        if (elems === undefined || elems.length !== list.length) return bad(`${list.length}-tuple`);
        return elems.forEach((e, i) => cmp(e, list[i], `${at}.${i}`));
      }
      case 'STRUCT':
        return cmpContainer(c, f, at);
      default:
        return bad(`unsupported schema format ${kind}`);
    }
  };

  const cmpContainer = (c: AnyCodec, f: Fmt, at: string): void => {
    const ours = shapeOf(c);
    const [kind, arg] = tag(f);
    if (kind === 'NEWTYPESTRUCT' || kind === 'NEWTYPE') return cmp(c, arg as Fmt, at);
    if (kind === 'TUPLE' || kind === 'TUPLESTRUCT') return cmp(c, { TUPLE: arg }, at);
    if (kind === 'STRUCT') {
      const fields = fieldList(arg);
      if (ours.kind !== 'struct' || ours.serde !== 'struct') return void problems.push(`${at}: schema struct, ours ${ours.kind}`);
      if (ours.fields.length !== fields.length) return void problems.push(`${at}: ${fields.length} fields in the schema, ${ours.fields.length} ours`);
      return fields.forEach(([n, ff], i) => {
        const mine = ours.fields[i];
        if (mine.serdeName !== n) problems.push(`${at}: field ${i} is ${n} in the schema, ${mine.serdeName} (${mine.name}) ours`);
        cmp(mine.codec, ff, `${at}.${n}`);
      });
    }
    if (kind === 'ENUM') {
      const variants = variantList(arg);
      if (ours.kind !== 'enum') return void problems.push(`${at}: schema enum, ours ${ours.kind}`);
      if (ours.variants.length !== variants.length) problems.push(`${at}: ${variants.length} variants in the schema, ${ours.variants.length} ours`);
      return variants.forEach(([n, vf], i) => {
        const mine = ours.variants[i];
        if (mine === undefined) return;
        if (mine.name.toLowerCase() !== n.toLowerCase()) problems.push(`${at}: variant ${i} is ${n} in the schema, ${mine.name} ours`);
        if (vf === 'UNIT') {
          if (mine.codec !== null) problems.push(`${at}::${n}: unit in the schema, payload ours`);
        } else if (mine.codec === null) problems.push(`${at}::${n}: payload in the schema, unit ours`);
        else cmpContainer(mine.codec, vf, `${at}::${n}`);
      });
    }
    problems.push(`${at}: unsupported container ${kind}`);
  };

  cmp(codec, fmt, path);
  return problems;
}
