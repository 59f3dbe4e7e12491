/**
 * The one base of SMI's coded errors: a stable `code` (for programs), a `message` (for
 * people), the ES2022 `cause`, and `name` set to the class that was thrown. Every
 * package's error classes extend it, so a caller can catch any SMI error with one
 * `instanceof SmiError` and switch on its `code`.
 */

/** Options of an {@link SmiError}: the error it wraps, if any. */
export interface SmiErrorOptions {
  cause?: unknown;
}

/** Base class of SMI's errors: a stable string `code`, a message, and an optional `cause`. */
export class SmiError<Code extends string = string> extends Error {
  /** Stable, machine-readable code (part of the public API: never renamed). */
  readonly code: Code;

  constructor(code: Code, message: string, options?: SmiErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    // Subclasses that spell their name as a class field set the same value again.
    this.name = new.target.name;
    this.code = code;
  }
}

/** `true` when `e` is an {@link SmiError} (of any package). */
export function isSmiError(e: unknown): e is SmiError {
  return e instanceof SmiError;
}

/** The message of anything thrown: an `Error`'s `message`, anything else as text. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
