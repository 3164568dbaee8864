import type { TFunction } from 'i18next';
import { ApiError, errorMessage } from '../../api/client';

/** Payment errors in the page's language: 402 and 409 have fixed meanings, others keep the server's message. */
export function payErrorMessage(t: TFunction, e: unknown): string {
  if (e instanceof ApiError && e.status === 402) return t('market:cart.notEnoughMoney');
  if (e instanceof ApiError && e.status === 409) return t('market:cart.alreadyPaid');
  return errorMessage(e);
}
