/** One error type for the whole project: a machine code, a human message, optional per-field details. */

export type ErrorCode =
  | 'bad_request'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'request_timeout'
  | 'unauthorized'
  | 'forbidden'
  | 'sso_required'
  | 'two_factor_setup_required'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'limit_reached'
  | 'validation_failed'
  | 'plan_limit_reached'
  | 'rate_limited'
  | 'unavailable'
  | 'internal';

export interface FieldProblem {
  field: string;
  message: string;
}

/** The single table from error code to HTTP status and to Connect/gRPC code name. */
export const errorStatus: Record<ErrorCode, { http: number; connect: string }> = {
  bad_request: { http: 400, connect: 'invalid_argument' },
  unsupported_media_type: { http: 415, connect: 'invalid_argument' },
  payload_too_large: { http: 413, connect: 'resource_exhausted' },
  request_timeout: { http: 408, connect: 'deadline_exceeded' },
  unauthorized: { http: 401, connect: 'unauthenticated' },
  forbidden: { http: 403, connect: 'permission_denied' },
  sso_required: { http: 403, connect: 'permission_denied' },
  two_factor_setup_required: { http: 403, connect: 'permission_denied' },
  not_found: { http: 404, connect: 'not_found' },
  method_not_allowed: { http: 405, connect: 'unimplemented' },
  conflict: { http: 409, connect: 'already_exists' },
  limit_reached: { http: 409, connect: 'resource_exhausted' },
  validation_failed: { http: 422, connect: 'invalid_argument' },
  plan_limit_reached: { http: 402, connect: 'resource_exhausted' },
  rate_limited: { http: 429, connect: 'resource_exhausted' },
  unavailable: { http: 503, connect: 'unavailable' },
  internal: { http: 500, connect: 'internal' },
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: FieldProblem[];
  /** For `rate_limited`: when to try again (sent as `Retry-After`). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    details: FieldProblem[] = [],
    opts: { retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
    this.retryAfterSeconds = opts.retryAfterSeconds;
  }

  get status(): number {
    return errorStatus[this.code].http;
  }
}

export const validationError = (details: FieldProblem[], message = 'The request has invalid fields.') =>
  new AppError('validation_failed', message, details);

export const notFound = (what: string) => new AppError('not_found', `${what} not found.`);

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
