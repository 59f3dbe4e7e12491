/**
 * Our codecs against Sui's serde-reflection schema (format__sui.yaml.snap), used as an
 * independent oracle three ways: recorded structure (layout, field and variant names and
 * indices), random valid BCS of every type (every enum variant) decoding and re-encoding
 * byte for byte, and a schema-driven walker whose serde JSON output of the real fixtures
 * converts back through `fromSerdeJson` to the same bytes.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { decodeBcs, encodeBcs, fromSerdeJson, shapeOf, suiBcs, type Codec } from '@smi/ptb';
import type { SuiBcsTypeName } from '../src/bcs/index.js';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { RandomBcs, compareShape, loadSchema, prng, walk, type Registry } from './support/serde-schema.js';

const SCHEMA = ['fixtures', 'bcs-schema', 'format__sui.yaml.snap'];

/** Our codec names whose schema name differs. */
const SCHEMA_NAME: Partial<Record<SuiBcsTypeName, string>> = {
  Address: 'SuiAddress',
  ExecutionFailureStatus: 'ExecutionErrorKind',
  Transaction: 'sui_types::message_envelope::Envelope<sui_types::transaction::SenderSignedData, sui_types::crypto::EmptySignInfo>',
  CertifiedCheckpointSummary: 'sui_types::message_envelope::Envelope<sui_types::messages_checkpoint::CheckpointSummary, sui_types::crypto::AuthorityQuorumSignInfo<true>>',
};
/** Codecs with no schema type of their own (primitives; `ObjectRef` is an anonymous tuple upstream). */
const NO_SCHEMA = new Set<SuiBcsTypeName>(['u8', 'u16', 'u32', 'u64', 'bool', 'string', 'bytes', 'ObjectRef']);

const roots = (Object.keys(suiBcs) as SuiBcsTypeName[]).filter((k) => !NO_SCHEMA.has(k)).map((k) => [k, SCHEMA_NAME[k] ?? k] as const);

const codec = (k: SuiBcsTypeName): Codec<unknown> => suiBcs[k] as unknown as Codec<unknown>;

describeWithFixtures('Sui BCS codecs vs the serde-reflection schema', SCHEMA, () => {
  let reg: Registry;
  const schema = (): Registry => (reg ??= loadSchema(fixturePath(...SCHEMA)));

  it('every codec has a schema type', () => {
    const missing = roots.filter(([, name]) => schema()[name] === undefined).map(([k]) => k);
    expect(missing).toEqual([]);
    expect(roots.length).toBeGreaterThan(70);
  });

  it('recorded structure equals the schema: layout, field names, variant names and indices', () => {
    const problems = roots.flatMap(([k, name]) => compareShape(schema(), suiBcs[k], { TYPENAME: name }, k));
    expect(problems).toEqual([]);
  });

  it('variant orders equal the staged enum orders (exec_failure_status.yaml, type_tag.yaml)', () => {
    const staged = (...p: string[]): string[] =>
      readFileSync(fixturePath('fixtures', 'bcs-schema', ...p), 'utf8')
        .split('\n')
        .map((l) => /^(\d+): (\w+)$/.exec(l.trim()))
        .filter((m): m is RegExpExecArray => m !== null)
        .sort((a, b) => Number(a[1]) - Number(b[1]))
        .map((m) => m[2]);
    const ours = (c: Parameters<typeof shapeOf>[0]): string[] => {
      const s = shapeOf(c);
      return s.kind === 'enum' ? s.variants.map((v) => v.name) : [];
    };
    expect(ours(suiBcs.ExecutionFailureStatus)).toEqual(staged('exec_failure_status.yaml'));
    expect(ours(suiBcs.TypeTag).map((n) => n.toLowerCase())).toEqual(staged('move-core-types', 'type_tag.yaml').map((n) => n.toLowerCase()));
    expect(ours(suiBcs.TypeTag).map((n) => n.toLowerCase())).toEqual(staged('type_input.yaml').map((n) => n.toLowerCase()));
  });

  it('random valid BCS of every type, every enum variant, decodes and re-encodes byte for byte', () => {
    const gen = new RandomBcs(schema(), prng(0x5eed));
    let samples = 0;
    for (const [k, name] of roots) {
      const c = codec(k);
      for (let i = 0; i < 120; i++) {
        const bytes = gen.of(name);
        const value = decodeBcs(c, bytes);
        const back = encodeBcs(c, value);
        if (Buffer.compare(Buffer.from(back), Buffer.from(bytes)) !== 0) {
          throw new Error(`${k} sample ${i}: re-encoding differs\n  in  ${Buffer.from(bytes).toString('hex')}\n  out ${Buffer.from(back).toString('hex')}`);
        }
        samples++;
      }
    }
    // every variant of every enum reached from our codecs was produced at least once
    const enums = [...gen.variantsSeen.entries()].filter(([name]) => !name.includes('::'));
    const incomplete = enums.filter(([name, seen]) => {
      const fmt = schema()[name] as { ENUM: Record<string, unknown> };
      return seen.size !== Object.keys(fmt.ENUM).length;
    });
    expect(incomplete.map(([n]) => n)).toEqual([]);
    expect(samples).toBe(roots.length * 120);
    console.log(`[bcs-schema] ${samples} random values of ${roots.length} types, ${enums.length} enums with every variant`);
  });

  const checkpoints: [string, number][] = [
    ['20958462.chk', 1],
    ['20958462.bcs', 0],
    ['15918264.chk', 1],
    ['16005062.chk', 1],
    ['ocs/1137.chk', 0],
  ];
  it.each(checkpoints)('the schema walker reads %s whole; its serde JSON converts back to the same bytes', (file, skip) => {
    const bytes = new Uint8Array(readFileSync(fixturePath('fixtures', 'checkpoints', file))).subarray(skip);
    const { value, consumed } = walk(schema(), 'CheckpointData', bytes);
    expect(consumed).toBe(bytes.length);
    const ours = fromSerdeJson(suiBcs.CheckpointData, value);
    expect(Buffer.from(encodeBcs(suiBcs.CheckpointData, ours)).equals(Buffer.from(bytes))).toBe(true);
  });
});
