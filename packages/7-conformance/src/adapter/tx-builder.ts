/**
 * Building the transactions of tasks: parsed values become PTB inputs (pure BCS, owned,
 * shared or receiving object references, `vector[object(..), ...]` as a `MakeMoveVec`),
 * parsed `//>` commands become PTB commands, and a small builder that shares identical
 * inputs the way upstream's `ProgrammableTransactionBuilder` does (used by `run`,
 * `publish`, `upgrade`, `transfer-object`; `programmable` keeps its inputs as written).
 */
import { SUI_ADDRESS } from '@smi/bytecode';
import { type Argument, type CallArg, type Command, type ObjectArg, parseTypeTag, type ProgrammableTransaction, type TypeTag } from '@smi/ptb';
import type { AdapterChain } from './chain.js';
import { AdapterError } from './errors.js';
import type { ParsedCommand } from './ptb-syntax.js';
import { formatFakeId, type FakeId, type ParsedType, type ParsedValue, pureBytes, typeTagString } from './values.js';

/** Staged packages (`stage-package`): modules and digest, by name. */
export type StagedPackages = ReadonlyMap<string, { modules: Uint8Array[]; digest: Uint8Array }>;

function ownerStartVersion(o: { owner: { $kind: string } & Record<string, unknown> }): bigint {
  const owner = o.owner;
  if (owner.$kind === 'Shared') return (owner.Shared as { initialSharedVersion: bigint }).initialSharedVersion;
  if (owner.$kind === 'ConsensusAddressOwner') return (owner.ConsensusAddressOwner as { startVersion: bigint }).startVersion;
  if (owner.$kind === 'Party') return (owner.Party as { startVersion: bigint }).startVersion;
  return 0n;
}

/** Resolve a fake id to a real one (`INVALID TEST` when unknown). */
export function resolveFake(chain: AdapterChain, id: FakeId): string {
  const real = chain.realId(id);
  if (real === undefined) throw new AdapterError('INVALID_TEST', `INVALID TEST. Unknown object, object(${formatFakeId(id)})`);
  return real;
}

/** The object input for an object value (upstream `SuiValue::into_call_arg`). */
export function objectArgOf(chain: AdapterChain, v: Extract<ParsedValue, { id: FakeId }>): ObjectArg {
  const id = resolveFake(chain, v.id);
  const o = chain.getObject(id, v.version);
  if (o === undefined) throw new AdapterError('INVALID_TEST', `INVALID TEST. Could not load object argument ${id}`);
  const ref = chain.refOf(id, v.version);
  if (ref === undefined) throw new AdapterError('INVALID_TEST', `INVALID TEST. Could not load object argument ${id}`);
  const shared = (mutability: 'Mutable' | 'Immutable' | 'NonExclusiveWrite'): ObjectArg =>
    ({ $kind: 'SharedObject', SharedObject: { objectId: id, initialSharedVersion: ownerStartVersion(o), mutability: { $kind: mutability, [mutability]: true } } }) as ObjectArg;
  switch (v.kind) {
    case 'object':
      if (o.owner.$kind === 'Shared' || o.owner.$kind === 'ConsensusAddressOwner') return shared('Mutable');
      if (o.owner.$kind === 'Party') throw new AdapterError('UNSUPPORTED', 'party-owned objects as object(..) inputs');
      return { $kind: 'ImmOrOwnedObject', ImmOrOwnedObject: ref } as ObjectArg;
    case 'owned':
      return { $kind: 'ImmOrOwnedObject', ImmOrOwnedObject: ref } as ObjectArg;
    case 'receiving':
      return { $kind: 'Receiving', Receiving: ref } as ObjectArg;
    case 'immshared':
      return shared('Immutable');
    case 'mutshared':
      return shared('Mutable');
    case 'nonexclusive':
      return shared('NonExclusiveWrite');
    default:
      throw new AdapterError('UNSUPPORTED', `${v.kind} values`);
  }
}

/** A value as a transaction input (upstream `into_call_arg`). */
export function callArgOf(chain: AdapterChain, v: ParsedValue, staged: StagedPackages): CallArg {
  const resolve = (n: string): string | undefined => chain.named.get(n);
  switch (v.kind) {
    case 'object':
    case 'owned':
    case 'receiving':
    case 'immshared':
    case 'mutshared':
    case 'nonexclusive':
      return { $kind: 'Object', Object: objectArgOf(chain, v) } as CallArg;
    case 'digest': {
      const s = staged.get(v.package);
      if (s === undefined) throw new AdapterError('INVALID_TEST', `Unbound staged package '${v.package}'`);
      return { $kind: 'Pure', Pure: { bytes: Uint8Array.from([s.digest.length, ...s.digest]) } } as CallArg;
    }
    case 'withdraw': {
      // `withdraw<Balance<T>>(amount)`: a funds withdrawal of the sender's balance of T.
      const tag = parseTypeTag(typeTagString(v.type, resolve));
      const s = tag.$kind === 'struct' ? tag.struct : null;
      if (s === null || s.address !== SUI_ADDRESS || s.module !== 'balance' || s.name !== 'Balance' || s.typeParams.length !== 1) {
        throw new AdapterError('INVALID_TEST', 'withdraw<T> takes a sui::balance::Balance<T> type');
      }
      return {
        $kind: 'FundsWithdrawal',
        FundsWithdrawal: { reservation: { $kind: 'MaxAmountU64', MaxAmountU64: v.amount }, typeArg: { $kind: 'Balance', Balance: s.typeParams[0] }, withdrawFrom: { $kind: 'Sender', Sender: true } },
      } as CallArg;
    }
    case 'vector':
      if (v.elems.length > 0 && v.elems[0].kind === 'object') throw new AdapterError('INVALID_TEST', 'obj vec is not supported as an input');
      return { $kind: 'Pure', Pure: { bytes: pureBytes(v, resolve) } } as CallArg;
    default:
      return { $kind: 'Pure', Pure: { bytes: pureBytes(v, resolve) } } as CallArg;
  }
}

/** A type as a type tag, named addresses resolved. */
export function typeTagOf(chain: AdapterChain, t: ParsedType): TypeTag {
  return parseTypeTag(typeTagString(t, (n) => chain.named.get(n)));
}

function keyOf(arg: CallArg): string | null {
  if (arg.$kind === 'Pure') return `p:${Buffer.from(arg.Pure.bytes).toString('hex')}`;
  if (arg.$kind === 'Object') {
    const o = arg.Object;
    return `o:${o.$kind === 'SharedObject' ? o.SharedObject.objectId : o.$kind === 'Receiving' ? o.Receiving.objectId : o.ImmOrOwnedObject.objectId}`;
  }
  return null;
}

/** A PTB builder that shares identical inputs (upstream `ProgrammableTransactionBuilder`). */
export class SharedInputBuilder {
  private readonly inputs: CallArg[] = [];
  private readonly byKey = new Map<string, number>();
  private readonly commands: Command[] = [];

  input(arg: CallArg): Argument {
    const key = keyOf(arg);
    const found = key === null ? undefined : this.byKey.get(key);
    if (found !== undefined) {
      const prev = this.inputs[found];
      // A shared object asked for both ways is taken mutably.
      if (prev.$kind === 'Object' && prev.Object.$kind === 'SharedObject' && arg.$kind === 'Object' && arg.Object.$kind === 'SharedObject') {
        if (arg.Object.SharedObject.mutability.$kind === 'Mutable') this.inputs[found] = arg;
      }
      return { $kind: 'Input', Input: found } as Argument;
    }
    this.inputs.push(arg);
    if (key !== null) this.byKey.set(key, this.inputs.length - 1);
    return { $kind: 'Input', Input: this.inputs.length - 1 } as Argument;
  }

  pureAddress(address: string): Argument {
    return this.input({ $kind: 'Pure', Pure: { bytes: Uint8Array.from(Buffer.from(address.slice(2), 'hex')) } } as CallArg);
  }

  command(c: Command): Argument {
    this.commands.push(c);
    return { $kind: 'Result', Result: this.commands.length - 1 } as Argument;
  }

  /** A value as an argument: objects vectors become a `MakeMoveVec` of their inputs. */
  value(chain: AdapterChain, v: ParsedValue, staged: StagedPackages): Argument {
    if (v.kind === 'vector' && v.elems.length > 0 && v.elems[0].kind === 'object') {
      const elements = v.elems.map((e) => {
        if (e.kind !== 'object') throw new AdapterError('INVALID_TEST', 'unexpected nested non-object value in args');
        return this.input({ $kind: 'Object', Object: objectArgOf(chain, e) } as CallArg);
      });
      return this.command({ $kind: 'MakeMoveVec', MakeMoveVec: { type: null, elements } } as Command);
    }
    return this.input(callArgOf(chain, v, staged));
  }

  build(): ProgrammableTransaction {
    return { inputs: [...this.inputs], commands: [...this.commands] };
  }
}

/** A `//>` command as a PTB command. */
export function commandOf(chain: AdapterChain, c: ParsedCommand, staged: StagedPackages): Command {
  const address = (name: string, what: string): string => {
    const a = chain.named.get(name);
    if (a === undefined) throw new AdapterError('INVALID_TEST', `${what} '${name}'`);
    return a;
  };
  switch (c.kind) {
    case 'MoveCall':
      return {
        $kind: 'MoveCall',
        MoveCall: {
          package: address(c.package, 'Unable to resolve package'),
          module: c.module,
          function: c.function,
          typeArguments: c.typeArgs.map((t) => typeTagOf(chain, t)),
          arguments: c.args,
        },
      } as Command;
    case 'TransferObjects':
      return { $kind: 'TransferObjects', TransferObjects: { objects: c.objects, address: c.address } } as Command;
    case 'SplitCoins':
      return { $kind: 'SplitCoins', SplitCoins: { coin: c.coin, amounts: c.amounts } } as Command;
    case 'MergeCoins':
      return { $kind: 'MergeCoins', MergeCoins: { destination: c.destination, sources: c.sources } } as Command;
    case 'MakeMoveVec':
      return { $kind: 'MakeMoveVec', MakeMoveVec: { type: c.type === null ? null : typeTagOf(chain, c.type), elements: c.elements } } as Command;
    case 'Publish': {
      const s = staged.get(c.package);
      if (s === undefined) throw new AdapterError('INVALID_TEST', `No staged package '${c.package}'`);
      return { $kind: 'Publish', Publish: { modules: s.modules, dependencies: c.dependencies.map((d) => address(d, 'Unbound dependency')) } } as Command;
    }
    case 'Upgrade': {
      const s = staged.get(c.package);
      if (s === undefined) throw new AdapterError('INVALID_TEST', `No staged package '${c.package}'`);
      return {
        $kind: 'Upgrade',
        Upgrade: {
          modules: s.modules,
          dependencies: c.dependencies.map((d) => address(d, 'Unbound dependency')),
          package: address(c.upgraded, 'Unbound upgraded package'),
          ticket: c.ticket,
        },
      } as Command;
    }
  }
}
