/**
 * Constants (`constants.rs`: primitive types only, data that BCS-decodes exactly) and friends
 * (`friends.rs`: not the module itself, same address only).
 */
import type { CompiledModule, SignatureToken } from '../file-format.js';
import { PartialError } from './errors.js';

const MAX_SEQUENCE_LENGTH = 2 ** 31 - 1;

const FIXED_SIZE: Readonly<Record<string, number>> = {
  U8: 1,
  U16: 2,
  U32: 4,
  U64: 8,
  U128: 16,
  U256: 32,
  Address: 32,
  Signer: 32,
};

/** Canonical BCS ULEB128 length at `pos`: `[value, next]`, or `null`. */
function readLength(data: Uint8Array, pos: number): [number, number] | null {
  let value = 0;
  for (let shift = 0; shift < 32; shift += 7) {
    if (pos >= data.length) return null;
    const byte = data[pos++];
    const digit = byte & 0x7f;
    value += digit * 2 ** shift;
    if (digit === byte) {
      if (shift > 0 && digit === 0) return null;
      if (value > 0xffffffff || value > MAX_SEQUENCE_LENGTH) return null;
      return [value, pos];
    }
  }
  return null;
}

/** Decode one value of `type` at `pos`; the position after it, or `null` when malformed. */
function skipValue(type: SignatureToken, data: Uint8Array, pos: number): number | null {
  switch (type.$kind) {
    case 'Bool':
      if (pos >= data.length || data[pos] > 1) return null;
      return pos + 1;
    case 'Vector': {
      const len = readLength(data, pos);
      if (len === null) return null;
      let p: number | null = len[1];
      for (let i = 0; i < len[0]; i++) {
        p = skipValue(type.type, data, p);
        if (p === null) return null;
      }
      return p;
    }
    default: {
      const size = FIXED_SIZE[type.$kind];
      if (size === undefined || pos + size > data.length) return null;
      return pos + size;
    }
  }
}

/** `true` when upstream can build a value layout for the type (primitives, signer, vectors). */
function hasValueLayout(t: SignatureToken): boolean {
  if (t.$kind === 'Vector') return hasValueLayout(t.type);
  return t.$kind === 'Bool' || FIXED_SIZE[t.$kind] !== undefined;
}

/**
 * BCS-decode a constant as upstream's `Constant::deserialize_constant` does (no trailing
 * bytes). Returns `null` when the data is malformed or the type has no value layout, else the
 * number of elements of the outer vector (0 for non-vectors).
 */
export function decodeConstant(type: SignatureToken, data: Uint8Array): number | null {
  if (!hasValueLayout(type)) return null;
  const end = skipValue(type, data, 0);
  if (end === null || end !== data.length) return null;
  if (type.$kind !== 'Vector') return 0;
  const len = readLength(data, 0);
  return len === null ? null : len[0];
}

/** `true` for the types a constant may have (primitives but signer, vectors of them). */
function isValidConstantType(t: SignatureToken): boolean {
  switch (t.$kind) {
    case 'Bool':
    case 'U8':
    case 'U16':
    case 'U32':
    case 'U64':
    case 'U128':
    case 'U256':
    case 'Address':
      return true;
    case 'Vector':
      return isValidConstantType(t.type);
    default:
      return false;
  }
}

/** The constants pass. */
export function verifyConstants(m: CompiledModule): void {
  m.constantPool.forEach((c, idx) => {
    if (!isValidConstantType(c.type)) throw new PartialError('INVALID_CONSTANT_TYPE').atIndex('ConstantPool', idx);
    if (decodeConstant(c.type, c.data) === null) throw new PartialError('MALFORMED_CONSTANT_DATA').atIndex('ConstantPool', idx);
  });
}

/** The friends pass. */
export function verifyFriends(m: CompiledModule): void {
  const self = m.moduleHandles[m.selfModuleHandleIndex];
  if (m.friendDecls.some((f) => f.address === self.address && f.name === self.name)) {
    throw new PartialError('INVALID_FRIEND_DECL_WITH_SELF');
  }
  const selfAddress = m.addressIdentifiers[self.address];
  if (m.friendDecls.some((f) => m.addressIdentifiers[f.address] !== selfAddress)) {
    throw new PartialError('INVALID_FRIEND_DECL_WITH_MODULES_OUTSIDE_ACCOUNT_ADDRESS');
  }
}
