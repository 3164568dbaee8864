import { api } from './client';
import type { walletsApi as contract } from '../../contract/api/wallets.ts';
import type { BodyOf, ResponseOf } from '../../contract/api/types.ts';

type Wallets = typeof contract;
export type Wallet = ResponseOf<Wallets['GET /api/all-wallets-by-user']>['wallets'][number];
export type WalletType = Wallet['walletType'];
export const PROMO_WALLET: WalletType = 'XG-PROMO-WALLET';

export const walletsApi = {
  all: () => api.get<ResponseOf<Wallets['GET /api/all-wallets-by-user']>>('all-wallets-by-user'),
  createPromo: () =>
    api.post<ResponseOf<Wallets['POST /api/create-promo-wallet']>>('create-promo-wallet', {
      json: {} satisfies BodyOf<Wallets['POST /api/create-promo-wallet']>,
    }),
  addPromoCode: (body: BodyOf<Wallets['POST /api/add-promo-code-to-promo-wallet']>) =>
    api.post<ResponseOf<Wallets['POST /api/add-promo-code-to-promo-wallet']>>('add-promo-code-to-promo-wallet', { json: body }),
  emailPromoCode: () => api.get<ResponseOf<Wallets['GET /api/email-wallet-promo-code']>>('email-wallet-promo-code'),
};
