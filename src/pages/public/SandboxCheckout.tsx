import { useEffect, useState } from 'react';
import { useParams } from 'wouter';
import { useTranslation } from 'react-i18next';
import { paymentsApi, type SandboxAction, type SandboxInvoice } from '../../api/payments';
import { asError, errorMessage } from '../../api/client';
import { formatUsd } from '../../lib/money';
import { dateTimeLabel } from '../../components/market/labels';
import s from '../../components/public/page.module.css';

const ACTIONS: SandboxAction[] = ['pay', 'partial', 'expire'];

const sandboxBadge = {
  display: 'inline-block',
  background: '#8a4b00',
  color: '#fff',
  fontWeight: 700,
  letterSpacing: 2,
  borderRadius: 6,
  padding: '2px 10px',
  marginBottom: 10,
} as const;

/**
 * The sandbox's checkout (BTCPay Server is not configured): where the wallet's "Pay with Bitcoin"
 * lands. It plays what a payer would do: pay, pay part, let the invoice expire; the server sends
 * the signed webhooks that follow, and the wallet follows them live. Only staff, or a browser on
 * the server's own machine, may press the buttons: the server says so in `canSimulate`.
 */
export default function SandboxCheckout() {
  const { t, i18n } = useTranslation('payments');
  const { invoiceId = '' } = useParams<{ invoiceId: string }>();
  // What was read, for which invoice: another id in the address shows nothing of the last one.
  // Failures are kept as the errors and what was done as the action and the status it left, worded
  // at render: a language switch re-words them.
  const [read, setRead] = useState<{ id: string; invoice: SandboxInvoice | null; error: Error | null } | null>(null);
  const [busy, setBusy] = useState<SandboxAction | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [done, setDone] = useState<{ action: SandboxAction; status: string } | null>(null);
  const invoice = read?.id === invoiceId ? read.invoice : null;
  const loadError = read?.id === invoiceId ? read.error : null;
  const setInvoice = (inv: SandboxInvoice) => setRead({ id: invoiceId, invoice: inv, error: null });

  useEffect(() => {
    let live = true;
    paymentsApi.sandboxInvoice(invoiceId).then(
      (r) => live && setRead({ id: invoiceId, invoice: r.invoice, error: null }),
      (e: unknown) => live && setRead({ id: invoiceId, invoice: null, error: asError(e) }),
    );
    return () => {
      live = false;
    };
  }, [invoiceId]);

  async function simulate(action: SandboxAction) {
    if (busy) return;
    setBusy(action);
    setError(null);
    setDone(null);
    try {
      const r = await paymentsApi.simulate(invoiceId, action);
      setInvoice(r.invoice);
      setDone({ action, status: r.invoice.status });
    } catch (e) {
      setError(asError(e));
    } finally {
      setBusy(null);
    }
  }

  const open = invoice?.status === 'New';
  const why = invoice && !invoice.canSimulate ? 'cannotSimulate' : invoice && !open ? 'closed' : null;

  return (
    <article className={s.card} aria-labelledby="sandbox-h">
      <p style={sandboxBadge}>{t('sandbox.badge')}</p>
      <h1 id="sandbox-h">{t('sandbox.title')}</h1>
      <p className={s.lead}>{t('sandbox.intro')}</p>
      {loadError && (
        <div role="alert" className="alert alert-error">
          {errorMessage(loadError)}
        </div>
      )}
      {!invoice && !loadError && <p role="status">{t('invoice.checking')}</p>}
      {invoice && (
        <>
          <dl style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '6px 14px' }}>
            <dt>{t('sandbox.amount')}</dt>
            <dd style={{ margin: 0, fontWeight: 700 }}>{formatUsd(invoice.amountCents, i18n.language)}</dd>
            <dt>{t('sandbox.status')}</dt>
            <dd style={{ margin: 0 }}>
              {t(`status.${invoice.status}`, { defaultValue: invoice.status })}
              {invoice.additionalStatus && invoice.additionalStatus !== 'None' ? ` (${invoice.additionalStatus})` : ''}
            </dd>
            <dt>{t('sandbox.invoice')}</dt>
            <dd style={{ margin: 0 }}>
              <code>{invoice.invoiceId}</code>
            </dd>
            <dt>{t('sandbox.expires')}</dt>
            <dd style={{ margin: 0 }}>
              <time dateTime={invoice.expiresAt}>{dateTimeLabel(invoice.expiresAt, i18n.language)}</time>
            </dd>
          </dl>
          <h2>{t('sandbox.actions')}</h2>
          {why && (
            <p id="sandbox-why" className="alert alert-info">
              {t(`sandbox.${why}`)}
            </p>
          )}
          <div style={{ display: 'flex', gap: 10, flexWrap: 'wrap' }}>
            {ACTIONS.map((a) => (
              <button
                key={a}
                type="button"
                className={`btn ${a === 'pay' ? 'btn-success' : a === 'partial' ? 'btn-info' : 'btn-white'}`}
                disabled={!!why || busy !== null}
                aria-describedby={why ? 'sandbox-why' : undefined}
                aria-busy={busy === a || undefined}
                onClick={() => void simulate(a)}
              >
                {t(`sandbox.${a}`)}
              </button>
            ))}
          </div>
          {error && (
            <div role="alert" className="alert alert-error">
              {errorMessage(error)}
            </div>
          )}
          {done && (
            <div role="status" className="alert alert-success">
              {t(`sandbox.done.${done.action}`, { status: t(`status.${done.status}`, { defaultValue: done.status }) })}
            </div>
          )}
          <p style={{ marginTop: 18 }}>
            <a href={invoice.redirectUrl}>{t('sandbox.back')}</a>
          </p>
        </>
      )}
    </article>
  );
}
