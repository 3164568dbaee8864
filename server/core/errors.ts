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

/**
 * The one way an error answer is written. A refusal whose params carry `retryAfter` (seconds) says
 * it in the Retry-After header too, which clients and proxies read without knowing our codes.
 */
export function sendError(reply: FastifyReply, status: number, code: ErrorCode, params?: ErrorParams): FastifyReply {
  if (typeof params?.retryAfter === 'number') reply.header('retry-after', String(params.retryAfter));
  return reply.status(status).send(errorBody(code, params));
}

/**
 * What a schema refusal says of the value, as a rule the client words in the page's language
 * (errors namespace, rule.<name>, with its limit), rather than Ajv's English ("must NOT have more
 * than 30 characters"), which a Spanish page showed half in English. Null for a keyword without
 * one: the answer then keeps Ajv's words.
 */
export function schemaRule(v: { keyword: string; params?: Record<string, unknown> }): { rule: string; limit?: number } | null {
  const p = v.params ?? {};
  const limit = typeof p.limit === 'number' ? p.limit : undefined;
  const withLimit = (rule: string) => (limit === undefined ? { rule } : { rule, limit });
  switch (v.keyword) {
    case 'maxLength':
      return withLimit('too_long');
    case 'minLength':
      return withLimit('too_short');
    case 'maximum':
      return withLimit('at_most');
    case 'exclusiveMaximum':
      return withLimit('below');
    case 'minimum':
      return withLimit('at_least');
    case 'exclusiveMinimum':
      return withLimit('above');
    case 'maxItems':
      return withLimit('too_many');
    case 'minItems':
      return withLimit('too_few');
    case 'uniqueItems':
      return { rule: 'unique' };
    case 'type': {
      const type = String(p.type).split(',')[0];
      return { rule: ['string', 'number', 'integer', 'boolean', 'array', 'object'].includes(type) ? `type_${type}` : 'type' };
    }
    case 'pattern':
    case 'format':
      return { rule: 'format' };
    case 'enum':
    case 'const':
    case 'anyOf':
    case 'oneOf':
      return { rule: 'one_of' };
    case 'finite':
      return { rule: 'finite' };
    default:
      return null;
  }
}

/** The English words of a rule (the answer's message; the client words it again). */
export const ruleWords = (r: { rule: string; limit?: number }): string =>
  renderError(`rule.${r.rule}` as ErrorCode, r.limit === undefined ? undefined : { limit: r.limit });
