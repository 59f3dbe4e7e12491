/**
 * Reads Sui's serde JSON (the human-readable form `serde_json` writes for Sui types, as in
 * sui-sandbox's `checkpoint_data.json`) into our values, driven by a codec's shape: field
 * names in snake_case (or as renamed upstream), enums as `"Unit"` or `{ "Variant": payload }`,
 * addresses in hex, digests in base58, byte vectors in base64 (or as number arrays),
 * u64 as numbers or decimal strings.
 */
import { fromBase64 } from '@mysten/bcs';
import { digestFromBase58, normalizeAddress, shapeOf, type AnyCodec, type Codec, type FieldShape, type Shape } from './codec.js';
import { BcsError } from '@smi/move-vm';
import type { Json } from '@smi/bytecode';

/** A parsed JSON value. */
export type { Json };

const fail = (message: string, path: string): BcsError => new BcsError('BCS_INVALID_JSON', message, path);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function integer(json: unknown, max: bigint, path: string): bigint {
  let v: bigint;
  if (typeof json === 'number') {
    if (!Number.isSafeInteger(json)) throw fail(`${json} is not a safe integer (write large integers as strings)`, path);
    v = BigInt(json);
  } else if (typeof json === 'string' && /^\d+$/.test(json)) v = BigInt(json);
  else throw fail(`expected an integer, got ${JSON.stringify(json)}`, path);
  if (v > max) throw fail(`${v} is out of range`, path);
  return v;
}

function bytes(json: unknown, path: string, size?: number): Uint8Array {
  let out: Uint8Array;
  if (typeof json === 'string') {
    try {
      out = fromBase64(json);
    } catch {
      throw fail('expected base64 bytes', path);
    }
  } else if (Array.isArray(json) && json.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
    out = Uint8Array.from(json as number[]);
  } else throw fail(`expected base64 bytes, got ${JSON.stringify(json)}`, path);
  if (size !== undefined && out.length !== size) throw fail(`expected ${size} bytes, got ${out.length}`, path);
  return out;
}

function leaf(shape: Extract<Shape, { kind: 'leaf' }>, json: unknown, path: string): unknown {
  switch (shape.leaf) {
    case 'u8':
      return Number(integer(json, 0xffn, path));
    case 'u16':
      return Number(integer(json, 0xffffn, path));
    case 'u32':
      return Number(integer(json, 0xffffffffn, path));
    case 'u64':
      return integer(json, (1n << 64n) - 1n, path);
    case 'bool':
      if (typeof json !== 'boolean') throw fail(`expected a boolean, got ${JSON.stringify(json)}`, path);
      return json;
    case 'string':
      if (typeof json !== 'string') throw fail(`expected a string, got ${JSON.stringify(json)}`, path);
      return json;
    case 'bytes':
      return bytes(json, path);
    case 'fixedBytes':
      return bytes(json, path, shape.size);
    case 'address':
      if (typeof json !== 'string') throw fail(`expected a hex address, got ${JSON.stringify(json)}`, path);
      return normalizeAddress(json);
    case 'digest':
      if (typeof json !== 'string') throw fail(`expected a base58 digest, got ${JSON.stringify(json)}`, path);
      digestFromBase58(json);
      return json;
  }
}

function fieldValue(f: FieldShape, obj: Record<string, unknown>, path: string): unknown {
  const key = f.serdeName in obj ? f.serdeName : f.name;
  if (!(key in obj)) throw fail(`missing field ${f.serdeName}`, path);
  return convert(f.codec, obj[key], `${path}.${f.serdeName}`);
}

function convert(codec: AnyCodec, json: unknown, path: string): unknown {
  const shape = shapeOf(codec);
  switch (shape.kind) {
    case 'leaf':
      return leaf(shape, json, path);
    case 'option':
      return json === null || json === undefined ? null : convert(shape.element, json, path);
    case 'vector':
      if (!Array.isArray(json)) throw fail(`expected an array, got ${JSON.stringify(json)}`, path);
      return json.map((x, i) => convert(shape.element, x, `${path}[${i}]`));
    case 'tuple':
      if (!Array.isArray(json) || json.length !== shape.elements.length) throw fail(`expected a ${shape.elements.length}-tuple`, path);
      return shape.elements.map((c, i) => convert(c, json[i], `${path}[${i}]`));
    case 'map': {
      // serde_json writes maps with string keys as objects, others as [key, value] pairs.
      let entries: [unknown, unknown][];
      if (isRecord(json)) entries = Object.entries(json);
      else if (Array.isArray(json) && json.every((e) => Array.isArray(e) && e.length === 2)) entries = json as [unknown, unknown][];
      else throw fail(`expected a map, got ${JSON.stringify(json)}`, path);
      return new Map(entries.map(([k, v]) => [convert(shape.key, k, `${path}{key}`), convert(shape.value, v, `${path}.${String(k)}`)]));
    }
    case 'struct': {
      const out: Record<string, unknown> = {};
      if (shape.serde === 'newtype') {
        const [f] = shape.fields;
        out[f.name] = convert(f.codec, json, path);
      } else if (shape.serde === 'tuple') {
        if (!Array.isArray(json) || json.length !== shape.fields.length) throw fail(`expected ${shape.name} as a ${shape.fields.length}-tuple`, path);
        shape.fields.forEach((f, i) => (out[f.name] = convert(f.codec, json[i], `${path}[${i}]`)));
      } else {
        if (!isRecord(json)) throw fail(`expected ${shape.name} as an object, got ${JSON.stringify(json)}`, path);
        for (const f of shape.fields) out[f.name] = fieldValue(f, json, path);
      }
      return out;
    }
    case 'enum': {
      let name: string;
      let payload: unknown = null;
      if (typeof json === 'string') name = json;
      else if (isRecord(json) && Object.keys(json).length === 1) [[name, payload]] = Object.entries(json);
      else throw fail(`expected a ${shape.name} variant, got ${JSON.stringify(json)}`, path);
      const variant = shape.variants.find((v) => v.name === name) ?? shape.variants.find((v) => v.name.toLowerCase() === name.toLowerCase());
      if (variant === undefined) throw fail(`unknown ${shape.name} variant ${JSON.stringify(name)}`, path);
      if (variant.codec === null) return { $kind: variant.name, [variant.name]: true };
      return { $kind: variant.name, [variant.name]: convert(variant.codec, payload, `${path}.${variant.name}`) };
    }
    case 'lazy':
      return convert(shape.resolve(), json, path);
  }
}

/**
 * Converts Sui serde JSON into the value the codec encodes. Throws `BCS_INVALID_JSON`
 * with the JSON path of the first mismatch.
 */
export function fromSerdeJson<T>(codec: Codec<T>, json: unknown): T {
  return convert(codec, json, '$') as T;
}
