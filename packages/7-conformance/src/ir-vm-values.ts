/**
 * Values of the IR VM suite: `--args` as upstream's transactional test runner reads them
 * (`ParsedValue` of move-core-types: `0`, `7u8`, `true`, `@0x1`, `b"hi"`, `x"0a"`,
 * `vector[..]`), serialized to BCS as `MoveValue::simple_serialize` does, and results
 * printed as the runner prints them (`print_value` of the VM: `{ 0 }` for structs,
 * `[1, 2]` for vectors, `|1|{ .. }` for enum variants, `(&) ` before references).
 */
import { addressBytes, canonicalAddress, pushUleb128, SmiError, type SmiErrorOptions } from '@smi/bytecode';
import { MoveVector, TypeKind, VariantValue, peekRef, type Type, type TypeTable } from '@smi/move-vm';

/** A value parsed from `--args`, before serialization (upstream `MoveValue`). */
export type RunValue =
  | { $kind: 'U8' | 'U16' | 'U32' | 'U64' | 'U128' | 'U256'; value: bigint }
  | { $kind: 'Bool'; value: boolean }
  | { $kind: 'Address'; value: string }
  | { $kind: 'Vector'; elems: RunValue[] };

const WIDTH: Readonly<Record<string, number>> = { U8: 1, U16: 2, U32: 4, U64: 8, U128: 16, U256: 32 };
const SUFFIX = /^(u8|u16|u32|u64|u128|u256)/;

/** Resolves a named address (`std`) to its canonical form, or `undefined`. */
export type AddressLookup = (name: string) => string | undefined;

/** Thrown for `--args` text the runner cannot read. */
export class RunValueError extends SmiError<'INVALID_RUN_VALUE'> {
  constructor(message: string, options?: SmiErrorOptions) {
    super('INVALID_RUN_VALUE', message, options);
  }
  override readonly name = 'RunValueError';
}

/** Reads one `--args` word (upstream `ParsedValue::parse` then `into_concrete_value`). */
export function parseRunValue(text: string, lookup: AddressLookup): RunValue {
  let pos = 0;
  const src = text;
  const ws = (): void => {
    while (pos < src.length && /\s/.test(src[pos])) pos++;
  };
  const fail = (msg: string): never => {
    throw new RunValueError(`cannot read the argument ${JSON.stringify(text)}: ${msg}`);
  };
  const number = (): RunValue => {
    const m = /^(0x[0-9a-fA-F_]+|[0-9][0-9_]*)/.exec(src.slice(pos));
    if (m === null) return fail(`expected a value at ${pos}`);
    pos += m[0].length;
    const digits = m[0].replace(/_/g, '');
    const n = BigInt(digits);
    const suffix = SUFFIX.exec(src.slice(pos));
    if (suffix !== null) {
      pos += suffix[0].length;
      const kind = suffix[0].toUpperCase() as Extract<RunValue, { value: bigint }>['$kind'];
      if (n >> BigInt(WIDTH[kind] * 8) !== 0n) fail(`${digits} does not fit in ${suffix[0]}`);
      return { $kind: kind, value: n };
    }
    if (n <= 0xffff_ffff_ffff_ffffn) return { $kind: 'U64', value: n };
    if (n >> 256n !== 0n) fail(`${digits} does not fit in u256`);
    return { $kind: 'U256', value: n };
  };
  const bytes = (quoteStart: number, hex: boolean): RunValue => {
    const end = src.indexOf('"', quoteStart + 1);
    if (end < 0) return fail('unterminated string');
    const body = src.slice(quoteStart + 1, end);
    pos = end + 1;
    let out: number[];
    if (hex) {
      if (!/^([0-9a-fA-F]{2})*$/.test(body)) fail('bad hex string');
      out = (body.match(/../g) ?? []).map((h) => parseInt(h, 16));
    } else {
      if (body.includes('\\')) fail('escapes are not supported');
      out = [...Buffer.from(body, 'utf8')];
    }
    return { $kind: 'Vector', elems: out.map((b) => ({ $kind: 'U8', value: BigInt(b) })) };
  };
  const value = (): RunValue => {
    ws();
    const rest = src.slice(pos);
    if (rest.startsWith('true')) {
      pos += 4;
      return { $kind: 'Bool', value: true };
    }
    if (rest.startsWith('false')) {
      pos += 5;
      return { $kind: 'Bool', value: false };
    }
    if (rest.startsWith('@')) {
      pos++;
      const m = /^(0x[0-9a-fA-F_]+|[0-9][0-9_]*|[A-Za-z_][A-Za-z0-9_]*)/.exec(src.slice(pos));
      if (m === null) return fail('expected an address after @');
      pos += m[0].length;
      const word = m[0].replace(/_/g, '');
      if (/^[0-9]/.test(word)) {
        const n = BigInt(word);
        if (n >> 256n !== 0n) fail('address too large');
        return { $kind: 'Address', value: canonicalAddress(`0x${n.toString(16)}`) };
      }
      const named = lookup(m[0]);
      if (named === undefined) return fail(`unknown named address ${m[0]}`);
      return { $kind: 'Address', value: named };
    }
    if (rest.startsWith('b"')) return bytes(pos + 1, false);
    if (rest.startsWith('x"')) return bytes(pos + 1, true);
    if (rest.startsWith('"')) return bytes(pos, false);
    if (rest.startsWith('vector[')) {
      pos += 7;
      const elems: RunValue[] = [];
      ws();
      if (src[pos] === ']') {
        pos++;
        return { $kind: 'Vector', elems };
      }
      for (;;) {
        elems.push(value());
        ws();
        if (src[pos] === ',') {
          pos++;
          ws();
          if (src[pos] === ']') {
            pos++;
            break;
          }
          continue;
        }
        if (src[pos] === ']') {
          pos++;
          break;
        }
        fail(`expected , or ] at ${pos}`);
      }
      return { $kind: 'Vector', elems };
    }
    return number();
  };
  const v = value();
  ws();
  if (pos !== src.length) fail(`unexpected text at ${pos}`);
  return v;
}

/** BCS of a value (upstream `MoveValue::simple_serialize`). */
export function runValueBcs(v: RunValue): Uint8Array {
  const out: number[] = [];
  const write = (x: RunValue): void => {
    switch (x.$kind) {
      case 'Bool':
        out.push(x.value ? 1 : 0);
        return;
      case 'Address':
        out.push(...addressBytes(x.value));
        return;
      case 'Vector':
        pushUleb128(out, x.elems.length);
        x.elems.forEach(write);
        return;
      default: {
        let n = x.value;
        for (let i = 0; i < WIDTH[x.$kind]; i++) {
          out.push(Number(n & 0xffn));
          n >>= 8n;
        }
      }
    }
  };
  write(v);
  return Uint8Array.from(out);
}

/** BCS of a signer argument (the address bytes, as `MoveValue::Signer`). */
export function signerBcs(address: string): Uint8Array {
  return Uint8Array.from(addressBytes(address));
}

const hex64 = (address: string): string => canonicalAddress(address).slice(2);

function isRef(t: Type): boolean {
  return t.kind === TypeKind.Reference || t.kind === TypeKind.MutableReference;
}

/**
 * Upstream's `print_value` of a VM value of type `type` (`(&) ` first for references). The
 * type gives the layout: struct fields come from the datatype, signers print as the struct
 * `{ <address> }` the VM keeps them in. `types` instantiates generic field types.
 */
export function formatRunValue(value: unknown, type: Type, types: TypeTable): string {
  if (isRef(type)) return `(&) ${formatRunValue(peekRef(value), type.elem as Type, types)}`;
  const v = peekRef(value);
  switch (type.kind) {
    case TypeKind.Bool:
    case TypeKind.U8:
    case TypeKind.U16:
    case TypeKind.U32:
    case TypeKind.U64:
    case TypeKind.U128:
    case TypeKind.U256:
      return String(v);
    case TypeKind.Address:
      return hex64(String(v));
    case TypeKind.Signer:
      return `{ ${hex64(String(v))} }`;
    case TypeKind.Vector: {
      const elems = v instanceof MoveVector ? v.toArray() : Array.isArray(v) ? v : [];
      return `[${elems.map((e) => formatRunValue(e, type.elem as Type, types)).join(', ')}]`;
    }
    case TypeKind.Datatype: {
      const info = type.datatype;
      if (info === null) return String(v);
      const field = (t: Type | undefined): Type => (t === undefined ? type : types.subst(t, type.typeArgs));
      if (v instanceof VariantValue) {
        const variant = info.variants()[v.tag];
        const fields = v.fields.map((f, i) => formatRunValue(f, field(variant?.fields[i]?.type), types));
        return `|${v.tag}|{ ${fields.join(', ')} }`;
      }
      const defs = info.fields();
      const fields = Array.isArray(v) ? v : [];
      return `{ ${fields.map((f, i) => formatRunValue(f, field(defs[i]?.type), types)).join(', ')} }`;
    }
    default:
      return String(v);
  }
}
