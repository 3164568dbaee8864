/** Errors of the health module (English templates; es/pt in src/i18n/locales/{es,pt}/errors/health.json). */
export const healthErrors = {} as const;
