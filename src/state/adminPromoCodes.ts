import { proxy } from 'valtio';
import { createResource, onReset, sessionCheck } from './resource';
import { adminPricingApi, type PromoCode, type PromoCodeInput } from '../api/admin-pricing';

export const PROMO_PAGE_SIZE = 50;
export const promoQuery = proxy({ page: 1 });
onReset(() => {
  promoQuery.page = 1;
});

/** The seed's `adminPromoCodes` data area. */
export const adminPromoCodesStore = createResource(() => adminPricingApi.promoCodes({ page: promoQuery.page, pageSize: PROMO_PAGE_SIZE }));

/** Creates (no id) or updates a promo code, then reloads the page of codes. */
export async function savePromoCode(input: PromoCodeInput): Promise<PromoCode> {
  const unchanged = sessionCheck();
  const { promoCode } = await adminPricingApi.savePromoCode(input);
  if (unchanged()) await adminPromoCodesStore.load();
  return promoCode;
}
