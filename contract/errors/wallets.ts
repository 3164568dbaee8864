/** Errors of the wallets module and the ledger (English templates; es/pt in src/i18n/locales/{es,pt}/errors/wallets.json). */
export const walletsErrors = {
  // The ledger: every payment from a wallet.
  'wallet.not_found': 'Wallet not found.',
  'wallet.insufficient_funds': 'Not enough money in this wallet.',
  'wallet.payment_conflict': 'This payment was already recorded with different details.',
  // Redeeming a promo code.
  'wallet.promo_code_not_valid': 'This promo code is not valid.',
  'wallet.promo_code_inactive': 'This promo code is no longer active.',
  'wallet.promo_code_expired': 'This promo code has expired.',
  'wallet.promo_code_already_used': 'You have already used this promo code.',
  'wallet.promo_code_used_up': 'This promo code has been used up.',
  'wallet.promo_code_own': 'You created or last edited this promo code, so you cannot redeem it yourself.',
  'wallet.too_many_promo_attempts': 'Too many promo code attempts. Please try again in an hour.',
  // The e-mailed welcome code.
  'wallet.welcome_code_already_sent': 'Your welcome promo code was already sent to you.',
  'wallet.welcome_code_on_its_way': 'Your welcome promo code is on its way. If it has not arrived in 15 minutes, ask for it again.',
  'wallet.welcome_credit_already_given': 'The welcome credit of this e-mail inbox was already redeemed: it is given once per inbox.',
  'wallet.welcome_email_failed': 'We could not send the e-mail. Please try again later.',
  'field.code': 'code',
} as const;
