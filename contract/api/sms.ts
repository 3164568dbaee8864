import { Type, type Static, type TSchema } from 'typebox';
import { Errors, PageInfo, Paging, SaidSchema } from './common.ts';
import type { RouteContract } from './types.ts';

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/**
 * Where a message is. Ours: `outbox` (no Textbelt key: written to DATA_DIR/outbox), `test` (a
 * `_test` key: validated, not sent), `accepted` (Textbelt took it), `refused` (Textbelt said
 * success: false; `error` says why), `error` (Textbelt could not be reached). Then Textbelt's own
 * delivery statuses, read from /status/{textId}: sending, sent, delivered, failed, unknown.
 */
export const SmsStatusSchema = Type.Union([
  Type.Literal('outbox'),
  Type.Literal('test'),
  Type.Literal('accepted'),
  Type.Literal('refused'),
  Type.Literal('error'),
  Type.Literal('sending'),
  Type.Literal('sent'),
  Type.Literal('delivered'),
  Type.Literal('failed'),
  Type.Literal('unknown'),
]);
export type SmsStatus = Static<typeof SmsStatusSchema>;

/** One message sent (staff view). A verification code is masked in `text`. */
export const SmsMessageSchema = Type.Object({
  id: Type.Integer(),
  to: Type.String(),
  text: Type.String(),
  purpose: Type.Union([Type.Literal('verification'), Type.Literal('test')]),
  status: SmsStatusSchema,
  /** Textbelt's id of the message, as text (it sends numbers or strings). */
  textId: Nullable(Type.String()),
  /** What went wrong, as the server wrote it in English before failures were coded: shown as it came; null since. */
  error: Nullable(Type.String()),
  /**
   * Why Textbelt refused the message (`refused`: sms.refused, with Textbelt's own words as the
   * detail) or could not be asked (`error`: sms.timeout, sms.http, sms.not_json, sms.connection),
   * as a code the page words (admin locale, says.<code>).
   */
  failure: Type.Optional(SaidSchema),
  quotaRemaining: Nullable(Type.Integer()),
  createdAt: Type.String(),
  statusCheckedAt: Nullable(Type.String()),
});
export type SmsMessage = Static<typeof SmsMessageSchema>;

/** The seed's token record: the key masked to its last four characters (••••abcd), null when none is set. */
export const TextbeltTokenSchema = Type.Object({ id: Type.Integer(), token: Nullable(Type.String()) });
export type TextbeltToken = Static<typeof TextbeltTokenSchema>;

const TokenId = Type.Object({ id: Type.Integer({ minimum: 1 }) });

/** The sms module's routes: "METHOD /path" → the schemas of its request and answers. */
export const smsApi = {
  /** Staff: the Textbelt key, masked. */
  'GET /api/admin/get-textbelt-token': { response: { 200: TextbeltTokenSchema, ...Errors } },
  /** Staff: sets the key (audited, without its value); an empty token removes it (messages go to the outbox). */
  'PUT /api/admin/update-textbelt-token-by-id/:id': {
    params: TokenId,
    body: Type.Object({ token: Type.String({ maxLength: 200 }) }),
    response: { 200: TextbeltTokenSchema, ...Errors },
  },
  /** Staff: the key's remaining quota, asked of Textbelt (/quota/{key}). */
  'GET /api/admin/get-textbelt-balance/:id': {
    params: TokenId,
    response: { 200: Type.Object({ quotaRemaining: Type.Integer() }), ...Errors },
  },
  /** Staff: sends one test message (audited); the answer is the stored message, with what Textbelt said. */
  'POST /api/admin/send-textbelt-test-sms': {
    body: Type.Object({ phone: Type.String({ maxLength: 40 }), message: Type.Optional(Type.String({ maxLength: 320 })) }),
    response: { 200: Type.Object({ message: SmsMessageSchema }), ...Errors },
  },
  /** Staff: the messages sent, newest first. `configured`: a key is set (else they go to the outbox). */
  'GET /api/admin/get-textbelt-messages': {
    querystring: Type.Object({ ...Paging }),
    response: { 200: Type.Object({ messages: Type.Array(SmsMessageSchema), ...PageInfo, configured: Type.Boolean() }), ...Errors },
  },
  /**
   * Staff: asks Textbelt (/status/{textId}) where the recent messages still under way are (at most
   * 20, of the last 7 days); `failed` counts those it could not ask about.
   */
  'POST /api/admin/refresh-textbelt-statuses': {
    body: Type.Object({}),
    response: { 200: Type.Object({ checked: Type.Integer(), updated: Type.Integer(), failed: Type.Integer() }), ...Errors },
  },
  /** Texts a 6-digit code to a US number (E.164 or 10 digits); it lives 10 minutes. Three an hour per user and per number. */
  'POST /api/phone-verification': {
    body: Type.Object({ phone: Type.String({ maxLength: 40 }) }),
    response: { 202: Type.Object({ phone: Type.String(), expiresAt: Type.String() }), ...Errors },
  },
  /** The code of the latest text: the number becomes the account's verified phone. Five wrong tries burn the code. */
  'POST /api/phone-verification/confirm': {
    body: Type.Object({ code: Type.String({ maxLength: 20 }) }),
    response: { 200: Type.Object({ phone: Type.String(), phoneVerified: Type.Literal(true) }), ...Errors },
  },
} as const satisfies Record<string, RouteContract>;
