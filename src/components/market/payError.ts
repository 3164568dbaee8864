import type { TFunction } from 'i18next';
import { ApiError, errorMessage } from '../../api/client';

/**
 * Payment errors (cart payment, bump) in the page's language: a wallet that is short gets the
 * advice to choose another or add funds; any other refusal (already paid, bumped a minute ago…)
 * shows its own code's message. The code decides, not the status: a bump's 409 is not "already paid".
 */
export function payErrorMessage(t: TFunction, e: unknown): string {
  if (e instanceof ApiError && e.code === 'wallet.insufficient_funds') return t('market:cart.notEnoughMoney');
  return errorMessage(e);
}
