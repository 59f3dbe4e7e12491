// @smi/simulation: a simulated chain from the fixtures: split a coin and transfer part of it,
// then compile a Move package and publish it (the compiler, @smi/move-compiler, is an
// optional peer installed beside it), and call the published function.
import { compileAndPublish, fromFixtures, SimulationEnvironment } from '@smi/simulation';
import { check, done, fixture } from './fixtures.mjs';

const { packages, protocolConfig } = fromFixtures(fixture());
const env = SimulationEnvironment.create({ packages, protocolConfig });
const coin = env.createObject({ type: '0x2::coin::Coin<0x2::sui::SUI>', fields: { balance: 1000 } });
const tx = env.tx();
const [part] = tx.splitCoins(tx.object(coin.id), [tx.pure('u64', 100)]);
check(part !== undefined, 'splitCoins gives a result');
tx.transferObjects([part], tx.pure('address', '0xb0b'));
const out = env.execute(tx.build());
check(out.status.$kind === 'Success', `the split succeeds (${out.status.$kind})`);
const left = env.call('0x2::coin::value', [coin.id], { typeArgs: ['0x2::sui::SUI'] });
check(left.transaction.status.$kind === 'Success' && String(left.returnValues[0]?.value) === '900', `900 MIST left (got ${JSON.stringify(left.returnValues[0]?.value)})`);

const published = await compileAndPublish(env, {
  files: { 'sources/demo.move': 'module demo::demo;\npublic fun larger(a: u64, b: u64): u64 { a.max(b) }\n' },
  packageName: 'demo',
});
const larger = env.call(`${published.packageId}::demo::larger`, [3, 7]);
check(larger.transaction.status.$kind === 'Success' && String(larger.returnValues[0]?.value) === '7', `demo::larger(3, 7) is 7 (got ${JSON.stringify(larger.returnValues[0]?.value)})`);
done(`split a coin (gas ${out.gasUsed.computationCost} computation); compiled and published demo at ${published.packageId.slice(0, 10)}…, larger(3, 7) = 7`);
