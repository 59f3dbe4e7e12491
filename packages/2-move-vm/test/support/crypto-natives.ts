/**
 * Helpers of the crypto-native tests: a native context that only meters gas, byte
 * helpers, and calling a registered Sui crypto native directly.
 */
import { NativeAbort } from '../../src/errors.js';
import { NativeRegistry } from '../../src/natives/registry.js';
import type { NativeContext, NativeFunction } from '../../src/natives/registry.js';
import { registerSuiCrypto, type SuiCryptoOptions } from '../../src/natives/sui/crypto/index.js';
import { MoveVector } from '../../src/values/vector.js';

/** A context that only meters gas (crypto natives use nothing else). */
export function fakeCtx(): { ctx: NativeContext; used: () => number } {
  let used = 0;
  const partial: Partial<NativeContext> = {
    charge: (units: number) => {
      used += units;
    },
    originalIdOf: (a: string) => a,
    debugPrint: () => undefined,
    extensions: new Map(),
    stackTrace: () => '',
    limits: { maxVectorLength: 262144, maxValueDepth: 128 },
  };
  return { ctx: partial as NativeContext, used: () => used };
}

export const hex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));
export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
/** A `vector<u8>` from hex or bytes. */
export const v = (b: Uint8Array | string): MoveVector => MoveVector.fromBytes(typeof b === 'string' ? hex(b) : b);
/** Hex of a returned `vector<u8>`. */
export const toHex = (x: unknown): string => Buffer.from((x as MoveVector).bytes()).toString('hex');

/** The registered native `0x2::module::name`. */
export function native(module: string, name: string, options: SuiCryptoOptions = {}): NativeFunction {
  const fn = registerSuiCrypto(new NativeRegistry(), options).get('0x2', module, name);
  if (fn === undefined) throw new Error(`missing ${module}::${name}`);
  return fn;
}

/** Call a crypto native with no type arguments; its return values. */
export function call(module: string, name: string, args: unknown[], options: SuiCryptoOptions = {}): unknown[] {
  return native(module, name, options)(fakeCtx().ctx, [], args);
}

/** The abort code `f` aborts with (fails when it returns or throws anything else). */
export function abortCode(f: () => unknown): bigint {
  try {
    f();
  } catch (e) {
    if (e instanceof NativeAbort) return e.code;
    throw e;
  }
  throw new Error('expected an abort');
}
