/**
 * Building a programmable transaction: inputs (pure bytes, object references) and commands,
 * each command returning the `Argument` of its result. The builder knows nothing of a
 * store; {@link SimulationEnvironment.tx} returns one whose `pure` and `object` read types
 * and object versions from the environment.
 *
 * ```ts
 * const tx = env.tx();
 * const [coin] = tx.splitCoins(tx.gas, [tx.pure('u64', 100)]);
 * tx.transferObjects([coin], tx.pure('address', '0xa11ce'));
 * env.execute(tx.build());
 * ```
 */
import { canonicalAddress, pushUleb128, errorMessage } from '@smi/bytecode';
import { type Argument, type CallArg, type Command, type ObjectArg, parseTypeTag, type ProgrammableTransaction, type TypeTag } from '@smi/ptb';
import { SimulationEnvironmentError } from './errors.js';

/** The result of a command: usable as a whole (`Result(i)`) or destructured (`NestedResult(i, k)`). */
export type CommandOutput = Argument & Iterable<Argument> & { nested(k: number): Argument };

function output(index: number): CommandOutput {
  const base = { $kind: 'Result', Result: index } as Argument;
  const nested = (k: number): Argument => ({ $kind: 'NestedResult', NestedResult: [index, k] }) as Argument;
  return Object.assign(base, {
    nested,
    *[Symbol.iterator](): Iterator<Argument> {
      // Destructuring takes as many results as it asks for.
      for (let k = 0; ; k++) yield nested(k);
    },
  }) as CommandOutput;
}

/** Parse `0xpkg::module::function`. */
export function parseTarget(target: string): { package: string; module: string; function: string } {
  const parts = target.split('::');
  if (parts.length !== 3 || parts.some((p) => p === '')) {
    throw new SimulationEnvironmentError('INVALID_REQUEST', `bad call target "${target}": expected <package>::<module>::<function>`);
  }
  let pkg: string;
  try {
    pkg = canonicalAddress(parts[0]);
  } catch {
    throw new SimulationEnvironmentError('INVALID_REQUEST', `bad package address in "${target}"`);
  }
  return { package: pkg, module: parts[1], function: parts[2] };
}

/** Parse a type tag, as a {@link SimulationEnvironmentError} on failure. */
export function typeTagOf(text: string): TypeTag {
  try {
    return parseTypeTag(text);
  } catch (e) {
    throw new SimulationEnvironmentError('TYPE_MISMATCH', `bad type "${text}": ${errorMessage(e)}`);
  }
}

/** A programmable transaction under construction. */
export class PtbBuilder {
  protected readonly inputList: CallArg[] = [];
  protected readonly commandList: Command[] = [];

  /** The gas coin. */
  get gas(): Argument {
    return { $kind: 'GasCoin', GasCoin: true } as Argument;
  }

  /** An input (returns `Input(i)`). */
  input(arg: CallArg): Argument {
    this.inputList.push(arg);
    return { $kind: 'Input', Input: this.inputList.length - 1 } as Argument;
  }

  /** A pure input from its BCS bytes. */
  pureBytes(bytes: Uint8Array): Argument {
    return this.input({ $kind: 'Pure', Pure: { bytes } } as CallArg);
  }

  /** An object input. */
  objectArg(arg: ObjectArg): Argument {
    return this.input({ $kind: 'Object', Object: arg } as CallArg);
  }

  /** A command (returns its result). */
  command(c: Command): CommandOutput {
    this.commandList.push(c);
    return output(this.commandList.length - 1);
  }

  moveCall(target: string, args: readonly Argument[] = [], typeArgs: readonly string[] = []): CommandOutput {
    const t = parseTarget(target);
    return this.command({
      $kind: 'MoveCall',
      MoveCall: { package: t.package, module: t.module, function: t.function, typeArguments: typeArgs.map(typeTagOf), arguments: [...args] },
    } as Command);
  }

  splitCoins(coin: Argument, amounts: readonly Argument[]): CommandOutput {
    return this.command({ $kind: 'SplitCoins', SplitCoins: { coin, amounts: [...amounts] } } as Command);
  }

  mergeCoins(destination: Argument, sources: readonly Argument[]): CommandOutput {
    return this.command({ $kind: 'MergeCoins', MergeCoins: { destination, sources: [...sources] } } as Command);
  }

  transferObjects(objects: readonly Argument[], address: Argument): CommandOutput {
    return this.command({ $kind: 'TransferObjects', TransferObjects: { objects: [...objects], address } } as Command);
  }

  makeMoveVec(type: string | null, elements: readonly Argument[]): CommandOutput {
    return this.command({ $kind: 'MakeMoveVec', MakeMoveVec: { type: type === null ? null : typeTagOf(type), elements: [...elements] } } as Command);
  }

  publish(modules: readonly Uint8Array[], dependencies: readonly string[]): CommandOutput {
    return this.command({ $kind: 'Publish', Publish: { modules: [...modules], dependencies: dependencies.map((d) => canonicalAddress(d)) } } as Command);
  }

  upgrade(modules: readonly Uint8Array[], dependencies: readonly string[], pkg: string, ticket: Argument): CommandOutput {
    return this.command({
      $kind: 'Upgrade',
      Upgrade: { modules: [...modules], dependencies: dependencies.map((d) => canonicalAddress(d)), package: canonicalAddress(pkg), ticket },
    } as Command);
  }

  /** The transaction. */
  build(): ProgrammableTransaction {
    return { inputs: [...this.inputList], commands: [...this.commandList] };
  }
}

/** `n` as 8 little-endian bytes (BCS `u64`). */
export function u64le(n: bigint): Uint8Array {
  return leBytes(n, 8);
}

export function leBytes(n: bigint, size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
}

/** BCS of a `vector<u8>`: ULEB128 length, then the bytes. */
export function vecU8(bytes: Uint8Array): Uint8Array {
  return Uint8Array.from([...pushUleb128([], bytes.length), ...bytes]);
}
