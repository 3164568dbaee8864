/** Errors of the auth module (English templates; es/pt in src/i18n/locales/{es,pt}/errors/auth.json). */
export const authErrors = {
  'auth.invalid_credentials': 'Wrong e-mail or password.',
  'auth.account_suspended': 'This account is suspended. Contact support.',
  'auth.email_taken': 'An account with this e-mail already exists.',
  'auth.too_many_sign_ins': 'Too many sign-in attempts. Please wait {{minutes}} minutes and try again.',
  'auth.too_many_sign_ins_account': 'Too many sign-in attempts on this account. Please wait an hour and try again.',
  'auth.too_many_sign_ups': 'Too many sign-up attempts from your address. Please try again later.',
  'auth.too_many_reset_requests': 'Too many password reset requests. Please try again in an hour.',
  'auth.unsubscribe_link_invalid': 'This unsubscribe link is not valid.',
  'auth.reset_token_invalid': 'This reset link is invalid, used or expired. Ask for a new one.',
  'field.email': 'e-mail',
  'field.password': 'password',
  'field.nickname': 'nickname',
  'field.u': 'unsubscribe link',
  'field.t': 'unsubscribe link',
} as const;
