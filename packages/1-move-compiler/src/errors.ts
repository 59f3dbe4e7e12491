/**
 * The typed error of the offline Move compiler.
 */
import { SmiError } from '@smi/bytecode';

/**
 * What went wrong:
 * - `COMPILATION_ERROR`: the Move compiler rejected the package (diagnostics in `diagnostics`);
 * - `DEPENDENCY_ERROR`: the package graph could not be resolved from the given dependencies
 *   (a dependency is missing, or the manifest's graph is inconsistent);
 * - `INVALID_INPUT`: the input itself is malformed (no Move.toml, bad dependency address...);
 * - `BUILDER_ERROR`: the WASM builder failed to load or returned something unexpected.
 */
export type MoveCompileErrorCode = 'COMPILATION_ERROR' | 'DEPENDENCY_ERROR' | 'INVALID_INPUT' | 'BUILDER_ERROR';

/** Details carried by a {@link MoveCompileError}. */
export interface MoveCompileErrorDetails {
  /** Full compiler or resolver output (multi-line, no ANSI colors). */
  diagnostics?: string;
  /** The builder's stage label (`compile`, `dependency_resolution`, `wasm_init`...), when it reported one. */
  category?: string;
  /** The builder's structured failure code, when it reported one. */
  builderCode?: string;
  cause?: unknown;
}

/** A Move package failed to compile. */
export class MoveCompileError extends SmiError<MoveCompileErrorCode> {
  override readonly name = 'MoveCompileError';
  /** Full compiler or resolver output: the diagnostics for `COMPILATION_ERROR`. */
  readonly diagnostics: string;
  /** The builder's stage label, when the builder reported the failure. */
  readonly category: string | undefined;
  /** The builder's structured failure code, when it reported one. */
  readonly builderCode: string | undefined;

  constructor(code: MoveCompileErrorCode, message: string, details: MoveCompileErrorDetails = {}) {
    super(code, message, { cause: details.cause });
    this.diagnostics = details.diagnostics ?? message;
    this.category = details.category;
    this.builderCode = details.builderCode;
  }
}

/** `true` when `e` is a {@link MoveCompileError}. */
export function isMoveCompileError(e: unknown): e is MoveCompileError {
  return e instanceof MoveCompileError;
}
