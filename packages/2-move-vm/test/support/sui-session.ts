/**
 * Helpers of the `sui-framework-*` acceptance tests: a VM over the real framework (0x1,
 * 0x2, 0x3) with every Sui native, a session of calls over one `ObjectRuntime` (one
 * transaction), and object ids, type tags and dynamic-field ids computed by hand (so that
 * expectations never come from the VM's own hashing or codecs).
 */
import { blake2b } from '@noble/hashes/blake2.js';
import { canonicalAddress, loadBundleFile, type MovePackage } from '@smi/bytecode';
import {
  MoveVM,
  OBJECT_RUNTIME_KEY,
  ObjectRuntime,
  suiNativeRegistry,
  type CallArg,
  type CallResult,
  type ObjectRuntimeOptions,
  type ObjectRuntimeResults,
  type ObjectWrite,
  type Owner,
  type SuiRegistryOptions,
  type TypedValue,
} from '@smi/move-vm';
import { fixturePath } from '../../../../test-support/fixtures.js';
import { bcs, concat, hex, mutated, ok, uleb, utf8, val } from './golden.js';

let frameworkPackages: MovePackage[] | undefined;

/** move-stdlib, sui-framework and sui-system of `fixtures/framework` (loaded once per file). */
export function suiFramework(): MovePackage[] {
  frameworkPackages ??= ['move-stdlib', 'sui-framework', 'sui-system'].map((f) => loadBundleFile(fixturePath('fixtures', 'framework', f)));
  return frameworkPackages;
}

/** A VM over the framework (plus `extra` packages) with `suiNativeRegistry(natives)`. */
export function suiVm(extra: readonly MovePackage[] = [], natives: SuiRegistryOptions = {}): MoveVM {
  return MoveVM.create({ packages: [...suiFramework(), ...extra], natives: suiNativeRegistry(natives) });
}

/** Canonical `0x1`, `0x2` and `0x0`. */
export const STD_ADDR = canonicalAddress('0x1');
export const SUI_ADDR = canonicalAddress('0x2');
export const ZERO_ADDR = canonicalAddress('0x0');

/** Default transaction of a session. */
export const SESSION_DIGEST = Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 3) & 0xff);
export const SESSION_SENDER = canonicalAddress('0xa11ce');

/** Fresh object id number `n` of a transaction: blake2b256(0xf1 ‖ digest ‖ u64le(n)). */
export function freshIdOf(digest: Uint8Array, n: number): string {
  return '0x' + hex(blake2b(concat(Uint8Array.of(0xf1), digest, bcs.u64(n)), { dkLen: 32 }));
}

// ---------------------------------------------------------------------------
// Type tags and dynamic-field ids, by hand

const PRIMITIVE_TAGS: Record<string, number> = { bool: 0, u8: 1, u64: 2, u128: 3, address: 4, signer: 5, u16: 8, u32: 9, u256: 10 };

/** BCS of a `TypeTag` written as text (`u64`, `vector<u8>`, `0x2::m::S<u64, 0x1::string::String>`). */
export function typeTagBcs(text: string): Uint8Array {
  let pos = 0;
  const s = text.replace(/\s+/g, '');
  const ident = (): string => {
    const m = /^[A-Za-z0-9_]+/.exec(s.slice(pos));
    if (m === null) throw new Error(`bad type tag "${text}" at ${pos}`);
    pos += m[0].length;
    return m[0];
  };
  const expectChar = (c: string): void => {
    if (s.slice(pos, pos + c.length) !== c) throw new Error(`bad type tag "${text}": expected ${c} at ${pos}`);
    pos += c.length;
  };
  const parse = (): Uint8Array => {
    const head = ident();
    if (head in PRIMITIVE_TAGS) return Uint8Array.of(PRIMITIVE_TAGS[head]);
    if (head === 'vector') {
      expectChar('<');
      const inner = parse();
      expectChar('>');
      return concat(Uint8Array.of(6), inner);
    }
    expectChar('::');
    const module = ident();
    expectChar('::');
    const name = ident();
    const args: Uint8Array[] = [];
    if (s[pos] === '<') {
      pos++;
      for (;;) {
        args.push(parse());
        if (s[pos] === ',') pos++;
        else break;
      }
      expectChar('>');
    }
    return concat(Uint8Array.of(7), bcs.address(head), bcs.bytes(module), bcs.bytes(name), uleb(args.length), ...args);
  };
  const out = parse();
  if (pos !== s.length) throw new Error(`trailing text in type tag "${text}"`);
  return out;
}

/** Dynamic-field id: blake2b256(0xf0 ‖ parent ‖ u64le(len(key)) ‖ key ‖ bcs(TypeTag)). */
export function dynamicFieldId(parent: string, keyType: string, keyBcs: Uint8Array): string {
  const data = concat(Uint8Array.of(0xf0), bcs.address(parent), bcs.u64(keyBcs.length), keyBcs, typeTagBcs(keyType));
  return '0x' + hex(blake2b(data, { dkLen: 32 }));
}

/** Type tag text with full addresses (as the VM prints them): `0x2::x::Y<0x1::s::T>` → `0x000…2::x::Y<0x000…1::s::T>`. */
export function fullTag(text: string): string {
  return text.replace(/0x[0-9a-fA-F]+(?=::)/g, (a) => canonicalAddress(a));
}

/** A `std::string::String` / `std::ascii::String` BCS. */
export const stringBcs = (s: string): Uint8Array => bcs.bytes(utf8(s));

// ---------------------------------------------------------------------------
// Sessions

/** Options of {@link SuiSession}. */
export interface SessionOptions {
  sender?: string;
  digest?: Uint8Array;
  epoch?: bigint;
  epochTimestampMs?: bigint;
  runtime?: Partial<ObjectRuntimeOptions>;
}

/** One transaction: calls one after another over the same `ObjectRuntime`. */
export class SuiSession {
  readonly rt: ObjectRuntime;
  readonly digest: Uint8Array;
  readonly sender: string;

  constructor(
    readonly vm: MoveVM,
    options: SessionOptions = {},
  ) {
    this.digest = options.digest ?? SESSION_DIGEST;
    this.sender = canonicalAddress(options.sender ?? SESSION_SENDER);
    this.rt = new ObjectRuntime({
      tx: {
        sender: this.sender,
        digest: this.digest,
        epoch: options.epoch ?? 7n,
        epochTimestampMs: options.epochTimestampMs ?? 1_700_000_000_000n,
        gasPrice: 1000n,
        rgp: 1000n,
        gasBudget: 50_000_000n,
        sponsor: null,
      },
      bcs: this.vm.bcs,
      ...options.runtime,
    });
  }

  /** A call with this session's runtime (private functions allowed). */
  call(target: string, typeArgs: readonly string[] = [], args: readonly CallArg[] = []): CallResult {
    return this.vm.call(target, { typeArgs, args, allowPrivate: true, extensions: new Map([[OBJECT_RUNTIME_KEY, this.rt]]) });
  }

  /** The current `TxContext` (its `ids_created` follows the runtime). */
  get ctx(): CallArg {
    return val(this.rt.txContextValue());
  }

  /** Call, expect success, return the return values. */
  run(target: string, typeArgs: readonly string[] = [], args: readonly CallArg[] = []): TypedValue[] {
    return ok(this.call(target, typeArgs, args)).returnValues;
  }

  /** Value of the single (first) return value. */
  value(target: string, typeArgs: readonly string[] = [], args: readonly CallArg[] = []): unknown {
    const r = this.run(target, typeArgs, args);
    if (r.length === 0) throw new Error(`${target} returned nothing`);
    return r[0].value;
  }

  /** Call with the `&mut` value `obj` as argument 0; returns [its new value, the return values]. */
  mut(target: string, typeArgs: readonly string[], obj: unknown, rest: readonly CallArg[] = []): [unknown, TypedValue[]] {
    const r = this.call(target, typeArgs, [val(obj), ...rest]);
    return [mutated(r, 0).value, ok(r).returnValues];
  }

  /** Fresh id number `n` of this transaction. */
  freshId(n: number): string {
    return freshIdOf(this.digest, n);
  }

  results(): ObjectRuntimeResults {
    return this.rt.results();
  }

  /** The write of object `id` (throws when it was not written). */
  write(id: string): ObjectWrite {
    const w = this.results().writes.find((x) => x.id === canonicalAddress(id));
    if (w === undefined) throw new Error(`object ${id} was not written`);
    return w;
  }

  /** Owners of the written objects, by id. */
  owners(): Map<string, Owner> {
    return new Map(this.results().writes.map((w) => [w.id, w.owner]));
  }
}

/** `AddressOwner` / `ObjectOwner` / `Shared` / `Immutable` owners, as the runtime records them. */
export const owner = {
  address: (a: string): Owner => ({ $kind: 'AddressOwner', address: canonicalAddress(a) }),
  object: (a: string): Owner => ({ $kind: 'ObjectOwner', address: canonicalAddress(a) }),
  shared: (): Owner => ({ $kind: 'Shared', initialSharedVersion: 0n }),
  immutable: (): Owner => ({ $kind: 'Immutable' }),
};

/** A `UID` / `ID` value: `[[address]]` / `[address]`. */
export const uidValue = (id: string): unknown[] => [[canonicalAddress(id)]];
export const idValue = (id: string): unknown[] => [canonicalAddress(id)];

/** Id of an object value (its first field is a `UID`). */
export function objectIdOfValue(v: unknown): string {
  const uid = (v as unknown[])[0] as unknown[];
  return (uid[0] as unknown[])[0] as string;
}
