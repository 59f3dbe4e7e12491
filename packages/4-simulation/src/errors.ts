/**
 * Errors of the simulation layer. Every failure outside a transaction (a transaction's
 * own failure is an `ExecutionStatus`, not an exception) is a {@link SimulationEnvironmentError}
 * with a stable `code`.
 */
import { SmiError } from '@smi/bytecode';

/** Stable codes of {@link SimulationEnvironmentError}. */
export type SimulationEnvironmentErrorCode =
  /** A package the request names is not loaded. */
  | 'MISSING_PACKAGE'
  /** An object the request names does not exist. */
  | 'MISSING_OBJECT'
  /** A type string does not parse or does not resolve, or a value does not fit its type. */
  | 'TYPE_MISMATCH'
  /** Field values could not be encoded into an object. */
  | 'OBJECT_CREATION_ERROR'
  /** A package could not be published (bad bytecode, verification, init abort). */
  | 'DEPLOYMENT_ERROR'
  /** Move source did not compile. */
  | 'COMPILATION_ERROR'
  /** Compiling Move needs `@smi/move-compiler` (an optional peer dependency), and it is not installed. */
  | 'COMPILER_NOT_INSTALLED'
  /** A state file is unreadable, of another version, or inconsistent. */
  | 'INVALID_STATE_FILE'
  /** A replay snapshot is malformed or incomplete. */
  | 'INVALID_SNAPSHOT'
  /** The framework or protocol config could not be found. */
  | 'MISSING_FIXTURES'
  /** No framework in any place it is looked for (`--framework`, SMI_FRAMEWORK, the corpus, the fixtures, the cache). */
  | 'FRAMEWORK_NOT_FOUND'
  /** No protocol config of the version asked for in the fixtures or the cache. */
  | 'PROTOCOL_CONFIG_NOT_FOUND'
  /** A request is malformed (bad id, bad option). */
  | 'INVALID_REQUEST';

/** Error of `@smi/simulation`. */
export class SimulationEnvironmentError extends SmiError<SimulationEnvironmentErrorCode> {
  override readonly name = 'SimulationEnvironmentError';
  /** Extra facts (ids, paths) for machine consumers. */
  readonly details: Readonly<Record<string, string>>;

  constructor(code: SimulationEnvironmentErrorCode, message: string, details: Record<string, string> = {}) {
    super(code, message);
    this.details = details;
  }
}
