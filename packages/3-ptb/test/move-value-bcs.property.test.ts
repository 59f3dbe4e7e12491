/**
 * Property test of the VM's BCS codec (`BcsCodec` of @smi/move-vm: how `0x1::bcs::to_bytes`,
 * constants, arguments and return values travel) against @mysten/bcs: for arbitrary Move
 * types (bool, u8..u256, address, vectors, structs and enums built from generated layouts,
 * a generic struct instantiated with them) and arbitrary values of them, our bytes are
 * @mysten/bcs's byte for byte, both decoders give the value back, and every strict prefix
 * or extended input is refused with our typed error (BCS is prefix-free for a fixed type).
 * Seeded: the same cases on every run.
 */
import { bcs, type BcsType, BcsWriter } from '@mysten/bcs';
import { pushUleb128, writeUleb128 } from '@smi/bytecode';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BcsCodec, type DatatypeInfo, MoveVector, type Type, TypeTable, VariantValue, vecKindOf, VmError } from '@smi/move-vm';

// ---------------------------------------------------------------------------------------
// Layouts and plain values
// ---------------------------------------------------------------------------------------

const INTEGERS = { u8: 8, u16: 16, u32: 32, u64: 64, u128: 128, u256: 256 } as const;
type IntName = keyof typeof INTEGERS;
type Layout =
  | { k: 'bool' }
  | { k: 'address' }
  | { k: IntName }
  | { k: 'vector'; of: Layout }
  | { k: 'struct'; fields: Layout[] }
  | { k: 'enum'; variants: Layout[][] }
  /** `Box<T> { value: T, items: vector<T> }`: a generic struct instantiated with `arg`. */
  | { k: 'box'; arg: Layout };

/** A value as this test writes it: integers as bigints, addresses as 0x + 64 hex, structs as arrays. */
type Plain = boolean | bigint | string | Plain[] | { tag: number; fields: Plain[] };

const leaf = fc.constantFrom<Layout>({ k: 'bool' }, { k: 'address' }, ...(Object.keys(INTEGERS) as IntName[]).map((k): Layout => ({ k })));

const { layout } = fc.letrec<{ layout: Layout }>((tie) => ({
  layout: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    leaf,
    tie('layout').map((of): Layout => ({ k: 'vector', of })),
    // A struct has at least one field (the verifier refuses ZERO_SIZED_STRUCT; the compiler
    // gives a fieldless struct a `dummy_field: bool`). Enum variants may have none.
    fc.array(tie('layout'), { minLength: 1, maxLength: 4 }).map((fields): Layout => ({ k: 'struct', fields })),
    fc.array(fc.array(tie('layout'), { maxLength: 3 }), { minLength: 1, maxLength: 4 }).map((variants): Layout => ({ k: 'enum', variants })),
    tie('layout').map((arg): Layout => ({ k: 'box', arg })),
  ),
}));

const hexOf = (bytes: Uint8Array): string => '0x' + Buffer.from(bytes).toString('hex');

function valueArb(l: Layout): fc.Arbitrary<Plain> {
  switch (l.k) {
    case 'bool':
      return fc.boolean();
    case 'address':
      return fc.uint8Array({ minLength: 32, maxLength: 32 }).map(hexOf);
    case 'vector':
      // Long enough for two-byte ULEB128 lengths where the elements are bytes.
      return fc.array(valueArb(l.of), { maxLength: l.of.k === 'u8' ? 200 : 4 });
    case 'struct':
      return fc.tuple(...l.fields.map(valueArb));
    case 'enum':
      return fc.nat(l.variants.length - 1).chain((tag) => fc.tuple(...l.variants[tag].map(valueArb)).map((fields) => ({ tag, fields })));
    case 'box':
      return fc.tuple(valueArb(l.arg), fc.array(valueArb(l.arg), { maxLength: 3 }));
    default:
      return fc.bigInt({ min: 0n, max: (1n << BigInt(INTEGERS[l.k])) - 1n });
  }
}

// ---------------------------------------------------------------------------------------
// Ours: runtime types and values of @smi/move-vm
// ---------------------------------------------------------------------------------------

const table = new TypeTable();
const codec = new BcsCodec(table);

function datatype(
  name: string,
  fields: () => { name: string; type: Type }[],
  variants: () => { name: string; fields: { name: string; type: Type }[] }[],
  typeParams: DatatypeInfo['typeParams'] = [],
): DatatypeInfo {
  const address = '0x' + 'c0ffee'.padStart(64, '0');
  return { uid: table.datatypeUid(), address, module: 'm', name, definingId: address, abilities: 0x7, typeParams, isEnum: variants().length > 0, fields, variants };
}

const T0 = table.typeParameter(0);
const BOX = datatype(
  'Box',
  () => [
    { name: 'value', type: T0 },
    { name: 'items', type: table.vector(T0) },
  ],
  () => [],
  [{ constraints: 0, isPhantom: false }],
);

let structs = 0;
function typeOf(l: Layout): Type {
  switch (l.k) {
    case 'bool':
      return table.bool;
    case 'address':
      return table.address;
    case 'vector':
      return table.vector(typeOf(l.of));
    case 'struct': {
      const fields = l.fields.map((f, i) => ({ name: `f${i}`, type: typeOf(f) }));
      return table.datatype(
        datatype(
          `S${structs++}`,
          () => fields,
          () => [],
        ),
        [],
      );
    }
    case 'enum': {
      const variants = l.variants.map((fs, v) => ({ name: `V${v}`, fields: fs.map((f, i) => ({ name: `f${i}`, type: typeOf(f) })) }));
      return table.datatype(
        datatype(
          `E${structs++}`,
          () => [],
          () => variants,
        ),
        [],
      );
    }
    case 'box':
      return table.datatype(BOX, [typeOf(l.arg)]);
    default:
      return table[l.k];
  }
}

/** Our runtime value of `v` (u8..u32 as numbers, wider as bigints, vectors as MoveVectors). */
function ours(l: Layout, t: Type, v: Plain): unknown {
  switch (l.k) {
    case 'bool':
    case 'address':
      return v;
    case 'vector': {
      const elem = t.elem as Type;
      return MoveVector.fromValues(
        vecKindOf(elem),
        (v as Plain[]).map((x) => ours(l.of, elem, x)),
      );
    }
    case 'struct': {
      const fields = (t.datatype as DatatypeInfo).fields();
      return (v as Plain[]).map((x, i) => ours(l.fields[i], fields[i].type, x));
    }
    case 'enum': {
      const { tag, fields } = v as { tag: number; fields: Plain[] };
      const decl = (t.datatype as DatatypeInfo).variants()[tag].fields;
      return new VariantValue(
        tag,
        fields.map((x, i) => ours(l.variants[tag][i], decl[i].type, x)),
      );
    }
    case 'box': {
      const [value, items] = v as [Plain, Plain[]];
      const arg = t.typeArgs[0];
      return [
        ours(l.arg, arg, value),
        MoveVector.fromValues(
          vecKindOf(arg),
          items.map((x) => ours(l.arg, arg, x)),
        ),
      ];
    }
    default:
      return INTEGERS[l.k] <= 32 ? Number(v) : v;
  }
}

/** The plain value of one of our decoded values. */
function fromOurs(l: Layout, v: unknown): Plain {
  switch (l.k) {
    case 'bool':
      return v as boolean;
    case 'address':
      return v as string;
    case 'vector': {
      const vec = v as MoveVector;
      return Array.from({ length: vec.length }, (_, i) => fromOurs(l.of, vec.get(i)));
    }
    case 'struct':
      return (v as unknown[]).map((x, i) => fromOurs(l.fields[i], x));
    case 'enum': {
      const e = v as VariantValue;
      return { tag: e.tag, fields: e.fields.map((x, i) => fromOurs(l.variants[e.tag][i], x)) };
    }
    case 'box': {
      const [value, items] = v as [unknown, MoveVector];
      return [fromOurs(l.arg, value), fromOurs({ k: 'vector', of: l.arg }, items)];
    }
    default:
      return BigInt(v as number | bigint);
  }
}

// ---------------------------------------------------------------------------------------
// Theirs: @mysten/bcs schemas and values
// ---------------------------------------------------------------------------------------

/** A schema of any layout: what it parses is checked by `fromTheirs`, what it takes is built by `theirs`. */
type Schema = BcsType<unknown, unknown>;

function schemaOf(l: Layout): Schema {
  const s = <T, I>(x: BcsType<T, I>): Schema => x as unknown as Schema;
  switch (l.k) {
    case 'bool':
      return s(bcs.bool());
    case 'address':
      return s(bcs.bytes(32));
    case 'vector':
      return s(bcs.vector(schemaOf(l.of)));
    case 'struct':
      return s(bcs.struct('S', Object.fromEntries(l.fields.map((f, i) => [`f${i}`, schemaOf(f)]))));
    case 'enum':
      return s(bcs.enum('E', Object.fromEntries(l.variants.map((fs, v) => [`V${v}`, fs.length === 0 ? null : bcs.struct(`V${v}`, Object.fromEntries(fs.map((f, i) => [`f${i}`, schemaOf(f)])))]))));
    case 'box':
      return s(bcs.struct('Box', { value: schemaOf(l.arg), items: bcs.vector(schemaOf(l.arg)) }));
    case 'u8':
      return s(bcs.u8());
    case 'u16':
      return s(bcs.u16());
    case 'u32':
      return s(bcs.u32());
    case 'u64':
      return s(bcs.u64());
    case 'u128':
      return s(bcs.u128());
    case 'u256':
      return s(bcs.u256());
  }
}

/** `v` as @mysten/bcs takes it. */
function theirs(l: Layout, v: Plain): unknown {
  switch (l.k) {
    case 'bool':
      return v;
    case 'address':
      return Uint8Array.from(Buffer.from((v as string).slice(2), 'hex'));
    case 'vector':
      return (v as Plain[]).map((x) => theirs(l.of, x));
    case 'struct':
      return Object.fromEntries((v as Plain[]).map((x, i) => [`f${i}`, theirs(l.fields[i], x)]));
    case 'enum': {
      const { tag, fields } = v as { tag: number; fields: Plain[] };
      return { [`V${tag}`]: fields.length === 0 ? true : Object.fromEntries(fields.map((x, i) => [`f${i}`, theirs(l.variants[tag][i], x)])) };
    }
    case 'box': {
      const [value, items] = v as [Plain, Plain[]];
      return { value: theirs(l.arg, value), items: items.map((x) => theirs(l.arg, x)) };
    }
    default:
      return INTEGERS[l.k] <= 32 ? Number(v) : v;
  }
}

/** The plain value of what @mysten/bcs parsed. */
function fromTheirs(l: Layout, v: unknown): Plain {
  switch (l.k) {
    case 'bool':
      return v as boolean;
    case 'address':
      return hexOf(v as Uint8Array);
    case 'vector':
      return (v as unknown[]).map((x) => fromTheirs(l.of, x));
    case 'struct':
      return l.fields.map((f, i) => fromTheirs(f, (v as Record<string, unknown>)[`f${i}`]));
    case 'enum': {
      const kind = (v as { $kind: string }).$kind;
      const tag = Number(kind.slice(1));
      const body = (v as Record<string, unknown>)[kind] as Record<string, unknown>;
      return { tag, fields: l.variants[tag].map((f, i) => fromTheirs(f, body[`f${i}`])) };
    }
    case 'box': {
      const b = v as { value: unknown; items: unknown[] };
      return [fromTheirs(l.arg, b.value), b.items.map((x) => fromTheirs(l.arg, x))];
    }
    default:
      return BigInt(v as number | string);
  }
}

// ---------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------

const cases = layout.chain((l) => valueArb(l).map((v): [Layout, Plain] => [l, v]));

/** Our error for bytes that are not a value of the type (anything else fails the property). */
function refusal(bytes: Uint8Array, t: Type): string | null {
  try {
    codec.decode(bytes, t);
    return null;
  } catch (e) {
    if (!(e instanceof VmError)) throw e;
    return e.code;
  }
}

describe('BCS of Move values against @mysten/bcs (fast-check, seeded)', () => {
  it('encodes byte for byte as @mysten/bcs; both decoders give the value back', () => {
    let checked = 0;
    fc.assert(
      fc.property(cases, ([l, v]) => {
        const t = typeOf(l);
        const schema = schemaOf(l);
        const bytes = codec.encode(ours(l, t, v), t);
        expect(hexOf(bytes)).toBe(hexOf(schema.serialize(theirs(l, v)).toBytes()));
        expect(fromOurs(l, codec.decode(bytes, t))).toEqual(v);
        expect(fromTheirs(l, schema.parse(bytes))).toEqual(v);
        checked++;
      }),
      { seed: 31, numRuns: 1000 },
    );
    expect(checked).toBe(1000);
  });

  it('refuses every strict prefix and any trailing byte with VALUE_DESERIALIZATION_ERROR', () => {
    let prefixes = 0;
    fc.assert(
      fc.property(cases, fc.integer({ min: 0, max: 255 }), ([l, v], extra) => {
        const t = typeOf(l);
        const bytes = codec.encode(ours(l, t, v), t);
        // At most 64 prefixes per case (the shortest and the longest), to keep the run short.
        const cuts =
          bytes.length <= 64 ? Array.from({ length: bytes.length }, (_, i) => i) : [...Array.from({ length: 32 }, (_, i) => i), ...Array.from({ length: 32 }, (_, i) => bytes.length - 32 + i)];
        for (const n of cuts) expect(refusal(bytes.subarray(0, n), t), `prefix of ${n}/${bytes.length} bytes`).toBe('VALUE_DESERIALIZATION_ERROR');
        prefixes += cuts.length;
        const longer = new Uint8Array(bytes.length + 1);
        longer.set(bytes);
        longer[bytes.length] = extra;
        expect(refusal(longer, t)).toBe('VALUE_DESERIALIZATION_ERROR');
      }),
      { seed: 32, numRuns: 500 },
    );
    expect(prefixes).toBeGreaterThan(500);
  });

  it('round-trips the extremes of every integer width and a two-byte vector length', () => {
    for (const [name, bits] of Object.entries(INTEGERS) as [IntName, number][]) {
      for (const v of [0n, 1n, (1n << BigInt(bits)) - 1n]) {
        const l: Layout = { k: name };
        const bytes = codec.encode(ours(l, table[name], v), table[name]);
        expect(bytes).toHaveLength(bits / 8);
        expect(hexOf(bytes)).toBe(hexOf(schemaOf(l).serialize(theirs(l, v)).toBytes()));
        expect(fromOurs(l, codec.decode(bytes, table[name]))).toBe(v);
      }
    }
    const l: Layout = { k: 'vector', of: { k: 'u8' } };
    const t = typeOf(l);
    const v = Array.from({ length: 128 }, (_, i) => BigInt(i));
    const bytes = codec.encode(ours(l, t, v), t);
    expect(Array.from(bytes.subarray(0, 2))).toEqual([0x80, 0x01]);
    expect(hexOf(bytes)).toBe(hexOf(schemaOf(l).serialize(theirs(l, v)).toBytes()));
  });
});

describe('ULEB128 (fast-check, seeded)', () => {
  it("@smi/bytecode's writers give @mysten/bcs's bytes for any u32, into a BcsWriter and into an array", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 0, max: 0x3fff }), fc.integer({ min: 0, max: 0xffffffff })), (n) => {
        const theirs = new BcsWriter().writeULEB(n).toBytes();
        const w = new BcsWriter();
        writeUleb128(w, n);
        expect(hexOf(w.toBytes())).toBe(hexOf(theirs));
        expect(hexOf(Uint8Array.from(pushUleb128([], n)))).toBe(hexOf(theirs));
      }),
      { seed: 33, numRuns: 2000 },
    );
  });
});
