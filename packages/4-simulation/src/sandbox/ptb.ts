/**
 * `execute_ptb`: the request's inputs and commands become a real programmable transaction
 * (inputs in request order, so `Input(i)` means the request's input `i`), which runs
 * through the environment and is answered with its real effects.
 *
 * Inputs: `pure {value, value_type}` (any Move type the value fits, encoded with the type's
 * layout), `object {object_id, mode}` (the object's owner decides owned vs shared; `mode`
 * picks a shared object's mutability, or `receiving`), `gas {budget}` (a new `Coin<SUI>` of
 * that balance, owned by the sender), `witness {witness_type}` (pure `[1]`, as the
 * original; Sui rejects it unless the type is a pure type).
 */
import { deserializeModule, errorMessage } from '@smi/bytecode';
import type { Argument } from '@smi/ptb';
import type { PtbBuilder } from '../builder.js';
import type { SimulationEnvironment } from '../environment.js';
import { SimulationEnvironmentError } from '../errors.js';
import { publishDependencies } from '../packages.js';
import { transactionResponse } from './effects.js';
import type { SandboxResponse } from './protocol.js';
import type { PtbArgSpec, PtbCommandSpec, PtbInputSpec } from './ptb-request.js';
import { RequestError, type RequestOf } from './request.js';

const SUI_COIN = '0x2::coin::Coin<0x2::sui::SUI>';

/** A short description of a command (`MoveCall 0x2::coin::split<T> (2 args)`). */
export function describeCommand(c: PtbCommandSpec): string {
  switch (c.type) {
    case 'move_call': {
      const target = c.target ?? `${c.package}::${c.module}::${c.function}`;
      return `MoveCall ${target}${c.type_args.length > 0 ? `<${c.type_args.join(', ')}>` : ''} (${c.args.length} args)`;
    }
    case 'transfer_objects':
      return `TransferObjects (${c.objects.length} objects)`;
    case 'split_coins':
      return `SplitCoins (${c.amounts.length} amounts)`;
    case 'merge_coins':
      return `MergeCoins (${c.sources.length} sources)`;
    case 'make_move_vec':
      return `MakeMoveVec${c.element_type ? `<${c.element_type}>` : ''} (${c.elements.length} elements)`;
    case 'publish':
      return `Publish (${c.modules.length} modules)`;
    case 'upgrade':
      return `Upgrade ${c.package} (${c.modules.length} modules)`;
    case 'receive':
      return `Receive ${c.object_id}`;
  }
}

function decodeModules(modules: readonly string[]): Uint8Array[] {
  return modules.map((m) => new Uint8Array(Buffer.from(m, 'base64')));
}

function dependenciesOf(env: SimulationEnvironment, bytes: readonly Uint8Array[], given: readonly string[] | undefined, where: string): string[] {
  if (given !== undefined) return [...given];
  const decoded = bytes.map((b, i) => {
    try {
      return deserializeModule(b);
    } catch (e) {
      throw new SimulationEnvironmentError('DEPLOYMENT_ERROR', `${where}: module ${i} does not deserialize: ${errorMessage(e)}`);
    }
  });
  return publishDependencies(env, decoded);
}

/** Add the request's inputs to `tx`; returns the ids of `gas` coins it created. */
function addInputs(env: SimulationEnvironment, tx: ReturnType<SimulationEnvironment['tx']>, inputs: readonly PtbInputSpec[], sender: string, created: string[]): void {
  inputs.forEach((input, i) => {
    const where = `inputs[${i}]`;
    try {
      switch (input.type) {
        case 'pure':
          tx.pure(input.value_type, input.value);
          return;
        case 'object':
          if (input.mode === 'receiving') tx.object(input.object_id, { receiving: true });
          else tx.object(input.object_id, { mutable: input.mode !== 'immutable' && input.mode !== 'imm' });
          return;
        case 'gas': {
          const coin = env.createObject({ type: SUI_COIN, fields: { balance: input.budget.toString() }, owner: { $kind: 'AddressOwner', address: sender } });
          created.push(coin.id);
          tx.object(coin.id);
          return;
        }
        case 'witness':
          tx.pureBytes(Uint8Array.of(1));
          return;
      }
    } catch (e) {
      if (e instanceof SimulationEnvironmentError) throw new SimulationEnvironmentError(e.code, `${where}: ${e.message}`, { ...e.details });
      throw e;
    }
  });
}

function argOf(tx: PtbBuilder, a: PtbArgSpec, inputCount: number, where: string): Argument {
  switch (a.$kind) {
    case 'Input':
      if (a.index >= inputCount) throw new RequestError(`${where}: input ${a.index} does not exist (the request has ${inputCount} inputs)`);
      return { $kind: 'Input', Input: a.index } as Argument;
    case 'Result':
      return { $kind: 'Result', Result: a.command } as Argument;
    case 'NestedResult':
      return { $kind: 'NestedResult', NestedResult: [a.command, a.index] } as Argument;
    case 'GasCoin':
      return tx.gas;
  }
}

function addCommand(env: SimulationEnvironment, tx: ReturnType<SimulationEnvironment['tx']>, c: PtbCommandSpec, n: number, inputCount: number): void {
  const where = `commands[${n}]`;
  const arg = (a: PtbArgSpec, what: string): Argument => argOf(tx, a, inputCount, `${where}.${what}`);
  switch (c.type) {
    case 'move_call':
      tx.moveCall(
        c.target ?? `${c.package}::${c.module}::${c.function}`,
        c.args.map((a, i) => arg(a, `args[${i}]`)),
        c.type_args,
      );
      return;
    case 'transfer_objects': {
      const recipient = typeof c.recipient === 'string' ? tx.pure('address', c.recipient) : arg(c.recipient, 'recipient');
      tx.transferObjects(
        c.objects.map((a, i) => arg(a, `objects[${i}]`)),
        recipient,
      );
      return;
    }
    case 'split_coins':
      tx.splitCoins(
        arg(c.coin, 'coin'),
        c.amounts.map((a, i) => arg(a, `amounts[${i}]`)),
      );
      return;
    case 'merge_coins':
      tx.mergeCoins(
        arg(c.target, 'target'),
        c.sources.map((a, i) => arg(a, `sources[${i}]`)),
      );
      return;
    case 'make_move_vec':
      tx.makeMoveVec(
        c.element_type ?? null,
        c.elements.map((a, i) => arg(a, `elements[${i}]`)),
      );
      return;
    case 'publish': {
      const bytes = decodeModules(c.modules);
      tx.publish(bytes, dependenciesOf(env, bytes, c.dependencies, where));
      return;
    }
    case 'upgrade': {
      const bytes = decodeModules(c.modules);
      tx.upgrade(bytes, dependenciesOf(env, bytes, c.dependencies, where), c.package, arg(c.ticket, 'ticket'));
      return;
    }
    case 'receive':
      throw new RequestError(
        `${where}: Sui has no receive command; add the object as an input with "mode": "receiving" and pass it to 0x2::transfer::public_receive (or the module's own receive function)`,
      );
  }
}

/** Run an `execute_ptb` request. */
export function executePtb(env: SimulationEnvironment, req: RequestOf<'execute_ptb'>): SandboxResponse {
  const sender = req.sender ?? env.sender;
  const tx = env.tx();
  const created: string[] = [];
  let outcome;
  try {
    addInputs(env, tx, req.inputs, sender, created);
    req.commands.forEach((c, n) => addCommand(env, tx, c, n, req.inputs.length));
    outcome = env.execute(tx.build(), {
      sender,
      ...(req.gas_budget !== undefined ? { gasBudget: req.gas_budget } : {}),
      ...(req.gas_coin !== undefined ? { gasCoin: req.gas_coin } : {}),
      ...(req.checks !== undefined ? { checks: req.checks } : {}),
    });
  } catch (e) {
    // Nothing ran: the coins made for `gas` inputs go again.
    for (const id of created) env.store.delete(id);
    throw e;
  }
  return transactionResponse(env, outcome, {
    mockGas: req.gas_coin === undefined,
    describe: (i) => {
      const c = req.commands[i];
      return c === undefined ? undefined : describeCommand(c);
    },
  });
}
