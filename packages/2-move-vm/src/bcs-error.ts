/**
 * Errors of BCS: bytes that do not decode as a type, values that cannot be encoded. Every
 * error carries a stable `code`; messages are for people and may change. The Sui BCS
 * codecs of `@smi/ptb` and the VM's own BCS readers throw this one class.
 */
import { SmiError } from '@smi/bytecode';

/** Stable codes of {@link BcsError}. */
export type BcsErrorCode =
  /** The bytes do not decode as the requested type (truncated, bad enum tag, bad UTF-8...). */
  | 'BCS_DECODE_FAILED'
  /** The value decoded but bytes are left over. */
  | 'BCS_TRAILING_BYTES'
  /** A map's keys are not in canonical (sorted, unique) order. */
  | 'BCS_NON_CANONICAL'
  /** A value cannot be encoded: wrong JS type, out of range, unknown enum variant... */
  | 'BCS_INVALID_VALUE'
  /** An address or object id is not 32 bytes of hex. */
  | 'BCS_INVALID_ADDRESS'
  /** A digest is not 32 bytes of base58. */
  | 'BCS_INVALID_DIGEST'
  /** A type tag string does not parse. */
  | 'BCS_INVALID_TYPE_TAG'
  /** A serde JSON value does not match the codec's shape. */
  | 'BCS_INVALID_JSON'
  /** A checkpoint blob does not start with the BCS encoding byte `0x01`. */
  | 'BCS_UNSUPPORTED_BLOB';

/** Error of the Sui BCS codecs, digests and converters. */
export class BcsError extends SmiError<BcsErrorCode> {
  override readonly name = 'BcsError';
  /** Where in the value the problem is (`data.Move.contents`, `[3]`), when known. */
  readonly path: string;

  constructor(code: BcsErrorCode, message: string, path = '') {
    super(code, path === '' ? message : `${message} (at ${path})`);
    this.path = path;
  }

  /** The same error, one path segment further out. */
  within(segment: string | number): BcsError {
    const head = typeof segment === 'number' ? `[${segment}]` : segment;
    const path = this.path === '' ? head : this.path.startsWith('[') ? `${head}${this.path}` : `${head}.${this.path}`;
    const bare = this.path === '' ? this.message : this.message.slice(0, this.message.length - ` (at ${this.path})`.length);
    const out = new BcsError(this.code, bare, path);
    if (this.cause !== undefined) out.cause = this.cause;
    return out;
  }
}
