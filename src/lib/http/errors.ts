import { isErrorCode, type ErrorCode } from '../../../contract/errors';

/** Failures that never reach the server's catalogue: the client names them itself. */
export const CLIENT_ERROR_CODES = ['RequestTimeout', 'NetworkError'] as const;
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];
export type HttpErrorCode = ErrorCode | ClientErrorCode;

/** Every failed call rejects with this: the catalogue code is what screens translate (`errors.<code>`). */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly code: HttpErrorCode,
    /** HTTP status, or 0 when no response arrived. */
    readonly status: number,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function isHttpError(value: unknown): value is HttpError {
  return value instanceof HttpError;
}

/** Reads `{ code, message, details }`; a body without a known code still becomes a typed error. */
export function errorFromBody(status: number, text: string): HttpError {
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // A proxy's HTML error page: keep the status, use the generic code.
  }
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const code: ErrorCode = isErrorCode(fields.code) ? fields.code : status === 404 ? 'NotFound' : status === 403 ? 'Forbidden' : 'UnknownError';
  const message = typeof fields.message === 'string' ? fields.message : code;
  const details = typeof fields.details === 'object' && fields.details !== null ? (fields.details as Record<string, unknown>) : undefined;
  return new HttpError(code, status, message, details);
}
