import type { MailMessage } from '../../core/mailer.ts';
import { centsToDecimal } from '../../../contract/amount.ts';

export type MailLocale = 'en' | 'es' | 'pt';

const TEXT = {
  en: {
    subject: 'Your wallet was topped up: ${amount}',
    hello: 'Thank you: your Bitcoin payment was confirmed.',
    credited: '${amount} was added to your USD wallet.',
    balance: 'Balance now: ${balance}',
    invoice: 'Invoice: {invoice}',
    date: 'Date: {date}',
    wallet: 'Your wallet and its history: {link}',
    footer: 'You receive this e-mail because you topped up your wallet on XG Marketplace.',
  },
  es: {
    subject: 'Tu monedero fue recargado: ${amount}',
    hello: 'Gracias: tu pago con Bitcoin fue confirmado.',
    credited: 'Se añadieron ${amount} a tu monedero en USD.',
    balance: 'Saldo actual: ${balance}',
    invoice: 'Factura: {invoice}',
    date: 'Fecha: {date}',
    wallet: 'Tu monedero y su historial: {link}',
    footer: 'Recibes este correo porque recargaste tu monedero en XG Marketplace.',
  },
  pt: {
    subject: 'Sua carteira foi recarregada: ${amount}',
    hello: 'Obrigado: seu pagamento em Bitcoin foi confirmado.',
    credited: '${amount} foram adicionados à sua carteira em USD.',
    balance: 'Saldo agora: ${balance}',
    invoice: 'Fatura: {invoice}',
    date: 'Data: {date}',
    wallet: 'Sua carteira e o histórico: {link}',
    footer: 'Você recebe este e-mail porque recarregou sua carteira no XG Marketplace.',
  },
} as const;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The receipt of a credited top-up, in the language of the page that asked for the invoice; plain text and HTML. */
export function topUpReceipt(p: {
  to: string;
  locale: MailLocale;
  amountCents: number;
  balanceCents: number;
  invoiceId: string;
  at: string;
  walletUrl: string;
}): MailMessage {
  const t = TEXT[p.locale] ?? TEXT.en;
  const fill = (s: string) =>
    s
      .replace('{amount}', centsToDecimal(p.amountCents))
      .replace('{balance}', centsToDecimal(p.balanceCents))
      .replace('{invoice}', p.invoiceId)
      .replace('{date}', p.at.slice(0, 16).replace('T', ' ') + ' UTC')
      .replace('{link}', p.walletUrl);
  const lines = [t.hello, '', fill(t.credited), fill(t.balance), fill(t.invoice), fill(t.date), '', fill(t.wallet), '', '--', t.footer];
  const html = [
    `<!doctype html><html lang="${p.locale}"><body style="font-family:sans-serif;line-height:1.5">`,
    `<p>${escapeHtml(t.hello)}</p>`,
    `<p><strong>${escapeHtml(fill(t.credited))}</strong><br>${escapeHtml(fill(t.balance))}<br>${escapeHtml(fill(t.invoice))}<br>${escapeHtml(fill(t.date))}</p>`,
    `<p><a href="${escapeHtml(p.walletUrl)}">${escapeHtml(fill(t.wallet).replace(`: ${p.walletUrl}`, ''))}</a></p>`,
    `<hr><p style="color:#777;font-size:12px">${escapeHtml(t.footer)}</p></body></html>`,
  ].join('\n');
  return { to: p.to, subject: fill(t.subject), text: lines.join('\n'), html };
}
