/**
 * The catalogue and constructor graph on real bytecode: return types read from the
 * signatures (not from names), visibility on every edge, setup producers, statistics,
 * modules that do not link, upgraded packages keyed by their original id.
 */
import { expect, it } from 'vitest';
import { Ability } from '@smi/bytecode';
import { Catalogue, ConstructorGraph, datatypeKey, formatTy } from '@smi/inhabit';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { corpusPackage, DEMO, demoPackage, framework } from './support.js';

const SUI = datatypeKey('0x2', 'sui', 'SUI');
const COIN = datatypeKey('0x2', 'coin', 'Coin');

describeWithFixtures('catalogue and constructor graph', ['fixtures', 'framework'], () => {
  it('constructors are the functions whose real return type is the datatype, whatever their name', async () => {
    const graph = new ConstructorGraph(new Catalogue([...framework().framework, await demoPackage()]));
    const names = (key: string, kind?: string): string[] =>
      graph
        .edgesOf(key)
        .filter((e) => kind === undefined || e.kind === kind)
        .map((e) => `${e.fn.module}::${e.fn.name}`);
    // `start_purchase` is not named new_/create_, and is a constructor all the same.
    expect(names(datatypeKey(DEMO, 'shop', 'Receipt'), 'constructor')).toEqual(['shop::start_purchase', 'shop::leave_receipt']);
    // `create_board` is named like one, returns nothing, and shares a Board instead.
    expect(names(datatypeKey(DEMO, 'shop', 'Board'))).toEqual([]);
    expect(graph.setupProducers(datatypeKey(DEMO, 'shop', 'Board')).map((e) => [e.fn.name, e.outcome])).toEqual([['create_board', 'shared']]);
    expect(graph.setupProducers(datatypeKey(DEMO, 'shop', 'Plaque')).map((e) => [e.fn.name, e.outcome])).toEqual([['make_plaque', 'frozen']]);
    expect(names(COIN, 'constructor')).toContain('coin::zero');
    // References and tuples are producers, not constructors.
    expect(graph.edgesOf(COIN).some((e) => e.kind === 'producer')).toBe(true);
  });

  it('every edge records its visibility; private and package functions are kept but not callable', async () => {
    const graph = new ConstructorGraph(new Catalogue([...framework().framework, await demoPackage()]));
    const secret = graph.edgesOf(datatypeKey(DEMO, 'shop', 'Secret'));
    expect(secret.map((e) => [e.fn.name, e.fn.visibility, e.callable])).toEqual([
      ['make_secret', 'Private', false],
      ['private_only', 'Private', false],
    ]);
    expect(graph.valueProducers(datatypeKey(DEMO, 'shop', 'Secret'))).toEqual([]);
  });

  it('prints the statistics the original printed', async () => {
    const graph = new ConstructorGraph(new Catalogue(framework().framework));
    const s = graph.stats;
    expect(Object.keys(s).slice(0, 5)).toEqual(['total_types', 'types_with_constructors', 'total_constructors', 'types_with_producers', 'total_producers']);
    expect(s.total_types).toBeGreaterThan(200);
    expect(s.types_with_constructors).toBeGreaterThan(50);
    expect(s.total_constructors).toBeGreaterThanOrEqual(s.types_with_constructors);
  });

  it('abilities of instantiated types follow their arguments', () => {
    const c = new Catalogue(framework().framework);
    const coin = { $kind: 'Datatype' as const, key: COIN, args: [{ $kind: 'Datatype' as const, key: SUI, args: [] }] };
    expect(c.abilities(coin)).toBe(Ability.Key | Ability.Store);
    const option = { $kind: 'Datatype' as const, key: datatypeKey('0x1', 'option', 'Option'), args: [coin] };
    // Option<Coin<SUI>>: store, but neither copy nor drop (Coin has neither).
    expect(c.abilities(option)).toBe(Ability.Store);
    expect(formatTy(option)).toBe(`${datatypeKey('0x1', 'option', 'Option')}<${COIN}<${SUI}>>`);
  });
});

describeWithFixtures('catalogue on the corpus', ['corpus'], () => {
  it('a module that needs a package nobody loaded does not link; the rest of its package does', () => {
    const cetus = corpusPackage('0x1eabed72');
    const c = new Catalogue([...framework().framework, cetus]);
    const missing = c.missingDependency(cetus.originalId, 'pool');
    expect(missing).toMatch(/^0x[0-9a-f]{64}::\w+$/);
    expect(c.hasPackage((missing as string).split('::')[0])).toBe(false);
    expect(c.missingDependency('0x2', 'coin')).toBeNull();
  });

  it('two versions of a package: types keyed by the original id, functions by each storage id', () => {
    const v1 = corpusPackage('0x826915f8');
    const v2 = corpusPackage('0xc5b2a504');
    const c = new Catalogue([...framework().framework, v1, v2]);
    expect(v2.originalId).toBe(v1.originalId);
    expect(c.latestVersionOf(v1.originalId)).toBe(v2.id);
    expect(c.functionsOf(v1.id).every((f) => f.packageId === v1.id && f.address === v1.originalId)).toBe(true);
    expect(c.functionsOf(v2.id).every((f) => f.packageId === v2.id && f.address === v1.originalId)).toBe(true);
  });
});
