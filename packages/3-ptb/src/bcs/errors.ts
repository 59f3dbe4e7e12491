/**
 * Errors of the Sui BCS layer are `@smi/move-vm`'s `BcsError` (one class for every BCS
 * error below and above the VM); `toBcsError` wraps anything else into one.
 */
import { errorMessage } from '@smi/bytecode';
import { BcsError, type BcsErrorCode } from '@smi/move-vm';

/** Wraps any thrown value into a {@link BcsError} with the given code (keeps `BcsError`s). */
export function toBcsError(e: unknown, code: BcsErrorCode): BcsError {
  if (e instanceof BcsError) return e;
  let message = errorMessage(e);
  // DataView and ULEB reads past the end of the input
  if (code === 'BCS_DECODE_FAILED' && (e instanceof RangeError || /buffer overflow/.test(message))) message = `unexpected end of input (${message})`;
  const out = new BcsError(code, message);
  out.cause = e;
  return out;
}
