import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { adminInvoicesQuery, adminInvoicesStore, loadAdminInvoices, paymentHealthStore } from '../../state/payments';
import type { AdminInvoice, InvoiceStatus, PaymentServerHealth } from '../../api/payments';
import { formatUsd } from '../../lib/money';
import { dateTimeLabel } from '../../components/market/labels';
import { sayIt } from '../../lib/said';
import { Pager } from '../../components/forms/Pager';
import { LoadState } from '../../components/market/Status';
import styles from '../../components/market/market.module.css';

const STATUSES: InvoiceStatus[] = ['New', 'Processing', 'Settled', 'Expired', 'Invalid'];
const statusTone: Record<string, string> = {
  Settled: styles.badgeOn,
  Processing: styles.badgeWarn,
  New: '',
  Expired: styles.badgeBad,
  Invalid: styles.badgeBad,
};
const row = { margin: 0 } as const;

/** Whether BTCPay Server answers as it should: reachable, synchronized, and sending us its webhooks. */
const healthy = (h: Pick<PaymentServerHealth, 'reachable' | 'synchronized' | 'webhookRegistered'>) => h.reachable && h.synchronized && h.webhookRegistered;

/** Staff: the payment server's health, and recent invoices with every event received for them (support). */
export default function PaymentServer() {
  const { t } = useTranslation('payments');
  useEffect(() => {
    void paymentHealthStore.load();
    void loadAdminInvoices({ page: 1 });
  }, []);
  return (
    <section aria-labelledby="payment-server-h">
      <h1 id="payment-server-h">{t('server.title')}</h1>
      <Health />
      <Invoices />
    </section>
  );
}

function Health() {
  // sayIt words BTCPay's problems with 'admin:says.*': ask for that namespace too, as this page
  // may be the first one opened (a bookmark, the sandbox banner's link, a reload).
  const { t, i18n } = useTranslation(['payments', 'admin']);
  const { data: h, loading, error } = useSnapshot(paymentHealthStore.state);
  const yesNo = (v: boolean) => (v ? t('server.yes') : t('server.no'));
  const when = (iso: string | null) => (iso ? <time dateTime={iso}>{dateTimeLabel(iso, i18n.language)}</time> : t('server.never'));
  return (
    <section className="card" aria-labelledby="health-h" aria-busy={loading || undefined} style={{ marginBottom: 20 }}>
      <h2 id="health-h" style={{ display: 'flex', gap: 10, alignItems: 'center', flexWrap: 'wrap' }}>
        {t('server.health')}
        {h && h.mode === 'sandbox' && <span className={`${styles.badge} ${styles.badgeWarn}`}>{t('server.modes.sandbox')}</span>}
        {h && h.mode === 'btcpay' && (
          <span className={`${styles.badge} ${healthy(h) ? styles.badgeOn : styles.badgeBad}`}>
            {healthy(h) ? t('server.overall.ok') : t('server.overall.problem')}
          </span>
        )}
      </h2>
      <LoadState loading={loading && !h} error={error} />
      {h && (
        <>
          {h.mode === 'sandbox' && <p className="alert alert-info">{t('server.sandboxNote')}</p>}
          <dl aria-label={t('server.health')} style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '6px 16px' }}>
            <dt>{t('server.mode')}</dt>
            <dd style={row}>{t(`server.modes.${h.mode}`)}</dd>
            <dt>{t('server.reachable')}</dt>
            <dd style={row}>{yesNo(h.reachable)}</dd>
            <dt>{t('server.synchronized')}</dt>
            <dd style={row}>{yesNo(h.synchronized)}</dd>
            <dt>{t('server.version')}</dt>
            <dd style={row}>{h.version ?? t('server.unknown')}</dd>
            <dt>{t('server.storeId')}</dt>
            <dd style={row}>{h.storeId ? <code>{h.storeId}</code> : t('server.unknown')}</dd>
            <dt>{t('server.webhook')}</dt>
            <dd style={row}>{yesNo(h.webhookRegistered)}</dd>
            <dt>{t('server.lastWebhook')}</dt>
            <dd style={row}>{when(h.lastWebhookAt)}</dd>
            <dt>{t('server.openInvoices')}</dt>
            <dd style={row}>{h.openInvoices}</dd>
            <dt>{t('server.checkedAt')}</dt>
            <dd style={row}>{when(h.checkedAt)}</dd>
            <dt>{t('server.message')}</dt>
            <dd style={{ ...row, overflowWrap: 'anywhere' }}>
              {h.problems.length ? h.problems.map((p) => sayIt(t, p, h.message, i18n.language)).join(' ') : t('server.noProblems')}
            </dd>
          </dl>
        </>
      )}
      <button
        type="button"
        className="btn btn-white"
        style={{ marginTop: 12 }}
        disabled={loading}
        aria-busy={loading || undefined}
        onClick={() => void paymentHealthStore.load()}
      >
        {loading ? t('server.checking') : t('server.recheck')}
      </button>
    </section>
  );
}

function Invoices() {
  const { t } = useTranslation('payments');
  const { data, loading, error } = useSnapshot(adminInvoicesStore.state);
  const query = useSnapshot(adminInvoicesQuery);
  const [text, setText] = useState(query.query);
  const [status, setStatus] = useState<InvoiceStatus | ''>(query.status);
  const invoices = (data?.invoices ?? []) as readonly AdminInvoice[];

  const search = (e: FormEvent) => {
    e.preventDefault();
    void loadAdminInvoices({ query: text, status, page: 1 });
  };
  const clear = () => {
    setText('');
    setStatus('');
    void loadAdminInvoices({ query: '', status: '', page: 1 });
  };

  return (
    <section aria-labelledby="admin-invoices-h">
      <h2 id="admin-invoices-h">{t('server.invoices')}</h2>
      <p>{t('server.invoicesIntro')}</p>
      <form
        role="search"
        aria-label={t('server.filters')}
        onSubmit={search}
        style={{ display: 'flex', gap: 10, alignItems: 'flex-end', flexWrap: 'wrap', marginBottom: 12 }}
      >
        <div className="field" style={{ margin: 0, minWidth: 260 }}>
          <label htmlFor="invoice-query">{t('server.query')}</label>
          <input
            id="invoice-query"
            type="search"
            value={text}
            maxLength={254}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
        {/* A native select is as wide as its longest option (pt "Aguardando pagamento …"): on a 320 px phone it shrinks to the line. */}
        <div className="field" style={{ margin: 0, minWidth: 0, maxWidth: '100%' }}>
          <label htmlFor="invoice-status">{t('server.statusFilter')}</label>
          <select id="invoice-status" style={{ maxWidth: '100%' }} value={status} onChange={(e) => setStatus(e.target.value as InvoiceStatus | '')}>
            <option value="">{t('server.anyStatus')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`status.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-primary">
          {t('server.apply')}
        </button>
        <button type="button" className="btn btn-white" onClick={clear}>
          {t('server.clear')}
        </button>
      </form>
      <LoadState loading={loading && !data} error={error} />
      {data && !invoices.length && <p>{t('server.empty')}</p>}
      {invoices.length > 0 && (
        <ul aria-busy={loading || undefined} style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: 14 }}>
          {invoices.map((inv) => (
            <li key={inv.invoiceId}>
              <InvoiceCard invoice={inv} />
            </li>
          ))}
        </ul>
      )}
      <Pager
        label={t('server.pages')}
        page={query.page}
        pageSize={query.pageSize}
        total={data?.total ?? 0}
        disabled={loading}
        onPage={(page) => void loadAdminInvoices({ page })}
      />
    </section>
  );
}

function InvoiceCard({ invoice: inv }: { invoice: AdminInvoice }) {
  const { t, i18n } = useTranslation('payments');
  const when = (iso: string | null) => (iso ? <time dateTime={iso}>{dateTimeLabel(iso, i18n.language)}</time> : null);
  const headingId = `invoice-${inv.invoiceId}`;
  return (
    <article className="card" aria-labelledby={headingId}>
      <h3 id={headingId} style={{ margin: '0 0 8px', fontSize: 16, display: 'flex', gap: 10, alignItems: 'center', flexWrap: 'wrap' }}>
        {t('server.invoiceTitle', { id: inv.invoiceId })}
        <span className={`${styles.badge} ${statusTone[inv.status] ?? ''}`}>
          {t(`status.${inv.status}`, { defaultValue: inv.status })}
          {inv.additionalStatus && inv.additionalStatus !== 'None'
            ? ` · ${t(`additionalStatus.${inv.additionalStatus}`, { defaultValue: inv.additionalStatus })}`
            : ''}
        </span>
      </h3>
      <dl style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '4px 14px', margin: '0 0 10px' }}>
        <dt>{t('server.user')}</dt>
        <dd style={row}>
          {inv.userEmail ?? '—'} <small className={styles.meta}>({inv.userId})</small>
        </dd>
        <dt>{t('server.amount')}</dt>
        <dd style={row}>{formatUsd(inv.amountCents, i18n.language)}</dd>
        <dt>{t('server.created')}</dt>
        <dd style={row}>{when(inv.createdAt)}</dd>
        <dt>{t('server.expires')}</dt>
        <dd style={row}>{when(inv.expiresAt)}</dd>
        <dt>{t('server.credited')}</dt>
        <dd style={row}>{when(inv.creditedAt) ?? t('server.notCredited')}</dd>
        <dt>{t('server.checkout')}</dt>
        <dd style={{ ...row, overflowWrap: 'anywhere' }}>
          <a href={inv.checkoutLink} target="_blank" rel="noopener noreferrer">
            {inv.checkoutLink}
          </a>
        </dd>
      </dl>
      {inv.events.length === 0 ? (
        <p className={styles.meta}>{t('server.noEvents')}</p>
      ) : (
        <div style={{ overflowX: 'auto' }}>
          <table className="data" aria-label={t('server.events', { id: inv.invoiceId })}>
            <thead>
              <tr>
                <th scope="col">{t('server.received')}</th>
                <th scope="col">{t('server.eventType')}</th>
                <th scope="col">{t('server.eventStatus')}</th>
                <th scope="col">{t('server.processed')}</th>
                <th scope="col">{t('server.outcome')}</th>
              </tr>
            </thead>
            <tbody>
              {inv.events.map((ev, i) => (
                <tr key={`${ev.receivedAt}-${i}`}>
                  <td style={{ whiteSpace: 'nowrap' }}>{when(ev.receivedAt)}</td>
                  <td>
                    <code>{ev.type}</code>
                  </td>
                  <td>{ev.status ?? '—'}</td>
                  <td style={{ whiteSpace: 'nowrap' }}>{when(ev.processedAt) ?? t('server.waiting')}</td>
                  <td>{ev.outcome ? <code>{ev.outcome}</code> : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </article>
  );
}
