/** A transaction builder bound to a `SimulationEnvironment`: typed pure values, objects at their current version. */
import type { Json } from '@smi/move-vm';
import type { ObjectArg } from '@smi/ptb';
import { PtbBuilder, type CommandOutput } from './builder.js';

/** What a builder uses of its environment (a `SimulationEnvironment`): values encoded by type, objects at their version. */
interface BuilderEnvironment {
  encodeValue(type: string, value: Json): Uint8Array;
  objectArg(id: string, options?: { mutable?: boolean; receiving?: boolean }): ObjectArg;
}

/** A builder bound to an environment: `pure(type, json)` and `object(id)`. */
export class EnvTransactionBuilder extends PtbBuilder {
  constructor(private readonly env: BuilderEnvironment) {
    super();
  }

  /** A pure input: `value` (JSON) encoded as `type` (`u64`, `address`, `vector<u8>`, `0x1::string::String`...). */
  pure(type: string, value: Json): ReturnType<PtbBuilder['pureBytes']> {
    return this.pureBytes(this.env.encodeValue(type, value));
  }

  /** An object input, at its current version (shared objects mutable unless `mutable: false`). */
  object(id: string, options: { mutable?: boolean; receiving?: boolean } = {}): ReturnType<PtbBuilder['objectArg']> {
    return this.objectArg(this.env.objectArg(id, options));
  }

  /** Call `target` (sugar for `moveCall`). */
  call(target: string, args: Parameters<PtbBuilder['moveCall']>[1] = [], typeArgs: readonly string[] = []): CommandOutput {
    return this.moveCall(target, args, typeArgs);
  }
}
