/**
 * Place a compiled package at an address: what a publish does to a package built at 0x0.
 * Every reference to 0x0 in a module (its own handle, handles of its sibling modules) becomes
 * the new address; nothing else changes.
 */
import { deserializeModule, canonicalAddress, serializeModule } from '@smi/bytecode';
import { MoveCompileError } from './errors.js';

const ZERO = canonicalAddress('0x0');

/** The module's bytes with every 0x0 address identifier replaced by `address`. */
export function relocateModule(bytes: Uint8Array, address: string): Uint8Array {
  let target: string;
  try {
    target = canonicalAddress(address);
  } catch {
    throw new MoveCompileError('INVALID_INPUT', `invalid address ${JSON.stringify(address)}`);
  }
  const m = deserializeModule(bytes);
  const addresses = m.addressIdentifiers.map((a) => canonicalAddress(a));
  if (target !== ZERO && addresses.includes(target)) {
    throw new MoveCompileError('INVALID_INPUT', `cannot place the package at ${address}: its modules already use that address`);
  }
  if (!addresses.includes(ZERO)) return bytes;
  const moved = { ...m, addressIdentifiers: m.addressIdentifiers.map((a) => (canonicalAddress(a) === ZERO ? target : a)) };
  return serializeModule(moved);
}
