import type { FastifyReply } from 'fastify';
import { renderError, type ErrorBody, type ErrorCode, type ErrorParams } from '../../contract/errors/index.ts';

/**
 * Typed errors: services throw these with a stable code from contract/errors; one error handler
 * maps them to `{message, code, params?}` with a status. They are expected outcomes (a 404, a
 * refused input), never logged with a stack, so none is captured: capturing one walks and
 * deoptimization-decodes up to ten optimized frames, which measured ~17 µs per error, nearly as
 * much as a whole /api/session request. A bug still throws an ordinary Error, with its stack.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly params: ErrorParams | undefined;
  constructor(statusCode: number, code: ErrorCode, params?: ErrorParams) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(renderError(code, params));
    Error.stackTraceLimit = limit;
    this.statusCode = statusCode;
    this.code = code;
    this.params = params;
  }
}
/** A refused field: its name travels in params.field, so the message can name it in any language. */
export class Invalid extends AppError {
  readonly field: string;
  constructor(field: string, code: ErrorCode = 'validation.invalid', params?: ErrorParams) {
    super(400, code, { field, ...params });
    this.field = field;
  }
}
export class Unauthorized extends AppError {
  constructor(code: ErrorCode = 'auth.sign_in_required', params?: ErrorParams) {
    super(401, code, params);
  }
}
export class PaymentRequired extends AppError {
  constructor(code: ErrorCode, params?: ErrorParams) {
    super(402, code, params);
  }
}
export class Forbidden extends AppError {
  constructor(code: ErrorCode = 'auth.forbidden', params?: ErrorParams) {
    super(403, code, params);
  }
}
export class NotFound extends AppError {
  constructor(code: ErrorCode = 'request.not_found', params?: ErrorParams) {
    super(404, code, params);
  }
}
export class Conflict extends AppError {
  constructor(code: ErrorCode, params?: ErrorParams) {
    super(409, code, params);
  }
}
export class TooLarge extends AppError {
  constructor(code: ErrorCode = 'request.too_large', params?: ErrorParams) {
    super(413, code, params);
  }
}
export class TooManyRequests extends AppError {
  constructor(code: ErrorCode = 'request.rate_limited', params?: ErrorParams) {
    super(429, code, params);
  }
}
export class ServiceUnavailable extends AppError {
  constructor(code: ErrorCode, params?: ErrorParams) {
    super(503, code, params);
  }
}

export function errorBody(code: ErrorCode, params?: ErrorParams): ErrorBody {
  return params ? { message: renderError(code, params), code, params } : { message: renderError(code), code };
}

/** The one way an error answer is written. */
export function sendError(reply: FastifyReply, status: number, code: ErrorCode, params?: ErrorParams): FastifyReply {
  return reply.status(status).send(errorBody(code, params));
}
