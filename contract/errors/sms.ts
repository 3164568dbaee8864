/** Errors of the sms module (English templates; es/pt in src/i18n/locales/{es,pt}/errors/sms.json). */
export const smsErrors = {} as const;
