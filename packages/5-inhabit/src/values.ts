/**
 * Values for pure arguments: every type a PTB accepts as a pure input (integers of every
 * width, bool, address, vectors of pure types, `String`, `ascii::String`, `Option<T>`,
 * `ID`), in three profiles the runner tries in turn, each checked by a BCS round trip
 * (encode, decode, encode again: the same bytes) with the VM's own codec.
 */
import { type Json, type MoveVM, valueFromJson } from '@smi/move-vm';
import { STD, SUI } from './catalogue.js';
import { formatTy, isDatatype, type Ty } from './types.js';
import { errorMessage, type PrimitiveName } from '@smi/bytecode';

/** Which values to try: all zeros/empty (the original's), ones, or typical sizes. */
export type ValueProfile = 'zero' | 'one' | 'large';

/** The profiles, in the order the runner tries them. */
export const VALUE_PROFILES: readonly ValueProfile[] = ['one', 'zero', 'large'];

const INT_LARGE: Record<string, string> = {
  u8: '100',
  u16: '1000',
  u32: '100000',
  u64: '1000000000',
  u128: '1000000000000000000',
  u256: '1000000000000000000',
};

/** `true` for the types a PTB takes as pure inputs. */
export function isPureTy(t: Ty): boolean {
  switch (t.$kind) {
    case 'Prim':
      return t.name !== 'signer';
    case 'Vector':
      return isPureTy(t.elem);
    case 'Datatype':
      if (isDatatype(t, STD, 'string', 'String') || isDatatype(t, STD, 'ascii', 'String') || isDatatype(t, SUI, 'object', 'ID')) return true;
      return isDatatype(t, STD, 'option', 'Option') && t.args.length === 1 && isPureTy(t.args[0]);
    default:
      return false;
  }
}

function primValue(name: PrimitiveName, profile: ValueProfile, sender: string): Json {
  if (name === 'bool') return profile !== 'zero';
  if (name === 'address') return profile === 'zero' ? '0x0' : sender;
  if (profile === 'zero') return name === 'u8' || name === 'u16' || name === 'u32' ? 0 : '0';
  if (profile === 'one') return name === 'u8' || name === 'u16' || name === 'u32' ? 1 : '1';
  return name === 'u8' || name === 'u16' || name === 'u32' ? Number(INT_LARGE[name]) : INT_LARGE[name];
}

/**
 * A JSON value of pure type `t` in `profile` (as `smi sandbox-exec` pure inputs take
 * them; `null` is an empty `Option`), or `undefined` when `t` is not pure. `sender` is the
 * address addresses default to.
 */
export function pureValue(t: Ty, profile: ValueProfile, sender: string): Json | undefined {
  if (!isPureTy(t)) return undefined;
  switch (t.$kind) {
    case 'Prim':
      return primValue(t.name, profile, sender);
    case 'Vector': {
      if (profile === 'zero') return t.elem.$kind === 'Prim' && t.elem.name === 'u8' ? '0x' : [];
      if (t.elem.$kind === 'Prim' && t.elem.name === 'u8') return profile === 'one' ? '0x01' : '0x736d69';
      return [pureValue(t.elem, profile, sender) ?? null];
    }
    case 'Datatype':
      if (t.key.endsWith('::String')) return profile === 'zero' ? '' : profile === 'one' ? 'a' : 'smi';
      if (t.key.endsWith('::ID')) return profile === 'zero' ? '0x0' : sender;
      // Option<T>
      return profile === 'zero' ? null : (pureValue(t.args[0], profile, sender) ?? null);
    default:
      return undefined;
  }
}

/** MIST split from the gas coin for a `Coin<SUI>` in each profile (0, 1 SUI, 100 SUI). */
export function gasCoinAmount(profile: ValueProfile): string {
  return profile === 'zero' ? '0' : profile === 'one' ? '1000000000' : '100000000000';
}

/** Outcome of {@link bcsRoundTrip}. */
export type RoundTrip = { $kind: 'Ok'; bytes: Uint8Array } | { $kind: 'Failed'; error: string };

/** Encode `value` as `t`, decode it, encode it again: the same bytes, or why not. */
export function bcsRoundTrip(vm: MoveVM, t: Ty, value: Json): RoundTrip {
  try {
    const type = vm.resolveType(formatTy(t));
    const bytes = vm.bcs.encode(valueFromJson(vm.types, value, type), type);
    const again = vm.bcs.encode(vm.bcs.decode(bytes, type), type);
    if (Buffer.compare(Buffer.from(bytes), Buffer.from(again)) !== 0) return { $kind: 'Failed', error: 'BCS bytes changed after a decode/encode round trip' };
    return { $kind: 'Ok', bytes };
  } catch (e) {
    return { $kind: 'Failed', error: errorMessage(e) };
  }
}
