/** Why a report cannot be made. */
export type ReportErrorCode = 'FILE_NOT_FOUND' | 'INPUT_UNREADABLE' | 'INPUT_UNKNOWN' | 'NO_INPUTS';

/** A report input that cannot be used (a typed error with a stable `code`). */
export class ReportError extends Error {
  override readonly name = 'ReportError';
  constructor(
    readonly code: ReportErrorCode,
    message: string,
  ) {
    super(message);
  }
}
