import { Type, type Static } from 'typebox';
import { Paging as PagingFields } from './paging.ts';

/** The body of every error answer (see contract/errors). */
export const ErrorSchema = Type.Object({
  message: Type.String(),
  code: Type.String(),
  params: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
});

/** Error answers every route declares: the schema is the field whitelist of a 4xx/5xx body. */
export const Errors = { '4xx': ErrorSchema, '5xx': ErrorSchema } as const;

export const Paging = PagingFields;
export const PageInfo = { total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer() };

const SaidParams = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]));
/**
 * What an operator diagnostic says (a health check's outcome, a payment server problem), as a code
 * the client words in the page's language (admin locale, healthCheck.says.<code>) with its params;
 * `detail` is text from outside (another server's error), shown as it came; `parts` are further
 * coded sentences (a cache each for the memory check; the payment server's other problems).
 */
export const SaidSchema = Type.Object({
  code: Type.String(),
  params: Type.Optional(SaidParams),
  detail: Type.Optional(Type.String()),
  parts: Type.Optional(Type.Array(Type.Object({ code: Type.String(), params: Type.Optional(SaidParams), detail: Type.Optional(Type.String()) }))),
});
export type Said = Static<typeof SaidSchema>;
