import { createResource } from './resource';
import { adminMarketApi } from '../api/admin-market';

/** The seed's `adminPricing` data area: every ad and bump price. */
export const adminPricingStore = createResource(() => adminMarketApi.pricing());

export async function setPrice(id: string, priceCents: number, durationDays?: number): Promise<void> {
  await adminMarketApi.setPrice(durationDays === undefined ? { id, priceCents } : { id, priceCents, durationDays });
  const row = adminPricingStore.state.data?.find((p) => p.id === id);
  if (row) {
    row.priceCents = priceCents;
    if (durationDays !== undefined) row.durationDays = durationDays;
  }
}
