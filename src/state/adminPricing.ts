import { createResource } from './resource';
import { adminPricingApi } from '../api/admin-pricing';
import type { Price } from '../api/pricing';

/** The seed's `adminPricing` data area: every ad and bump price. */
export const adminPricingStore = createResource(() => adminPricingApi.pricing());

/** Saves one price; the list shows the row as the server stored it. */
export async function setPrice(id: string, priceCents: number, durationDays?: number): Promise<Price> {
  const { pricing } = await adminPricingApi.setPrice(durationDays === undefined ? { id, priceCents } : { id, priceCents, durationDays });
  const list = adminPricingStore.state.data;
  const i = list?.findIndex((p) => p.id === pricing.id) ?? -1;
  if (list && i >= 0) list[i] = pricing;
  return pricing;
}
