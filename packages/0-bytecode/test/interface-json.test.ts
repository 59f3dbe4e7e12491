import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { canonicalJson, compareCodePoints } from '../src/canonical-json.js';
import type { CompiledModule, SignatureToken } from '../src/file-format.js';
import { Ability, emptyModule } from '../src/file-format.js';
import { buildInterfaceJson, buildModuleInterface, decodeConstantValue, interfaceSanity, renderInterfaceJson, toOriginalInterface, type PackageInterface } from '../src/interface-json.js';
import { PRIMITIVE_TOKEN, SIMPLE_INSTRUCTION } from '../src/opcodes.js';
import { deserializeModule } from '../src/deserializer.js';
import { serializeWithTemplate } from './support/template-adapter.js';

/** How the tests turn bytes into a module (our deserializer; the template adapter gives the same). */
const loadModule = (bytes: Uint8Array): CompiledModule => deserializeModule(bytes);

const here = path.dirname(fileURLToPath(import.meta.url));
const addr = (n: number | string): string => '0x' + n.toString(16).padStart(64, '0');
const SUI = addr(2);
const { Bool, U8, U64 } = PRIMITIVE_TOKEN;

/** All modules of a corpus package, in file-name order. */
function loadCorpusPackage(id: string): CompiledModule[] {
  const dir = fixturePath('corpus', id, 'bytecode_modules');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.mv'))
    .sort()
    .map((f) => loadModule(new Uint8Array(readFileSync(path.join(dir, f)))));
}

/** Every object in a JSON value has its keys in sorted order. */
function keysSorted(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(keysSorted);
  if (value === null || typeof value !== 'object') return true;
  const keys = Object.keys(value);
  const sorted = [...keys].sort(compareCodePoints);
  return keys.every((k, i) => k === sorted[i]) && Object.values(value).every(keysSorted);
}

// ---------------------------------------------------------------------------------------
// The inventory's derived example
// ---------------------------------------------------------------------------------------

/** `module 0x1::test_module { struct SimpleStruct has drop { value: u64 } public fun simple_func(x: u64): u64 { x } }` */
function testModule(): CompiledModule {
  const m = emptyModule(6);
  m.identifiers = ['SimpleStruct', 'simple_func', 'test_module', 'value'];
  m.addressIdentifiers = [addr(1)];
  m.moduleHandles = [{ address: 0, name: 2 }];
  m.datatypeHandles = [{ module: 0, name: 0, abilities: Ability.Drop, typeParameters: [] }];
  m.functionHandles = [{ module: 0, name: 1, parameters: 0, return: 0, typeParameters: [] }];
  m.signatures = [[U64], []];
  m.structDefs = [{ structHandle: 0, fieldInformation: { $kind: 'Declared', fields: [{ name: 3, type: U64 }] } }];
  m.functionDefs = [
    {
      function: 0,
      visibility: 'Public',
      isEntry: false,
      acquiresGlobalResources: [],
      code: { locals: 1, code: [{ $kind: 'MoveLoc', index: 0 }, SIMPLE_INSTRUCTION.Ret], jumpTables: [] },
    },
  ];
  return m;
}

const DERIVED_COMPACT =
  '{"module_names":["test_module"],"modules":{"test_module":{"address":"0x0000000000000000000000000000000000000000000000000000000000000001","functions":{"simple_func":{"acquires":[],"is_entry":false,"is_native":false,"params":[{"kind":"u64"}],"returns":[{"kind":"u64"}],"type_params":[],"visibility":"public"}},"structs":{"SimpleStruct":{"abilities":["drop"],"fields":[{"name":"value","type":{"kind":"u64"}}],"is_native":false,"type_params":[]}}}},"package_id":"0x1","schema_version":1}';

const DERIVED_PRETTY = `{
  "module_names": [
    "test_module"
  ],
  "modules": {
    "test_module": {
      "address": "0x0000000000000000000000000000000000000000000000000000000000000001",
      "functions": {
        "simple_func": {
          "acquires": [],
          "is_entry": false,
          "is_native": false,
          "params": [
            {
              "kind": "u64"
            }
          ],
          "returns": [
            {
              "kind": "u64"
            }
          ],
          "type_params": [],
          "visibility": "public"
        }
      },
      "structs": {
        "SimpleStruct": {
          "abilities": [
            "drop"
          ],
          "fields": [
            {
              "name": "value",
              "type": {
                "kind": "u64"
              }
            }
          ],
          "is_native": false,
          "type_params": []
        }
      }
    }
  },
  "package_id": "0x1",
  "schema_version": 1
}
`;

describe('bytecode interface JSON: derived example (inventory §2)', () => {
  const bytes = serializeWithTemplate(testModule());
  const pkg = buildInterfaceJson({ packageId: '0x1', modules: [loadModule(bytes)] });

  it('matches the original output exactly once the additions are stripped', () => {
    expect(bytes.length).toBe(137); // the size of the original fixture's test_module.mv
    const text = renderInterfaceJson(toOriginalInterface(pkg));
    expect(text).toBe(DERIVED_PRETTY);
    expect(JSON.parse(text)).toEqual(JSON.parse(DERIVED_COMPACT));
  });

  it('adds the new keys without touching the old ones', () => {
    const mod = pkg.modules.test_module;
    expect(mod.enums).toEqual({});
    expect(mod.constants).toEqual([]);
    expect(mod.friends).toEqual([]);
    expect(mod.functions.simple_func.is_init).toBe(false);
    const parsed = JSON.parse(renderInterfaceJson(pkg)) as PackageInterface;
    expect(toOriginalInterface(parsed)).toEqual(JSON.parse(DERIVED_COMPACT));
  });

  it('writes package_id as given, not re-padded', () => {
    expect(pkg.package_id).toBe('0x1');
    expect(buildInterfaceJson({ packageId: '0x01', modules: [] }).package_id).toBe('0x01');
  });
});

// ---------------------------------------------------------------------------------------
// Shapes, on hand-built modules
// ---------------------------------------------------------------------------------------

describe('bytecode interface JSON: shapes', () => {
  /** `0x5::shapes` with a generic struct, a native struct, an enum, friends, constants and a few functions. */
  function shapes(): CompiledModule {
    const m = emptyModule(7);
    // 0 A, 1 B, 2 Coin, 3 E, 4 N, 5 V0, 6 V1, 7 coin, 8 f, 9 friend_mod, 10 g, 11 shapes, 12 x, 13 y
    m.identifiers = ['A', 'B', 'Coin', 'E', 'N', 'V0', 'V1', 'coin', 'f', 'friend_mod', 'g', 'shapes', 'x', 'y'];
    m.addressIdentifiers = [addr(5), SUI];
    m.moduleHandles = [
      { address: 0, name: 11 },
      { address: 1, name: 7 },
    ];
    m.friendDecls = [{ address: 0, name: 9 }];
    m.datatypeHandles = [
      { module: 0, name: 0, abilities: Ability.Key | Ability.Store, typeParameters: [{ constraints: Ability.Drop | Ability.Copy, isPhantom: true }] },
      { module: 0, name: 4, abilities: Ability.Copy | Ability.Drop | Ability.Store | Ability.Key, typeParameters: [] },
      { module: 1, name: 2, abilities: Ability.Key | Ability.Store, typeParameters: [{ constraints: 0, isPhantom: true }] },
      { module: 0, name: 3, abilities: Ability.Drop | Ability.Copy, typeParameters: [{ constraints: Ability.Store, isPhantom: false }] },
    ];
    const coinOfT: SignatureToken = { $kind: 'DatatypeInstantiation', index: 2, typeArguments: [{ $kind: 'TypeParameter', index: 0 }] };
    m.structDefs = [
      {
        structHandle: 0,
        fieldInformation: {
          $kind: 'Declared',
          fields: [
            { name: 12, type: { $kind: 'Vector', type: coinOfT } },
            { name: 13, type: { $kind: 'Datatype', index: 1 } },
          ],
        },
      },
      { structHandle: 1, fieldInformation: { $kind: 'Native' } },
    ];
    m.enumDefs = [
      {
        enumHandle: 3,
        variants: [
          { variantName: 6, fields: [{ name: 12, type: { $kind: 'TypeParameter', index: 0 } }] },
          { variantName: 5, fields: [] },
        ],
      },
    ];
    m.signatures = [[], [{ $kind: 'Reference', type: coinOfT }, { $kind: 'MutableReference', type: U64 }, PRIMITIVE_TOKEN.Signer], [U8, { $kind: 'Vector', type: Bool }]];
    m.functionHandles = [
      { module: 0, name: 8, parameters: 1, return: 2, typeParameters: [Ability.Key | Ability.Store] },
      { module: 0, name: 10, parameters: 0, return: 0, typeParameters: [] },
    ];
    m.functionDefs = [
      { function: 0, visibility: 'Friend', isEntry: true, acquiresGlobalResources: [1, 0], code: null },
      { function: 1, visibility: 'Private', isEntry: false, acquiresGlobalResources: [], code: { locals: 0, code: [SIMPLE_INSTRUCTION.Ret], jumpTables: [] } },
    ];
    m.constantPool = [
      { type: U64, data: Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]) },
      { type: { $kind: 'Vector', type: U8 }, data: Uint8Array.from([2, 0x68, 0x69]) },
      { type: PRIMITIVE_TOKEN.Address, data: Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 2 : 0)) },
      { type: U64, data: Uint8Array.from([1, 2]) },
    ];
    return m;
  }

  const mod = buildModuleInterface(shapes());

  it('describes structs: fixed ability order, phantom type params, nested datatypes, native structs', () => {
    expect(mod.address).toBe(addr(5));
    expect(mod.structs.A).toEqual({
      abilities: ['store', 'key'],
      type_params: [{ constraints: ['copy', 'drop'], is_phantom: true }],
      is_native: false,
      fields: [
        {
          name: 'x',
          type: {
            kind: 'vector',
            type: { kind: 'datatype', address: SUI, module: 'coin', name: 'Coin', type_args: [{ kind: 'type_param', index: 0 }] },
          },
        },
        { name: 'y', type: { kind: 'datatype', address: addr(5), module: 'shapes', name: 'N', type_args: [] } },
      ],
    });
    expect(mod.structs.N).toEqual({ abilities: ['copy', 'drop', 'store', 'key'], type_params: [], is_native: true, fields: [] });
    expect(Object.keys(mod.structs)).toEqual(['A', 'N']);
  });

  it('describes functions: visibility, native, refs, type params, acquires sorted by name', () => {
    expect(mod.functions.f).toEqual({
      visibility: 'friend',
      is_entry: true,
      is_native: true,
      type_params: [{ constraints: ['store', 'key'] }],
      params: [
        {
          kind: 'ref',
          mutable: false,
          to: { kind: 'datatype', address: SUI, module: 'coin', name: 'Coin', type_args: [{ kind: 'type_param', index: 0 }] },
        },
        { kind: 'ref', mutable: true, to: { kind: 'u64' } },
        { kind: 'signer' },
      ],
      returns: [{ kind: 'u8' }, { kind: 'vector', type: { kind: 'bool' } }],
      acquires: [
        { address: addr(5), module: 'shapes', name: 'A' },
        { address: addr(5), module: 'shapes', name: 'N' },
      ],
      is_init: false,
    });
    expect(mod.functions.g.visibility).toBe('private');
    expect(mod.functions.g.is_native).toBe(false);
  });

  it('adds enums (variants in declaration order), friends and constants', () => {
    expect(mod.enums).toEqual({
      E: {
        abilities: ['copy', 'drop'],
        type_params: [{ constraints: ['store'], is_phantom: false }],
        variants: [
          { name: 'V1', fields: [{ name: 'x', type: { kind: 'type_param', index: 0 } }] },
          { name: 'V0', fields: [] },
        ],
      },
    });
    expect(mod.friends).toEqual([{ address: addr(5), module: 'friend_mod' }]);
    expect(mod.constants).toEqual([
      { index: 0, type: { kind: 'u64' }, bcs: '0xffffffffffffffff', value: '18446744073709551615' },
      { index: 1, type: { kind: 'vector', type: { kind: 'u8' } }, bcs: '0x026869', value: '0x6869' },
      { index: 2, type: { kind: 'address' }, bcs: '0x' + SUI.slice(2), value: SUI },
      { index: 3, type: { kind: 'u64' }, bcs: '0x0102' },
    ]);
  });

  it('keeps enums out of the original struct map', () => {
    const pkg = buildInterfaceJson({ packageId: '0x5', modules: [shapes()] });
    expect(Object.keys(toOriginalInterface(pkg).modules.shapes.structs)).toEqual(['A', 'N']);
    expect(interfaceSanity(pkg)).toEqual({ modules: 1, structs: 2, functions: 2, key_structs: 2 });
  });
});

describe('decodeConstantValue', () => {
  const vec = (type: SignatureToken): SignatureToken => ({ $kind: 'Vector', type });
  const b = (...xs: number[]) => Uint8Array.from(xs);

  it('decodes primitives', () => {
    expect(decodeConstantValue(Bool, b(1))).toBe(true);
    expect(decodeConstantValue(Bool, b(0))).toBe(false);
    expect(decodeConstantValue(U8, b(200))).toBe(200);
    expect(decodeConstantValue(PRIMITIVE_TOKEN.U16, b(0x34, 0x12))).toBe(0x1234);
    expect(decodeConstantValue(PRIMITIVE_TOKEN.U32, b(0xff, 0xff, 0xff, 0xff))).toBe(0xffffffff);
    expect(decodeConstantValue(PRIMITIVE_TOKEN.U128, new Uint8Array(16).fill(0xff))).toBe((2n ** 128n - 1n).toString());
    expect(
      decodeConstantValue(
        PRIMITIVE_TOKEN.U256,
        Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 1 : 0)),
      ),
    ).toBe('1');
  });

  it('decodes vectors (vector<u8> as hex, others as arrays, nested)', () => {
    expect(decodeConstantValue(vec(U8), b(0))).toBe('0x');
    expect(decodeConstantValue(vec(U64), b(2, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0))).toEqual(['1', '2']);
    expect(decodeConstantValue(vec(vec(U8)), b(2, 1, 0xab, 0))).toEqual(['0xab', '0x']);
    expect(decodeConstantValue(vec(Bool), b(3, 1, 0, 1))).toEqual([true, false, true]);
    const long = new Uint8Array(2 + 200);
    long.set([0xc8, 0x01], 0); // ULEB128 200
    expect(decodeConstantValue(vec(U8), long)).toBe('0x' + '00'.repeat(200));
  });

  it('gives up on undecodable types and malformed bytes', () => {
    expect(decodeConstantValue(PRIMITIVE_TOKEN.Signer, b())).toBeUndefined();
    expect(decodeConstantValue({ $kind: 'Datatype', index: 0 }, b(0))).toBeUndefined();
    expect(decodeConstantValue(U64, b(1))).toBeUndefined(); // too short
    expect(decodeConstantValue(U8, b(1, 2))).toBeUndefined(); // trailing bytes
    expect(decodeConstantValue(Bool, b(2))).toBeUndefined();
    expect(decodeConstantValue(vec(U8), b(0x80, 0x00))).toBeUndefined(); // non-canonical ULEB128
  });
});

// ---------------------------------------------------------------------------------------
// is_init (Sui's module initializer rules)
// ---------------------------------------------------------------------------------------

describe('is_init', () => {
  interface InitCase {
    params?: SignatureToken[];
    returns?: SignatureToken[];
    witness?: boolean;
    witnessAbilities?: number;
    visibility?: 'Private' | 'Public' | 'Friend';
    isEntry?: boolean;
    typeParameters?: number[];
    name?: 'init' | 'other';
  }
  // Datatype handles: 0 = my_coin::MY_COIN, 1 = 0x2::tx_context::TxContext, 2 = 0x5::tx_context::TxContext
  const OTW: SignatureToken = { $kind: 'Datatype', index: 0 };
  const ctx = (mutable = true, index = 1): SignatureToken => ({
    $kind: mutable ? 'MutableReference' : 'Reference',
    type: { $kind: 'Datatype', index },
  });

  function initModule(c: InitCase): CompiledModule {
    const m = emptyModule(7);
    m.identifiers = ['MY_COIN', 'TxContext', 'dummy_field', 'init', 'my_coin', 'other', 'tx_context'];
    m.addressIdentifiers = [addr(5), SUI];
    m.moduleHandles = [
      { address: 0, name: 4 },
      { address: 1, name: 6 },
      { address: 0, name: 6 },
    ];
    m.datatypeHandles = [
      { module: 0, name: 0, abilities: c.witnessAbilities ?? Ability.Drop, typeParameters: [] },
      { module: 1, name: 1, abilities: Ability.Drop, typeParameters: [] },
      { module: 2, name: 1, abilities: Ability.Drop, typeParameters: [] },
    ];
    if (c.witness ?? true) {
      m.structDefs = [{ structHandle: 0, fieldInformation: { $kind: 'Declared', fields: [{ name: 2, type: Bool }] } }];
    }
    m.signatures = [c.params ?? [OTW, ctx()], c.returns ?? []];
    m.functionHandles = [{ module: 0, name: c.name === 'other' ? 5 : 3, parameters: 0, return: 1, typeParameters: c.typeParameters ?? [] }];
    m.functionDefs = [
      {
        function: 0,
        visibility: c.visibility ?? 'Private',
        isEntry: c.isEntry ?? false,
        acquiresGlobalResources: [],
        code: { locals: 1, code: [SIMPLE_INSTRUCTION.Ret], jumpTables: [] },
      },
    ];
    return m;
  }
  const isInit = (c: InitCase): boolean => {
    const fns = buildModuleInterface(initModule(c)).functions;
    return fns[c.name ?? 'init'].is_init;
  };

  it('accepts init(otw, &mut TxContext) and init(otw, &TxContext)', () => {
    expect(isInit({})).toBe(true);
    expect(isInit({ params: [OTW, ctx(false)] })).toBe(true);
  });

  it('accepts init(&mut TxContext) in a module without a one-time witness', () => {
    expect(isInit({ witness: false, params: [ctx()] })).toBe(true);
  });

  it('rejects init(ctx) when the module has a one-time-witness candidate', () => {
    expect(isInit({ params: [ctx()] })).toBe(false);
  });

  it('rejects wrong shapes', () => {
    expect(isInit({ name: 'other' })).toBe(false);
    expect(isInit({ visibility: 'Public' })).toBe(false);
    expect(isInit({ visibility: 'Friend' })).toBe(false);
    expect(isInit({ isEntry: true })).toBe(false);
    expect(isInit({ typeParameters: [0] })).toBe(false);
    expect(isInit({ returns: [U64] })).toBe(false);
    expect(isInit({ params: [] })).toBe(false);
    expect(isInit({ params: [OTW] })).toBe(false);
    expect(isInit({ params: [U64, ctx()] })).toBe(false);
    expect(isInit({ witness: false, params: [OTW, ctx()] })).toBe(false);
    expect(isInit({ params: [OTW, ctx(true, 2)] })).toBe(false); // TxContext not from 0x2
    expect(isInit({ params: [{ $kind: 'Reference', type: OTW }, ctx()] })).toBe(false);
    expect(isInit({ params: [OTW, ctx(), ctx()] })).toBe(false);
    expect(isInit({ witnessAbilities: Ability.Drop | Ability.Copy })).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------
// Real packages
// ---------------------------------------------------------------------------------------

const GOLDEN_ID = '0x7f6b380dbf36236205615c64fcbb6c4e9454b76eff097dd6c6534f6d5070d17d';
const GOLDEN_FILE = path.join(here, 'golden', `interface-${GOLDEN_ID}.json`);

describeWithFixtures('bytecode interface JSON: golden package', ['corpus', GOLDEN_ID], () => {
  it('matches the committed golden output', () => {
    const text = renderInterfaceJson(buildInterfaceJson({ packageId: GOLDEN_ID, modules: loadCorpusPackage(GOLDEN_ID) }));
    if (process.env.SMI_UPDATE_GOLDEN === '1') writeFileSync(GOLDEN_FILE, text);
    expect(existsSync(GOLDEN_FILE), `missing ${GOLDEN_FILE}; run with SMI_UPDATE_GOLDEN=1`).toBe(true);
    expect(text).toBe(readFileSync(GOLDEN_FILE, 'utf8'));
  });

  it('is deterministic across independent loads', () => {
    const a = renderInterfaceJson(buildInterfaceJson({ packageId: GOLDEN_ID, modules: loadCorpusPackage(GOLDEN_ID) }));
    const b = renderInterfaceJson(buildInterfaceJson({ packageId: GOLDEN_ID, modules: loadCorpusPackage(GOLDEN_ID).reverse() }));
    expect(b).toBe(a);
  });
});

describeWithFixtures('bytecode interface JSON: enums in v7 framework modules', ['corpus', SUI], () => {
  const pkg = buildInterfaceJson({ packageId: '0x2', modules: loadCorpusPackage(SUI) });

  it('lists coin_registry enums with variants in declaration order', () => {
    const reg = pkg.modules.coin_registry;
    expect(Object.keys(reg.enums).sort()).toEqual(['MetadataCapState', 'RegulatedState', 'SupplyState']);
    const supplyOfT = { kind: 'datatype', address: SUI, module: 'balance', name: 'Supply', type_args: [{ kind: 'type_param', index: 0 }] };
    expect(reg.enums.SupplyState).toEqual({
      abilities: ['store'],
      type_params: [{ constraints: [], is_phantom: true }],
      variants: [
        { name: 'Fixed', fields: [{ name: 'pos0', type: supplyOfT }] },
        { name: 'BurnOnly', fields: [{ name: 'pos0', type: supplyOfT }] },
        { name: 'Unknown', fields: [] },
      ],
    });
    expect(reg.enums.MetadataCapState.variants.map((v) => v.name)).toEqual(['Claimed', 'Unclaimed', 'Deleted']);
    expect(reg.enums.RegulatedState.variants[0].fields.map((f) => f.name)).toEqual(['cap', 'allow_global_pause', 'variant']);
    expect(pkg.modules.derived_object.enums.ClaimedStatus).toEqual({
      abilities: ['store'],
      type_params: [],
      variants: [{ name: 'Reserved', fields: [] }],
    });
    // Enums never leak into the original struct map.
    expect(Object.keys(reg.structs)).not.toContain('SupplyState');
  });

  it('lists friends and decodes constants', () => {
    expect(pkg.modules.balance.friends).toEqual([
      { address: SUI, module: 'coin' },
      { address: SUI, module: 'sui' },
    ]);
    const errorConst = pkg.modules.coin_registry.constants[0];
    expect(errorConst.type).toEqual({ kind: 'vector', type: { kind: 'u8' } });
    expect(errorConst.value).toBe(errorConst.bcs.replace(/^0x../, '0x'));
  });

  it('marks only real initializers (none in 0x2 use a one-time witness)', () => {
    for (const [name, mod] of Object.entries(pkg.modules)) {
      for (const [fn, f] of Object.entries(mod.functions)) if (f.is_init) expect(`${name}::${fn}`).toMatch(/::init$/);
    }
  });
});

describeWithFixtures('bytecode interface JSON: whole corpus', ['corpus'], () => {
  const ids = (): string[] =>
    readdirSync(fixturePath('corpus'))
      .filter((d) => d.startsWith('0x'))
      .sort();

  it('renders every package canonically, with every definition present', () => {
    expect(ids()).toHaveLength(12);
    for (const id of ids()) {
      const modules = loadCorpusPackage(id);
      const pkg = buildInterfaceJson({ packageId: id, modules });
      const text = renderInterfaceJson(pkg);
      const parsed: unknown = JSON.parse(text);
      expect(keysSorted(parsed), id).toBe(true);
      expect(canonicalJson(parsed), id).toBe(text);
      expect(text.endsWith('}\n'), id).toBe(true);
      expect(pkg.module_names, id).toEqual([...pkg.module_names].sort());
      expect(interfaceSanity(pkg), id).toEqual({
        modules: modules.length,
        structs: modules.reduce((n, m) => n + m.structDefs.length, 0),
        functions: modules.reduce((n, m) => n + m.functionDefs.length, 0),
        key_structs: modules.reduce((n, m) => n + m.structDefs.filter((d) => m.datatypeHandles[d.structHandle].abilities & Ability.Key).length, 0),
      });
      const enumCount = Object.values(pkg.modules).reduce((n, m) => n + Object.keys(m.enums).length, 0);
      expect(enumCount, id).toBe(modules.reduce((n, m) => n + m.enumDefs.length, 0));
    }
  });

  it('finds one-time-witness initializers in Cetus CLMM', () => {
    const id = '0x1eabed72c53feb3805120a081dc15963c204dc8d091542592abaf7a35689b2fb';
    const pkg = buildInterfaceJson({ packageId: id, modules: loadCorpusPackage(id) });
    const init = pkg.modules.pool.functions.init;
    expect(init.is_init).toBe(true);
    expect(init.params[0]).toEqual({ kind: 'datatype', address: addr(id.slice(2)), module: 'pool', name: 'POOL', type_args: [] });
    const inits = Object.entries(pkg.modules)
      .filter(([, m]) => m.functions.init?.is_init)
      .map(([n]) => n);
    expect(inits).toEqual(['config', 'factory', 'partner', 'pool', 'position', 'rewarder']);
  });
});
