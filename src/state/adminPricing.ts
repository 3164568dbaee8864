import { createResource, sessionCheck } from './resource';
import { adminPricingApi } from '../api/admin-pricing';
import type { Price } from '../api/pricing';

/** The seed's `adminPricing` data area: every ad and bump price. */
export const adminPricingStore = createResource(() => adminPricingApi.pricing());

/**
 * Saves one price; the list shows the row as the server stored it. `from`: the price the row
 * showed; changed meanwhile by another admin, the server refuses (409 pricing.changed_meanwhile).
 */
export async function setPrice(id: string, priceCents: number, durationDays?: number, from?: Pick<Price, 'priceCents' | 'durationDays'>): Promise<Price> {
  const unchanged = sessionCheck();
  const { pricing } = await adminPricingApi.setPrice({ id, priceCents, ...(durationDays === undefined ? {} : { durationDays }), ...(from ? { from } : {}) });
  if (!unchanged()) return pricing;
  const list = adminPricingStore.state.data;
  const i = list?.findIndex((p) => p.id === pricing.id) ?? -1;
  if (list && i >= 0) list[i] = pricing;
  return pricing;
}
