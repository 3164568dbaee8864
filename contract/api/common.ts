import { Type } from 'typebox';
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
