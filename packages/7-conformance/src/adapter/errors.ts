/**
 * Errors of the adapter suite runner. A task's *expected* failure (a transaction that
 * aborts, a rejected input) is output, not an exception; these are the runner's own
 * problems, each with a stable code:
 *
 * - `PARSE_ERROR`: a task, value, type or PTB command does not parse;
 * - `UNSUPPORTED`: a task kind, option or value the runner does not implement (skipped);
 * - `INVALID_TEST`: the test refers to something that does not exist (an unknown fake id,
 *   an unbound account or named address), as upstream's `INVALID TEST` errors.
 */
import { SmiError } from '@smi/bytecode';

/** Stable codes of {@link AdapterError}. */
export type AdapterErrorCode = 'PARSE_ERROR' | 'UNSUPPORTED' | 'INVALID_TEST';

/** Error of the adapter suite runner. */
export class AdapterError extends SmiError<AdapterErrorCode> {
  override readonly name = 'AdapterError';

  constructor(code: AdapterErrorCode, message: string) {
    super(code, message);
  }
}

/** `true` when `e` makes its task a skip rather than a failure. */
export function isSkipError(e: unknown): e is AdapterError {
  return e instanceof AdapterError && e.code === 'UNSUPPORTED';
}
