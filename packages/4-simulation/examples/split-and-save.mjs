// Split a coin, transfer part of it, read it back, save the state.
// Run from the repo root after `pnpm build`: node packages/4-simulation/examples/split-and-save.mjs
import os from 'node:os';
import path from 'node:path';
import { fromFixtures, SimulationEnvironment } from '@smi/simulation';

const { packages, protocolConfig } = fromFixtures(process.env.SMI_FIXTURES ?? '../shared');
const env = SimulationEnvironment.create({ packages, protocolConfig });
const coin = env.createObject({ type: '0x2::coin::Coin<0x2::sui::SUI>', fields: { balance: 1000 } });

const tx = env.tx();
const [part] = tx.splitCoins(tx.object(coin.id), [tx.pure('u64', 100)]);
tx.transferObjects([part], tx.pure('address', '0xb0b'));
const out = env.execute(tx.build());

console.log('status', out.status.$kind, 'digest', out.digest);
console.log('gas', out.gasUsed);
for (const w of out.written) console.log(w.kind, w.id, w.digest);
console.log('balance now', env.call('0x2::coin::value', [coin.id], { typeArgs: ['0x2::sui::SUI'] }).returnValues[0].value);
const file = path.join(os.tmpdir(), 'smi-example-state.json');
env.saveState(file);
console.log('state saved to', file);
