/** Errors of the reports module (English templates; es/pt in src/i18n/locales/{es,pt}/errors/reports.json). */
export const reportsErrors = {
  'reports.message_too_short': 'Message must be at least {{min}} characters.',
  'reports.message_too_long': 'Message must be at most {{max}} characters.',
  'reports.contact_too_long': 'Contact must be at most {{max}} characters.',
  'reports.contact_email_required': 'Contact must be a valid e-mail address so we can answer.',
  'reports.too_many': 'Too many reports from your address. Please try again in an hour.',
  'reports.not_found': 'Report not found.',
  'reports.own_ad': 'This report is about your own ad: another admin must handle it.',
  'field.message': 'message',
  'field.contact': 'contact',
  'field.urgent': 'may be a minor or trafficked',
} as const;
