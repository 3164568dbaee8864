import { Type, type Static } from 'typebox';
import { Errors } from './common.ts';
import type { RouteContract } from './types.ts';

export const WalletTypeSchema = Type.Union([Type.Literal('USD'), Type.Literal('XG-PROMO-WALLET')]);

/** One of the user's wallets: the USD wallet and, once created, the promo wallet. */
export const WalletSchema = Type.Object({
  id: Type.String(),
  walletType: WalletTypeSchema,
  amountCents: Type.Integer(),
  currency: Type.Literal('USD'),
});
export type Wallet = Static<typeof WalletSchema>;
export type WalletType = Static<typeof WalletTypeSchema>;

const OneWallet = Type.Object({ wallet: WalletSchema });

/** The wallets module's routes: "METHOD /path" → the schemas of its request and answers. */
export const walletsApi = {
  /** USD first, then the promo wallet when the user has one. */
  'GET /api/all-wallets-by-user': { response: { 200: Type.Object({ wallets: Type.Array(WalletSchema) }), ...Errors } },
  /** Idempotent: answers the existing promo wallet when there is one. */
  'POST /api/create-promo-wallet': { body: Type.Object({}), response: { 200: OneWallet, ...Errors } },
  /** Credits a promo code to the promo wallet (created on first use); answers that wallet. */
  'POST /api/add-promo-code-to-promo-wallet': {
    body: Type.Object({ code: Type.String({ maxLength: 64 }) }),
    response: { 200: OneWallet, ...Errors },
  },
  /** E-mails the user's one-time welcome code (once per user) to the account's address. */
  'GET /api/email-wallet-promo-code': {
    response: { 200: Type.Object({ sent: Type.Literal(true), email: Type.String() }), ...Errors },
  },
} as const satisfies Record<string, RouteContract>;
