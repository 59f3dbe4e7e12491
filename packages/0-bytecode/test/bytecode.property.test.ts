/**
 * Property tests of the binary format (fast-check, seeded): small generated modules (structs
 * with abilities and typed fields, signatures, functions with simple code or native,
 * constants, friends, identifiers of any length) written by our serializer are read back as
 * the same module, and the reference deserializer (@mysten/move-bytecode-template) reads
 * and rewrites them to the same bytes; mutated real modules (framework and corpus) are
 * either read or refused with our typed error and a stable status code, as the reference
 * refuses them, and nothing else escapes (no RangeError or TypeError). The real modules
 * themselves round-trip byte for byte in roundtrip.test.ts.
 */
import { deserialize as templateDeserialize, serialize as templateSerialize } from '@mysten/move-bytecode-template';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { deserializeModule, type DeserializeOptions } from '../src/deserializer.js';
import { BytecodeError, type BytecodeStatusCode } from '../src/errors.js';
import { type Bytecode, type CompiledModule, emptyModule, type SignatureToken } from '../src/file-format.js';
import { serializeModule } from '../src/serializer.js';
import { corpusModules, frameworkModules } from './module-sources.js';

/** Every status code our binary-format layer may report (the `BytecodeStatusCode` union). */
const CODES: readonly BytecodeStatusCode[] = [
  'BAD_MAGIC',
  'UNKNOWN_VERSION',
  'MALFORMED',
  'BAD_HEADER_TABLE',
  'UNKNOWN_TABLE_TYPE',
  'DUPLICATE_TABLE',
  'TRAILING_BYTES',
  'BAD_U16',
  'BAD_U32',
  'BAD_U64',
  'BAD_U128',
  'BAD_U256',
  'UNKNOWN_SERIALIZED_TYPE',
  'UNKNOWN_OPCODE',
  'UNKNOWN_ABILITY',
  'UNKNOWN_NATIVE_STRUCT_FLAG',
  'UNKNOWN_ENUM_FLAG',
  'UNKNOWN_JUMP_TABLE_FLAG',
  'INVALID_FLAG_BITS',
  'DEPRECATED_BYTECODE_FORMAT',
  'NO_MODULE_HANDLES',
  'INDEX_OUT_OF_BOUNDS',
  'NUMBER_OF_TYPE_ARGUMENTS_MISMATCH',
  'TOO_MANY_LOCALS',
  'INVALID_ENUM_SWITCH',
  'UNKNOWN_INVARIANT_VIOLATION_ERROR',
  'SERIALIZATION_ERROR',
  'INVALID_PACKAGE',
];

/** The reference deserializer's settings (as errors.test.ts compares under). */
const TEMPLATE_CONFIG: DeserializeOptions = { allowUnpublishable: false, checkNoExtraneousBytes: false, deprecateGlobalStorageOps: false };

/** Our outcome: `null` when read, else the code of the BytecodeError (anything else is rethrown: the property fails). */
function outcome(bytes: Uint8Array, options?: DeserializeOptions): BytecodeStatusCode | null {
  try {
    deserializeModule(bytes, options);
    return null;
  } catch (e) {
    if (!(e instanceof BytecodeError)) throw new Error(`not a BytecodeError: ${String(e)}`);
    return e.code;
  }
}

/** The reference's outcome: `null` when read, else its status name. */
function templateOutcome(bytes: Uint8Array): string | null {
  try {
    templateDeserialize(bytes);
    return null;
  } catch (e) {
    // The WASM throws plain objects with a message like `PartialVMError with status <CODE> ...`.
    const message = typeof e === 'object' && e !== null && 'message' in e ? String(e.message) : String(e);
    return /status ([A-Z_0-9]+)/.exec(message)?.[1] ?? `unparsed: ${message.slice(0, 120)}`;
  }
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

// ---------------------------------------------------------------------------------------
// Generated modules
// ---------------------------------------------------------------------------------------

const PRIMITIVE = fc.constantFrom<SignatureToken>(
  { $kind: 'Bool' },
  { $kind: 'U8' },
  { $kind: 'U16' },
  { $kind: 'U32' },
  { $kind: 'U64' },
  { $kind: 'U128' },
  { $kind: 'U256' },
  { $kind: 'Address' },
  { $kind: 'Signer' },
);

/** A token over `datatypes` handles (none when 0). */
function token(datatypes: number): fc.Arbitrary<SignatureToken> {
  const { t } = fc.letrec<{ t: SignatureToken }>((tie) => ({
    t: fc.oneof(
      { depthSize: 'small', maxDepth: 3 },
      PRIMITIVE,
      tie('t').map((type): SignatureToken => ({ $kind: 'Vector', type })),
      ...(datatypes > 0 ? [fc.nat(datatypes - 1).map((index): SignatureToken => ({ $kind: 'Datatype', index }))] : []),
      tie('t').map((type): SignatureToken => ({ $kind: 'Reference', type })),
      tie('t').map((type): SignatureToken => ({ $kind: 'MutableReference', type })),
    ),
  }));
  return t;
}

/** Move identifiers: a letter, then letters, digits and underscores (some long: two-byte ULEB lengths). */
const identifier = fc.tuple(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'), fc.string({ unit: fc.constantFrom(...'abcxyz_019AZ'), maxLength: 140 })).map(([a, b]) => a + b);
const address = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => `0x${hex(b)}`);
const abilities = fc.integer({ min: 0, max: 15 });

/** Straight-line code that only pushes and pops constants, then returns. */
const code = fc
  .array(
    fc.oneof(
      fc.constant<Bytecode[]>([{ $kind: 'LdTrue' }, { $kind: 'Pop' }]),
      fc.integer({ min: 0, max: 255 }).map((value): Bytecode[] => [{ $kind: 'LdU8', value }, { $kind: 'Pop' }]),
      fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }).map((value): Bytecode[] => [{ $kind: 'LdU64', value }, { $kind: 'Pop' }]),
    ),
    { maxLength: 6 },
  )
  .map((parts): Bytecode[] => [...parts.flat(), { $kind: 'Ret' }]);

const moduleArb: fc.Arbitrary<CompiledModule> = fc
  .record({
    version: fc.constantFrom(6, 7),
    names: fc.uniqueArray(identifier, { minLength: 1, maxLength: 12 }),
    self: address,
    other: address,
    structs: fc.nat(4),
    friends: fc.nat(2),
    functions: fc.nat(3),
  })
  .chain((shape) => {
    const datatypes = shape.structs;
    return fc.record({
      shape: fc.constant(shape),
      structAbilities: fc.array(abilities, { minLength: datatypes, maxLength: datatypes }),
      fields: fc.array(fc.array(fc.tuple(fc.nat(shape.names.length - 1), token(datatypes)), { minLength: 1, maxLength: 4 }), { minLength: datatypes, maxLength: datatypes }),
      signatures: fc.array(fc.array(token(datatypes), { maxLength: 4 }), { minLength: 1, maxLength: 5 }),
      functions: fc.array(
        fc.record({
          name: fc.nat(shape.names.length - 1),
          visibility: fc.constantFrom('Private', 'Public', 'Friend') as fc.Arbitrary<'Private' | 'Public' | 'Friend'>,
          isEntry: fc.boolean(),
          native: fc.boolean(),
          body: code,
          typeParameters: fc.array(abilities, { maxLength: 2 }),
        }),
        { minLength: shape.functions, maxLength: shape.functions },
      ),
      constants: fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 4 }),
    });
  })
  .map(({ shape, structAbilities, fields, signatures, functions, constants }) => {
    const m = emptyModule(shape.version);
    m.identifiers = shape.names;
    m.addressIdentifiers = shape.self === shape.other ? [shape.self] : [shape.self, shape.other];
    m.moduleHandles = [{ address: 0, name: 0 }];
    // Friends: modules at the other address (or this one), named by any identifier.
    for (let i = 0; i < shape.friends; i++) m.friendDecls.push({ address: m.addressIdentifiers.length - 1, name: i % shape.names.length });
    m.signatures = signatures;
    for (let i = 0; i < shape.structs; i++) {
      m.datatypeHandles.push({ module: 0, name: i % shape.names.length, abilities: structAbilities[i], typeParameters: [] });
      m.structDefs.push({ structHandle: i, fieldInformation: { $kind: 'Declared', fields: fields[i].map(([name, type]) => ({ name, type })) } });
    }
    for (const [i, f] of functions.entries()) {
      m.functionHandles.push({ module: 0, name: f.name, parameters: i % signatures.length, return: (i + 1) % signatures.length, typeParameters: f.typeParameters });
      m.functionDefs.push({ function: i, visibility: f.visibility, isEntry: f.isEntry, acquiresGlobalResources: [], code: f.native ? null : { locals: 0, code: f.body, jumpTables: [] } });
    }
    m.constantPool = constants.map((data) => ({ type: { $kind: 'Vector', type: { $kind: 'U8' } }, data }));
    return m;
  });

describe('generated modules (fast-check, seeded)', () => {
  it('our bytes read back as the same module; the reference reads them and writes the same bytes', () => {
    let runs = 0;
    fc.assert(
      fc.property(moduleArb, (m) => {
        const bytes = serializeModule(m);
        expect(deserializeModule(bytes)).toEqual(m);
        expect(hex(templateSerialize(templateDeserialize(bytes)))).toBe(hex(bytes));
        runs++;
      }),
      { seed: 3102, numRuns: 300 },
    );
    expect(runs).toBe(300);
  });
});

// ---------------------------------------------------------------------------------------
// Mutated real modules
// ---------------------------------------------------------------------------------------

type Edit = { $kind: 'set'; at: number; byte: number } | { $kind: 'insert'; at: number; bytes: Uint8Array } | { $kind: 'delete'; at: number; count: number } | { $kind: 'truncate'; at: number };

/** Positions are fractions of the length (scaled by 2^16), so that one edit fits any module. */
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ $kind: fc.constant('set' as const), at: fc.nat(0xffff), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ $kind: fc.constant('insert' as const), at: fc.nat(0xffff), bytes: fc.uint8Array({ minLength: 1, maxLength: 6 }) }),
  fc.record({ $kind: fc.constant('delete' as const), at: fc.nat(0xffff), count: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ $kind: fc.constant('truncate' as const), at: fc.nat(0xffff) }),
);

function apply(bytes: Uint8Array, edits: readonly Edit[]): Uint8Array {
  let b = bytes;
  for (const e of edits) {
    const at = Math.floor((e.at / 0x10000) * b.length);
    switch (e.$kind) {
      case 'set':
        b = Uint8Array.from(b);
        if (at < b.length) b[at] = e.byte;
        break;
      case 'insert':
        b = Uint8Array.from([...b.subarray(0, at), ...e.bytes, ...b.subarray(at)]);
        break;
      case 'delete':
        b = Uint8Array.from([...b.subarray(0, at), ...b.subarray(at + e.count)]);
        break;
      case 'truncate':
        b = b.slice(0, at);
        break;
    }
  }
  return b;
}

describeWithFixtures('mutated real modules (fast-check, seeded)', ['fixtures', 'framework'], () => {
  const modules = [...frameworkModules(), ...corpusModules()].map((m) => m.bytes);

  it('are read, or refused with a BytecodeError and a known code, exactly when and as the reference refuses them', () => {
    expect(modules).toHaveLength(115 + 207);
    let refused = 0;
    fc.assert(
      fc.property(fc.nat(modules.length - 1), fc.array(edit, { minLength: 1, maxLength: 3 }), (i, edits) => {
        const bytes = apply(modules[i], edits);
        const ours = outcome(bytes, TEMPLATE_CONFIG);
        if (ours !== null) expect(CODES).toContain(ours);
        expect(ours).toBe(templateOutcome(bytes));
        // With Sui's defaults (trailing bytes and global storage refused), still only typed errors.
        const strict = outcome(bytes);
        if (strict !== null) expect(CODES).toContain(strict);
        if (ours !== null) refused++;
      }),
      { seed: 3103, numRuns: 600 },
    );
    // Most mutations break a module; a run where none did would test nothing.
    expect(refused).toBeGreaterThan(300);
  });
});
