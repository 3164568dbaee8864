// The wallet screen's current invoice: the one being paid, its status following the socket's events live.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { currentInvoice, currentPhase, isOpenPhase, refreshPayments, watchInvoice } from '../../state/payments';
import { socketStore } from '../../state/socket';
import { formatUsd } from '../../lib/money';
import { dateTimeLabel } from '../../components/market/labels';

/** The watched invoice: its status in words, following the socket's events live. */
export function CurrentInvoice() {
  const { t, i18n } = useTranslation('payments');
  const cur = useSnapshot(currentInvoice);
  const { invoiceUpdate, connected } = useSnapshot(socketStore);
  const wasConnected = useRef<boolean | null>(null);

  // Events sent while the socket was down are lost: read the invoice again once it is back.
  useEffect(() => {
    if (connected && wasConnected.current === false) void refreshPayments();
    if (connected || wasConnected.current !== null) wasConnected.current = connected;
  }, [connected]);

  // Back from the checkout tab: read it again, in case an event was missed.
  useEffect(() => {
    const onShown = () => {
      if (document.visibilityState === 'visible' && currentInvoice.id) void refreshPayments();
    };
    document.addEventListener('visibilitychange', onShown);
    return () => document.removeEventListener('visibilitychange', onShown);
  }, []);

  if (!cur.id) return null;
  const update = invoiceUpdate && invoiceUpdate.invoiceId === cur.id ? invoiceUpdate : null;
  const phase = currentPhase(cur.invoice, update, cur.fresh, cur.recordIsNewer);
  const link = cur.checkoutLink ?? cur.invoice?.checkoutLink ?? null;
  const tone =
    phase === 'settled'
      ? 'alert-success'
      : phase === 'expired' || phase === 'expiredPartial' || phase === 'paidLate' || phase === 'invalid'
        ? 'alert-error'
        : 'alert-info';

  return (
    <section aria-labelledby="current-invoice-h" style={{ marginTop: 16 }}>
      <h3 id="current-invoice-h" style={{ marginBottom: 4 }}>
        {t('invoice.title')}
      </h3>
      <p role="status" aria-label={t('invoice.statusLabel')} className={`alert ${tone}`}>
        {phase ? t(`phaseText.${phase}`) : t('invoice.checking')}
      </p>
      <dl style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '4px 12px', margin: '8px 0' }}>
        {cur.invoice && (
          <>
            <dt>{t('invoice.amount')}</dt>
            <dd style={{ margin: 0 }}>{formatUsd(cur.invoice.amountCents, i18n.language)}</dd>
          </>
        )}
        <dt>{t('invoice.id')}</dt>
        <dd style={{ margin: 0 }}>
          <code>{cur.id}</code>
        </dd>
        {cur.invoice && isOpenPhase(phase) && (
          <>
            <dt>{t('invoice.expires')}</dt>
            <dd style={{ margin: 0 }}>
              <time dateTime={cur.invoice.expiresAt}>{dateTimeLabel(cur.invoice.expiresAt, i18n.language)}</time>
            </dd>
          </>
        )}
      </dl>
      <p style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
        {link && isOpenPhase(phase) && (
          <a className="btn btn-primary" href={link} target="_blank" rel="noopener noreferrer">
            {t('invoice.openCheckout')}
          </a>
        )}
        <button type="button" className="btn btn-white" onClick={() => watchInvoice(null)}>
          {t('invoice.forget')}
        </button>
      </p>
    </section>
  );
}
