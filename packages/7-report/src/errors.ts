/** Why a report cannot be made. */
import { SmiError } from '@smi/bytecode';
export type ReportErrorCode = 'FILE_NOT_FOUND' | 'INPUT_UNREADABLE' | 'INPUT_UNKNOWN' | 'NO_INPUTS';

/** A report input that cannot be used (a typed error with a stable `code`). */
export class ReportError extends SmiError<ReportErrorCode> {
  override readonly name = 'ReportError';
  constructor(code: ReportErrorCode, message: string) {
    super(code, message);
  }
}
