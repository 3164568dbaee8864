import { api } from './client';
import type { Ad } from './ads';
import type { City } from './locations';
import { toPriceList } from './pricing';

export interface PromoCode {
  id: string;
  code: string;
  amountCents: number;
  maxUses: number;
  uses: number;
  expiresAt: string | null;
  active: boolean;
}
export type PromoCodeInput = Omit<PromoCode, 'id' | 'uses'> & { id?: string };

export const adminMarketApi = {
  pendingAds: (q: { page: number; pageSize: number; includeUnpaid: boolean }) =>
    api.get<{ pendingAds: Ad[]; total: number }>('admin/get-pending-ads', { searchParams: q }),
  decide: (adIds: string[], decision: 'approve' | 'reject', reason?: string) =>
    api.post<{ updated: number }>('admin/approve-pending-ads', { json: reason ? { adIds, decision, reason } : { adIds, decision } }),
  approvedAds: (q: { page: number; pageSize: number; status?: string }) =>
    api.get<{ approvedAds: Ad[]; total: number }>('admin/get-approved-ads', { searchParams: q.status ? q : { page: q.page, pageSize: q.pageSize } }),
  setAdStatus: (adIds: string[], status: 'approved' | 'disabled') =>
    api.post<{ updated: number }>('admin/set-status-approved-ads', { json: { adIds, status } }),
  pricing: async () => toPriceList(await api.get<unknown>('admin/get-all-pricing')),
  setPrice: (body: { id: string; priceCents: number; durationDays?: number }) => api.post<unknown>('admin/set-price-by-id', { json: body }),
  promoCodes: (q: { page: number; pageSize: number }) =>
    api.get<{ promoCodes: PromoCode[]; total: number }>('admin/get-all-promo-codes', { searchParams: q }),
  savePromoCode: (body: PromoCodeInput) => api.post<{ promoCode: PromoCode }>('admin/set-promo-code-by-id', { json: body }),
  citiesByState: (q: { stateId: string; query?: string; page: number; pageSize: number }) =>
    api.get<{ cities: City[]; total: number }>('admin/get-cities-by-state', {
      searchParams: q.query ? q : { stateId: q.stateId, page: q.page, pageSize: q.pageSize },
    }),
  setPlacesEnabled: (body: { stateId: string; cityIds?: string[]; enabled: boolean }) =>
    api.post<unknown>('admin/set-status-state-cities', { json: body }),
};
