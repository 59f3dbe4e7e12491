/**
 * Why a tool call failed, with a stable `code`. A tool never throws at the client: every
 * failure — bad input, an unknown package, a compile error, a bug of ours — becomes a tool
 * result with `isError: true` and the JSON text `{"error_code","message"}` (see
 * `results.ts`). A Move abort of a called function is not one of them: it is a result.
 */
import type { SandboxErrorCategory, SandboxResponse } from '@smi/simulation';
import { SmiError } from '@smi/bytecode';

/** Stable codes of failed tool calls. */
export type SmiToolErrorCode =
  | 'INVALID_INPUT'
  | 'UNKNOWN_TOOL'
  | 'MISSING_PACKAGE'
  | 'MISSING_OBJECT'
  | 'TYPE_MISMATCH'
  | 'DESERIALIZATION_FAILED'
  | 'EXECUTION_ERROR'
  | 'SHARED_OBJECT_LOCK_CONFLICT'
  | 'DEPLOYMENT_ERROR'
  | 'OBJECT_CREATION_ERROR'
  | 'COMPILATION_ERROR'
  | 'CONTRACT_ABORT'
  | 'NOT_A_TARGET'
  | 'INTERNAL';

/** Every code, for documentation and tests. */
export const SMI_TOOL_ERROR_CODES: readonly SmiToolErrorCode[] = [
  'INVALID_INPUT',
  'UNKNOWN_TOOL',
  'MISSING_PACKAGE',
  'MISSING_OBJECT',
  'TYPE_MISMATCH',
  'DESERIALIZATION_FAILED',
  'EXECUTION_ERROR',
  'SHARED_OBJECT_LOCK_CONFLICT',
  'DEPLOYMENT_ERROR',
  'OBJECT_CREATION_ERROR',
  'COMPILATION_ERROR',
  'CONTRACT_ABORT',
  'NOT_A_TARGET',
  'INTERNAL',
];

/** A failed tool call: its code, message and, for compile errors, the compiler's diagnostics. */
export class SmiToolError extends SmiError<SmiToolErrorCode> {
  override readonly name = 'SmiToolError';
  readonly diagnostics: string | undefined;

  constructor(code: SmiToolErrorCode, message: string, options: { diagnostics?: string; cause?: unknown } = {}) {
    super(code, message, { cause: options.cause });
    this.diagnostics = options.diagnostics;
  }
}

const CATEGORY_CODES: Record<SandboxErrorCategory, SmiToolErrorCode> = {
  ParseError: 'INVALID_INPUT',
  MissingPackage: 'MISSING_PACKAGE',
  MissingObject: 'MISSING_OBJECT',
  TypeMismatch: 'TYPE_MISMATCH',
  DeserializationFailed: 'DESERIALIZATION_FAILED',
  ExecutionError: 'EXECUTION_ERROR',
  SharedObjectLockConflict: 'SHARED_OBJECT_LOCK_CONFLICT',
  DeploymentError: 'DEPLOYMENT_ERROR',
  ObjectCreationError: 'OBJECT_CREATION_ERROR',
  CompilationError: 'COMPILATION_ERROR',
  ContractAbort: 'CONTRACT_ABORT',
};

/** The error of a failed sandbox response (a bug of ours, "internal error: …", is `INTERNAL`). */
export function sandboxError(r: SandboxResponse): SmiToolError {
  const message = r.error ?? 'the sandbox request failed';
  if (message.startsWith('internal error')) return new SmiToolError('INTERNAL', message);
  const code = r.error_category === undefined ? 'EXECUTION_ERROR' : CATEGORY_CODES[r.error_category];
  return new SmiToolError(code, message);
}
