/**
 * Self-test of the test-only template adapter: converting the reference deserializer's
 * JSON into our model and back must reproduce every corpus module byte for byte, and the
 * conversion must cover every instruction and token kind.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import type { Bytecode, CompiledModule } from '../src/file-format.js';
import { emptyModule } from '../src/file-format.js';
import { OPCODE, PRIMITIVE_TOKEN, SIMPLE_INSTRUCTION } from '../src/opcodes.js';
import { fromTemplate, serializeWithTemplate, templateJson } from './support/template-adapter.js';

function corpusModules(): { name: string; bytes: Uint8Array }[] {
  const root = fixturePath('corpus');
  const out: { name: string; bytes: Uint8Array }[] = [];
  for (const id of readdirSync(root)
    .filter((d) => d.startsWith('0x'))
    .sort()) {
    const dir = path.join(root, id, 'bytecode_modules');
    for (const f of readdirSync(dir)
      .filter((x) => x.endsWith('.mv'))
      .sort()) {
      out.push({ name: `${id}/${f}`, bytes: new Uint8Array(readFileSync(path.join(dir, f))) });
    }
  }
  return out;
}

describeWithFixtures('template adapter on the corpus', ['corpus'], () => {
  it('round-trips every corpus module through our model byte for byte', () => {
    const modules = corpusModules();
    expect(modules.length).toBeGreaterThan(200);
    for (const { name, bytes } of modules) {
      const m = fromTemplate(bytes);
      expect(m.publishable, name).toBe(true);
      expect(
        m.addressIdentifiers.every((a) => /^0x[0-9a-f]{64}$/.test(a)),
        name,
      ).toBe(true);
      expect(Buffer.from(serializeWithTemplate(m)).equals(Buffer.from(bytes)), name).toBe(true);
    }
  });

  it('reads v7 enums, variant instructions and jump tables', () => {
    const file = fixturePath('corpus', '0x' + '2'.padStart(64, '0'), 'bytecode_modules', 'coin_registry.mv');
    const m = fromTemplate(new Uint8Array(readFileSync(file)));
    expect(m.version).toBe(7);
    expect(m.enumDefs.length).toBe(3);
    const code = m.functionDefs.flatMap((f) => f.code?.code ?? []);
    expect(code.some((i) => i.$kind === 'VariantSwitch')).toBe(true);
    const tables = m.functionDefs.flatMap((f) => f.code?.jumpTables ?? []);
    expect(tables.length).toBeGreaterThan(0);
    expect(tables[0].jumpTable.$kind).toBe('Full');
  });
});

describe('template adapter on hand-built modules', () => {
  /** A one-function module whose body is `code` (not verifiable, only bounds-valid). */
  function moduleWith(code: Bytecode[]): CompiledModule {
    const m = emptyModule(7);
    m.identifiers = ['S', 'f', 'm', 'x', 'E', 'V'];
    m.addressIdentifiers = ['0x' + '0'.repeat(63) + '1'];
    m.moduleHandles = [{ address: 0, name: 2 }];
    m.datatypeHandles = [
      { module: 0, name: 0, abilities: 0xf, typeParameters: [{ constraints: 0, isPhantom: false }] },
      { module: 0, name: 4, abilities: 0x3, typeParameters: [{ constraints: 0x2, isPhantom: true }] },
    ];
    m.enumDefs = [{ enumHandle: 1, variants: [{ variantName: 5, fields: [{ name: 3, type: PRIMITIVE_TOKEN.U8 }] }] }];
    m.enumDefInstantiations = [{ def: 0, typeParameters: 1 }];
    m.variantHandles = [{ enumDef: 0, variant: 0 }];
    m.variantInstantiationHandles = [{ enumDef: 0, variant: 0 }];
    m.structDefs = [
      { structHandle: 0, fieldInformation: { $kind: 'Declared', fields: [{ name: 3, type: PRIMITIVE_TOKEN.Bool }] } },
      { structHandle: 0, fieldInformation: { $kind: 'Native' } },
    ];
    m.signatures = [[], [PRIMITIVE_TOKEN.Signer, { $kind: 'Vector', type: PRIMITIVE_TOKEN.U8 }, { $kind: 'TypeParameter', index: 0 }]];
    m.structDefInstantiations = [{ def: 0, typeParameters: 1 }];
    m.functionHandles = [{ module: 0, name: 1, parameters: 0, return: 0, typeParameters: [0] }];
    m.functionInstantiations = [{ handle: 0, typeParameters: 1 }];
    m.fieldHandles = [{ owner: 0, field: 0 }];
    m.fieldInstantiations = [{ handle: 0, typeParameters: 1 }];
    m.metadata = [{ key: Uint8Array.from([1, 2]), value: Uint8Array.from([3, 4, 5]) }];
    m.constantPool = [{ type: PRIMITIVE_TOKEN.U64, data: new Uint8Array(8) }];
    m.functionDefs = [
      {
        function: 0,
        visibility: 'Friend',
        isEntry: true,
        acquiresGlobalResources: [0],
        code: { locals: 1, code, jumpTables: [{ headEnum: 0, jumpTable: { $kind: 'Full', offsets: [0] } }] },
      },
    ];
    return m;
  }

  it('covers every instruction kind, wide immediates, metadata and native structs', () => {
    const code: Bytecode[] = [];
    for (const kind of Object.keys(OPCODE) as Bytecode['$kind'][]) {
      if (kind in SIMPLE_INSTRUCTION) code.push({ $kind: kind } as Bytecode);
      else if (kind === 'LdU8' || kind === 'LdU16' || kind === 'LdU32') code.push({ $kind: kind, value: 7 });
      else if (kind === 'LdU64' || kind === 'LdU128') code.push({ $kind: kind, value: 2n ** 63n + 5n });
      else if (kind === 'LdU256') code.push({ $kind: kind, value: 2n ** 255n + 0x0102n });
      else if (kind === 'VecPack' || kind === 'VecUnpack') code.push({ $kind: kind, index: 1, count: 3n });
      else code.push({ $kind: kind, index: 0 } as Bytecode);
    }
    const m = moduleWith(code);
    const bytes = serializeWithTemplate(m);
    const back = fromTemplate(bytes);
    expect(back).toEqual(m);
    expect(templateJson(bytes).function_defs[0].code?.code).toContainEqual({ LdU256: [2, 1, ...new Array<number>(29).fill(0), 0x80] });
  });

  it('marks test-only modules (magic 0xDEADC0DE) unpublishable', () => {
    const bytes = Uint8Array.from(serializeWithTemplate(moduleWith([SIMPLE_INSTRUCTION.Ret])));
    bytes.set([0xde, 0xad, 0xc0, 0xde], 0);
    const m = fromTemplate(bytes);
    expect(m.publishable).toBe(false);
    expect({ ...m, publishable: true }).toEqual(moduleWith([SIMPLE_INSTRUCTION.Ret]));
  });
});
