/**
 * Sui addresses (and object ids) as text: the canonical form `0x` + 64 lowercase hex
 * digits, the short form (`0x2`), and to and from their 32 bytes.
 */

/** Canonical form of an address: `0x` + 64 lowercase hex digits; a `RangeError` when `address` is not one. */
export function canonicalAddress(address: string): string {
  const canonical = parseAddress(address);
  if (canonical === undefined) throw new RangeError(`invalid address: ${JSON.stringify(address)}`);
  return canonical;
}

/**
 * Canonical form (`0x` + 64 lowercase hex digits) of an address written as 1 to 64 hex
 * digits of either case, with or without `0x` (`0x2`, `2`, `0X0A`), or `undefined` when
 * `address` is not one. Short forms are padded with zeros to 32 bytes.
 */
export function parseAddress(address: string): string | undefined {
  if (isCanonicalAddress(address)) return address;
  let hex = address.toLowerCase();
  if (hex.startsWith('0x')) hex = hex.slice(2);
  if (hex.length === 0 || hex.length > 64 || !/^[0-9a-f]+$/.test(hex)) return undefined;
  return '0x' + hex.padStart(64, '0');
}

/** The address of a number (`0x` + its 64 hex digits): `0x2` for 2n. */
export function addressOfNumber(n: bigint | number): string {
  return '0x' + n.toString(16).padStart(64, '0');
}

// The well-known addresses, canonical (`0x` + 64 hex digits; @mysten/sui's constants of
// similar names are short forms such as `0x2`).

/** `0x0`, canonical. */
export const ZERO_ADDRESS = addressOfNumber(0);
/** `0x1`: Move's standard library (`std`), canonical. */
export const STD_ADDRESS = addressOfNumber(1);
/** `0x2`: the Sui framework (`sui`), canonical. */
export const SUI_ADDRESS = addressOfNumber(2);
/** `0x3`: the Sui system package (`sui_system`), canonical. */
export const SUI_SYSTEM_ADDRESS = addressOfNumber(3);
/** `0xb`: the bridge package, canonical. */
export const BRIDGE_ADDRESS = addressOfNumber(0xb);

/** `true` for `0x` + 64 lowercase hex digits (the common case, checked without allocating). */
function isCanonicalAddress(a: string): boolean {
  if (a.length !== 66 || a.charCodeAt(0) !== 48 || a.charCodeAt(1) !== 120) return false;
  for (let i = 2; i < 66; i++) {
    const c = a.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** Character codes of the two hex digits of each byte value, and the `0x` + 64 digits being built. */
const HEX_CODES = new Uint16Array(512);
for (let i = 0; i < 256; i++) {
  const h = i.toString(16).padStart(2, '0');
  HEX_CODES[2 * i] = h.charCodeAt(0);
  HEX_CODES[2 * i + 1] = h.charCodeAt(1);
}
const ADDRESS_CODES: number[] = [48, 120, ...new Array<number>(64).fill(48)];

/**
 * The canonical address (`0x` + 64 lowercase hex digits) of the 32 bytes at `at` in `bytes`.
 * Built as one flat string (appending digit pairs makes a rope of 32 strings, flattened again
 * by the first lookup that hashes it).
 */
export function addressFromBytes(bytes: Uint8Array, at = 0): string {
  for (let i = 0; i < 32; i++) {
    const b = bytes[at + i] << 1;
    ADDRESS_CODES[2 + 2 * i] = HEX_CODES[b];
    ADDRESS_CODES[3 + 2 * i] = HEX_CODES[b + 1];
  }
  return String.fromCharCode.apply(null, ADDRESS_CODES);
}

/** Value of each ASCII hex digit, -1 for other characters. */
const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  NIBBLE['0123456789abcdef'.charCodeAt(i)] = i;
  NIBBLE['0123456789ABCDEF'.charCodeAt(i)] = i;
}

/**
 * Write the 32 bytes of `a` (`0x` + 64 hex digits, either case) into `out` at `at`; `false`,
 * with `out` partly written, when `a` is not in that form.
 */
export function writeAddressBytes(a: string, out: Uint8Array, at: number): boolean {
  if (a.length !== 66 || a.charCodeAt(0) !== 48 || (a.charCodeAt(1) | 32) !== 120) return false;
  for (let i = 0; i < 32; i++) {
    const c1 = a.charCodeAt(2 + 2 * i);
    const c2 = a.charCodeAt(3 + 2 * i);
    const hi = c1 < 128 ? NIBBLE[c1] : -1;
    const lo = c2 < 128 ? NIBBLE[c2] : -1;
    if ((hi | lo) < 0) return false;
    out[at + i] = (hi << 4) | lo;
  }
  return true;
}

/** Shortest form of an address: `0x` + hex without leading zeros (`0x2`). */
export function shortAddress(address: string): string {
  const hex = canonicalAddress(address).slice(2).replace(/^0+/, '');
  return '0x' + (hex === '' ? '0' : hex);
}
