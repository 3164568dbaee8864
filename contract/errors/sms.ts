/** Errors of the sms module (English templates; es/pt in src/i18n/locales/{es,pt}/errors/sms.json). */
export const smsErrors = {
  // The Textbelt key and messages (staff).
  'sms.token_not_found': 'Textbelt token record not found.',
  'sms.token_invalid': 'A Textbelt key holds only letters, digits, - and _.',
  'sms.not_configured': 'No Textbelt key is set: text messages go to the outbox.',
  // Textbelt could not be asked, or refused: what we say of it is a code; only Textbelt's own words are a param.
  'sms.provider_unreachable': 'Textbelt could not be reached (no connection).',
  'sms.provider_timeout': 'Textbelt could not be reached (no answer in {{seconds}} s).',
  'sms.provider_http': 'Textbelt could not be reached (HTTP status {{status}}).',
  'sms.provider_not_json': 'Textbelt could not be reached (its answer could not be read).',
  'sms.provider_no_quota': 'Textbelt did not say how many messages are left.',
  'sms.provider_refused': 'Textbelt refused: {{detail}}',
  'sms.provider_refused_silently': 'Textbelt refused without saying why.',
  // Phone verification.
  'phone.invalid': 'Phone must be a US number, e.g. +1 212 555 0100.',
  'phone.already_verified': 'This number is already your verified phone.',
  'phone.too_many_codes': 'Too many codes asked for. Try again in {{minutes}} min.',
  'phone.sms_failed': 'The text message could not be sent. Try again later.',
  'phone.code_format': 'The code is the 6 digits of the text message.',
  'phone.code_expired': 'This code is no longer valid. Ask for a new one.',
  'phone.code_wrong': 'Wrong code (tries left: {{triesLeft}}).',
  'phone.code_burned': 'Too many wrong tries: this code no longer works. Ask for a new one.',
} as const;
