import { api } from './client';
import type { pricingApi as contract } from '../../contract/api/pricing.ts';
import type { ResponseOf } from '../../contract/api/types.ts';

type PricingApi = typeof contract;
/** An ad price (with its duration in days) or a bump price (durationDays null) for one listing type. */
export type Price = ResponseOf<PricingApi['GET /api/get-ad-pricing']>['pricing'][number];

export const pricingApi = {
  ad: async () => (await api.get<ResponseOf<PricingApi['GET /api/get-ad-pricing']>>('get-ad-pricing', { redirectOnAuth: false })).pricing,
  bump: async () => (await api.get<ResponseOf<PricingApi['GET /api/get-bump-pricing']>>('get-bump-pricing', { redirectOnAuth: false })).pricing,
};
