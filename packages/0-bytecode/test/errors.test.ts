import { describe, expect, it } from 'vitest';
import { deserialize } from '@mysten/move-bytecode-template';
import { BytecodeError, deserializeModule, type DeserializeOptions } from '@smi/bytecode';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { frameworkModules } from './module-sources.js';
// @ts-expect-error plain JS module shared with the fuzz benchmark
import { mutations, templateStatus, MUTATION_KINDS } from '../bench/mutations.mjs';

/** The template runs upstream's legacy config: trailing bytes allowed, global storage ops read. */
const TEMPLATE_CONFIG: DeserializeOptions = {
  allowUnpublishable: false,
  checkNoExtraneousBytes: false,
  deprecateGlobalStorageOps: false,
};

function codeOf(bytes: Uint8Array, options?: DeserializeOptions): string | null {
  try {
    deserializeModule(bytes, options);
    return null;
  } catch (e) {
    if (!(e instanceof BytecodeError)) throw new Error(`non-BytecodeError thrown: ${String(e)}`);
    return e.code;
  }
}

const hex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/\s+/g, ''), 'hex'));

describe('hand-built malformed binaries', () => {
  const cases: [string, string, string][] = [
    ['empty input', '', 'BAD_MAGIC'],
    ['short magic', 'a11ceb', 'BAD_MAGIC'],
    ['wrong magic', 'a11ceb0c 06000000 00', 'BAD_MAGIC'],
    ['no version', 'a11ceb0b', 'MALFORMED'],
    ['version 0', 'a11ceb0b 00000000 00', 'UNKNOWN_VERSION'],
    ['version 8', 'a11ceb0b 08000005 00', 'UNKNOWN_VERSION'],
    ['v7 without the Sui flavor', 'a11ceb0b 07000000 00', 'UNKNOWN_VERSION'],
    ['v7 with another flavor', 'a11ceb0b 07000006 00', 'UNKNOWN_VERSION'],
    ['missing table count', 'a11ceb0b 06000000', 'MALFORMED'],
    ['non-canonical ULEB', 'a11ceb0b 06000000 8000', 'MALFORMED'],
    ['unknown table type', 'a11ceb0b 06000000 01 09 00 01 00 00', 'UNKNOWN_TABLE_TYPE'],
    ['table with zero size', 'a11ceb0b 06000000 01 01 00 00 00', 'BAD_HEADER_TABLE'],
    ['table not at offset 0', 'a11ceb0b 06000000 01 01 01 01 00 00', 'BAD_HEADER_TABLE'],
    ['duplicate table', 'a11ceb0b 06000000 02 01 00 02 01 02 02 0000 0000 00', 'DUPLICATE_TABLE'],
    ['table past the end', 'a11ceb0b 06000000 01 01 00 10 00', 'BAD_HEADER_TABLE'],
    ['no module handles', 'a11ceb0b 06000000 00 00', 'NO_MODULE_HANDLES'],
    ['self handle out of bounds', 'a11ceb0b 06000000 03 01 00 02 07 02 02 08 04 20 0000 01 61' + '00'.repeat(32) + '05', 'INDEX_OUT_OF_BOUNDS'],
    ['trailing bytes', 'a11ceb0b 06000000 03 01 00 02 07 02 02 08 04 20 0000 01 61' + '00'.repeat(32) + '00 ff', 'TRAILING_BYTES'],
    ['invalid identifier', 'a11ceb0b 06000000 03 01 00 02 07 02 02 08 04 20 0000 01 31' + '00'.repeat(32) + '00', 'MALFORMED'],
  ];
  for (const [name, bytes, code] of cases) {
    it(`${name} → ${code}`, () => {
      expect(codeOf(hex(bytes))).toBe(code);
    });
  }

  it('a minimal valid module reads', () => {
    const m = deserializeModule(hex('a11ceb0b 06000000 03 01 00 02 07 02 02 08 04 20 0000 01 61' + '00'.repeat(32) + '00'));
    expect(m.identifiers).toEqual(['a']);
    expect(m.addressIdentifiers).toEqual(['0x' + '0'.repeat(64)]);
  });

  it('errors carry the byte offset', () => {
    try {
      deserializeModule(hex('a11ceb0b 06000000 01 09 00 01 00 00'));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(BytecodeError);
      expect((e as BytecodeError).offset).toBe(9);
      expect((e as BytecodeError).message).toMatch(/UNKNOWN_TABLE_TYPE/);
    }
  });

  it('rejects non-byte input with a typed error', () => {
    expect(() => deserializeModule('abc' as unknown as Uint8Array)).toThrow(BytecodeError);
  });
});

describeWithFixtures('error parity with @mysten/move-bytecode-template', ['fixtures', 'framework'], () => {
  const modules = frameworkModules().map((m) => m.bytes);
  const list = mutations(modules, 2400, 2026) as { kind: string; bytes: Uint8Array }[];

  it('rejects exactly when the template rejects, with the same status code', () => {
    let rejected = 0;
    let sameCode = 0;
    const acceptMismatch: string[] = [];
    const codeMismatch: string[] = [];
    for (const { kind, bytes } of list) {
      let theirs: string | null = null;
      try {
        deserialize(bytes);
      } catch (e) {
        theirs = templateStatus(e);
      }
      const ours = codeOf(bytes, TEMPLATE_CONFIG);
      if ((theirs === null) !== (ours === null)) acceptMismatch.push(`${kind}: template ${theirs} ours ${ours}`);
      else if (theirs !== null) {
        rejected++;
        if (theirs === ours) sameCode++;
        else codeMismatch.push(`${kind}: template ${theirs} ours ${ours}`);
      }
    }
    console.log(`[parity] ${list.length} mutations (${MUTATION_KINDS.length} kinds): ${rejected} rejected by both, ${sameCode} with the same code (${((100 * sameCode) / rejected).toFixed(2)}%)`);
    // The mutations are seeded: the figures are exact.
    expect(list).toHaveLength(2400);
    expect({ rejected, sameCode }).toEqual({ rejected: 1917, sameCode: 1917 });
    expect(acceptMismatch).toEqual([]);
  });

  it('with Sui defaults, only BytecodeErrors escape and trailing bytes are refused', () => {
    for (const { bytes } of list) codeOf(bytes);
    const valid = modules[0];
    const longer = new Uint8Array(valid.length + 1);
    longer.set(valid);
    expect(codeOf(longer)).toBe('TRAILING_BYTES');
    expect(codeOf(longer, TEMPLATE_CONFIG)).toBe(null);
  });

  it('bounded work on hostile sizes: deep type nesting and huge counts are refused fast', () => {
    // A signature token of 300 nested vectors exceeds the depth limit (256).
    const content = '01' + '0a'.repeat(300) + '02';
    const size = content.length / 2; // 302 = 0xae 0x02 in ULEB
    expect(size).toBe(302);
    const nested = hex(`a11ceb0b 06000000 01 05 00 ae02 ${content} 00`);
    try {
      deserializeModule(nested);
      expect.unreachable();
    } catch (e) {
      expect((e as BytecodeError).code).toBe('MALFORMED');
      expect((e as BytecodeError).message).toMatch(/recursion depth/);
    }
    // A megabyte of garbage after a header claiming a huge table is refused at the claim
    // (byte 14, the table's size), without reading on into the garbage.
    const big = new Uint8Array(1 << 20).fill(0x0a);
    big.set(hex('a11ceb0b 06000000 01 05 00 ffff3f'), 0);
    try {
      deserializeModule(big);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(BytecodeError);
      expect({ code: (e as BytecodeError).code, offset: (e as BytecodeError).offset }).toEqual({ code: 'MALFORMED', offset: 14 });
      expect((e as BytecodeError).message).toMatch(/Table size too big/);
    }
  });
});
