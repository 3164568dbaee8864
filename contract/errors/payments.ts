/** Errors of the payments module (English templates; es/pt in src/i18n/locales/{es,pt}/errors/payments.json). */
export const paymentsErrors = {
  'payment.amount_invalid': 'Enter an amount from $10.00 to $1,000.00, with at most two decimals.',
  'payment.too_many_open_invoices': 'You already have {{max}} unpaid invoices. Pay one or wait until it expires.',
  'payment.server_unavailable': 'The payment server is unavailable. Please try again later.',
  'payment.server_rejected': 'The payment server refused the invoice: {{reason}}',
  // Its reasons (params.rule; the client words rule.<name>): never the payment server's own English.
  'rule.payment_amount': 'it does not accept this amount. Try another amount.',
  'rule.payment_store': 'it cannot take this payment now. Please try again later.',
  'payment.invoice_not_found': 'Invoice not found.',
  'payment.webhook_signature_invalid': 'The webhook signature is missing or wrong.',
  'payment.webhook_malformed': 'The webhook body is not a BTCPay event.',
  'payment.sandbox_inactive': 'The sandbox payment provider is not active on this server.',
  'payment.sandbox_forbidden': 'Only staff, or someone on the server itself, may simulate payments.',
  'payment.sandbox_invoice_closed': 'This invoice is no longer open.',
  'field.amount': 'amount',
  'field.action': 'action',
  'field.invoiceId': 'invoice',
} as const;
