import { api } from './client';
import type { pricingApi as contract } from '../../contract/api/pricing.ts';
import type { BodyOf, QueryOf, ResponseOf } from '../../contract/api/types.ts';

type PricingApi = typeof contract;
type SavePromoCode = PricingApi['POST /api/admin/set-promo-code-by-id'];
export type PromoCode = ResponseOf<SavePromoCode>['promoCode'];
export type PromoCodeInput = BodyOf<SavePromoCode>;
export type PromoCodePage = ResponseOf<PricingApi['GET /api/admin/get-all-promo-codes']>;

export const adminPricingApi = {
  pricing: async () => (await api.get<ResponseOf<PricingApi['GET /api/admin/get-all-pricing']>>('admin/get-all-pricing')).pricing,
  setPrice: (body: BodyOf<PricingApi['POST /api/admin/set-price-by-id']>) =>
    api.post<ResponseOf<PricingApi['POST /api/admin/set-price-by-id']>>('admin/set-price-by-id', { json: body }),
  promoCodes: (q: QueryOf<PricingApi['GET /api/admin/get-all-promo-codes']>) => api.get<PromoCodePage>('admin/get-all-promo-codes', { searchParams: q }),
  /** 201 when it created the code, 200 when it updated one: the same body either way. */
  savePromoCode: (body: PromoCodeInput) => api.post<ResponseOf<SavePromoCode, 200 | 201>>('admin/set-promo-code-by-id', { json: body }),
};
