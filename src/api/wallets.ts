import { api } from './client';

export type WalletType = 'USD' | 'XG-PROMO-WALLET';
export const PROMO_WALLET: WalletType = 'XG-PROMO-WALLET';

export interface Wallet {
  id: string;
  walletType: WalletType;
  amountCents: number;
  currency: string;
}

export const walletsApi = {
  all: () => api.get<{ wallets: Wallet[] }>('all-wallets-by-user'),
  createPromo: () => api.post<{ wallet: Wallet }>('create-promo-wallet', { json: {} }),
  addPromoCode: (code: string) => api.post<{ wallet: Wallet }>('add-promo-code-to-promo-wallet', { json: { code } }),
  emailPromoCode: () => api.get<{ message?: string; sent?: boolean; email?: string }>('email-wallet-promo-code'),
};
