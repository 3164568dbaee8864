import type { Static, TSchema } from 'typebox';

/** One route of the contract: what `schema` of a Fastify route holds (TypeBox schemas). */
export interface RouteContract {
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  /** Multipart routes: the body is read by the handler, the schema only names the content type. */
  consumes?: readonly string[];
  response: Readonly<Record<string | number, TSchema>>;
}

type Field<R, K extends string> = R extends { [P in K]: infer S } ? (S extends TSchema ? Static<S> : never) : never;

/** The body of a route's answer with status S (200 unless said). */
export type ResponseOf<R, S extends number | string = 200> = R extends { response: infer Rs }
  ? S extends keyof Rs
    ? Rs[S] extends TSchema
      ? Static<Rs[S]>
      : never
    : never
  : never;
export type BodyOf<R> = Field<R, 'body'>;
export type QueryOf<R> = Field<R, 'querystring'>;
export type ParamsOf<R> = Field<R, 'params'>;
