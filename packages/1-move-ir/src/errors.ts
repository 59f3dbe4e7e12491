/**
 * Typed errors of the Move IR toolchain. Every error carries a stable `code`; its
 * `message` is upstream's text (`ParserError: Invalid Token: expected Colon, not LParen`,
 * `Unbound struct Self::T`, ...) so transcripts match the upstream `.snap` files.
 */
import { SmiError } from '@smi/bytecode';

/** A source span: UTF-16 offsets into the parsed text, end exclusive. */
export interface Loc {
  readonly start: number;
  readonly end: number;
}

/** Stable codes of {@link MoveIrError}. */
export type MoveIrErrorCode =
  /** The source text is not valid Move IR (lexing or parsing). */
  | 'PARSE_ERROR'
  /** The module parsed but cannot be assembled (unbound names, bad constants, ...). */
  | 'COMPILE_ERROR'
  /** The assembled module cannot be written as bytes (a binary-format limit is exceeded). */
  | 'SERIALIZE_ERROR'
  /** A transactional test file or one of its `//#` commands is malformed. */
  | 'TASK_ERROR';

/** Base class of every error thrown by `@smi/move-ir`. */
export class MoveIrError extends SmiError<MoveIrErrorCode> {
  override readonly name: string = 'MoveIrError';

  constructor(code: MoveIrErrorCode, message: string) {
    super(code, message);
  }
}

/**
 * A lexing or parsing error. For upstream's `InvalidToken` errors the message is
 * `ParserError: Invalid Token: <detail>`, for user errors `ParserError: <detail>`, and for
 * a source with forbidden characters upstream's bare text.
 */
export class IrParseError extends MoveIrError {
  override readonly name = 'IrParseError';
  /** Upstream's message without the `ParserError: ...` prefix. */
  readonly detail: string;
  /** Where the error is, as UTF-16 offsets into the source. */
  readonly location: Loc | undefined;

  constructor(detail: string, location: Loc | undefined, kind: 'invalid-token' | 'user' | 'plain' = 'invalid-token') {
    const message = kind === 'invalid-token' ? `ParserError: Invalid Token: ${detail}` : kind === 'user' ? `ParserError: ${detail}` : detail;
    super('PARSE_ERROR', message);
    this.detail = detail;
    this.location = location;
  }
}

/** An assembly error; the message is upstream's compiler text. */
export class IrCompileError extends MoveIrError {
  override readonly name = 'IrCompileError';

  constructor(message: string) {
    super('COMPILE_ERROR', message);
  }
}

/**
 * The assembled module cannot be serialized. The message is upstream's serializer text
 * when it is known (`value (256) cannot exceed (255)`), else `@smi/bytecode`'s.
 */
export class IrSerializeError extends MoveIrError {
  override readonly name = 'IrSerializeError';

  constructor(message: string) {
    super('SERIALIZE_ERROR', message);
  }
}

/** A malformed transactional test file or task command. */
export class TaskError extends MoveIrError {
  override readonly name = 'TaskError';

  constructor(message: string) {
    super('TASK_ERROR', message);
  }
}

/** `true` when `e` is one of this package's errors. */
export function isMoveIrError(e: unknown): e is MoveIrError {
  return e instanceof MoveIrError;
}
