import { hasErrors, summarizeErrors, type ValidationResult } from '../shared/validation/common.ts';

/**
 * The one error catalogue: services throw AppError with a code from here; routes turn it into
 * `{ error, message }` with the status below (docs/product.md#the-api).
 */
export const errorStatus = {
  invalid_input: 400,
  invalid_json: 400,
  invalid_link: 400,
  not_logged_in: 401,
  invalid_credentials: 401,
  second_factor_required: 401,
  second_factor_invalid: 401,
  forbidden: 403,
  wrong_password: 403,
  two_factor_setup_required: 403,
  csrf: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  /** A reader's library holds LIBRARY_LIMITS.saved articles at most. */
  library_full: 409,
  too_large: 413,
  unsupported_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  storage_full: 507,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields: Record<string, string> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { fields?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.code = code;
    this.status = errorStatus[code];
    this.fields = options.fields;
    this.headers = options.headers;
  }
}

export const notFound = (what = 'That item') => new AppError('not_found', `${what} was not found.`);
export const invalidInput = (message: string, fields?: Record<string, string>) =>
  new AppError('invalid_input', message, fields ? { fields } : {});

// SQLITE_FULL: the database (or the rate-limit file beside it) could not grow; SQLite rolled the
// write back, so nothing was saved.
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/** A full disk or a used-up quota while writing: 507, with nothing changed (the writer cleans up first). */
export function isDiskFull(error: unknown): boolean {
  return DISK_FULL_CODES.has((error as NodeJS.ErrnoException | null)?.code ?? '');
}

export const storageFull = () =>
  new AppError('storage_full', "The server's disk is full, so the file was not saved. Nothing was changed.");

/** A database write refused for want of space (any endpoint): answered by the API's error wrapper. */
export const nothingSaved = () =>
  new AppError('storage_full', "The server's disk is full, so nothing was saved. Please try again later.");

export function errorBody(error: AppError): { error: ErrorCode; message: string; fields?: Record<string, string> } {
  return error.fields
    ? { error: error.code, message: error.message, fields: error.fields }
    : { error: error.code, message: error.message };
}

/**
 * The values of a valid result; otherwise the 400 answer naming the bad fields, with the field
 * messages in form order as its message unless the endpoint has its own.
 */
export function throwIfInvalid<T>(result: ValidationResult<T>, message?: string): T {
  if (hasErrors(result.errors)) throw invalidInput(message ?? summarizeErrors(result.errors), result.errors);
  return result.values;
}
