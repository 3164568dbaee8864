// The wallet screen's paginated lists: the user's Bitcoin invoices and the ledger history of their wallets.
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import {
  followInvoice,
  invoicesQuery,
  isOpenPhase,
  loadInvoices,
  loadTransactions,
  myInvoicesStore,
  phaseOfStatus,
  transactionsQuery,
  transactionsStore,
} from '../../state/payments';
import type { Transaction } from '../../api/payments';
import { formatUsd } from '../../lib/money';
import { Pager } from '../../components/forms/Pager';
import { ledgerAbout, walletLabel } from '../../components/market/WalletPicker';
import { dateTimeLabel } from '../../components/market/labels';
import { LoadState } from '../../components/market/Status';

const cellNoWrap = { whiteSpace: 'nowrap' } as const;

/** The user's Bitcoin invoices, newest first, paginated. */
export function Invoices() {
  const { t, i18n } = useTranslation('payments');
  const { data, loading, error } = useSnapshot(myInvoicesStore.state);
  const query = useSnapshot(invoicesQuery);
  const invoices = data?.invoices ?? [];
  return (
    <section className="card" aria-labelledby="invoices-h" style={{ marginTop: 20 }}>
      <h2 id="invoices-h">{t('invoices.title')}</h2>
      <LoadState loading={loading && !data} error={error} />
      {data && !invoices.length && <p>{t('invoices.empty')}</p>}
      {invoices.length > 0 && (
        <div style={{ overflowX: 'auto' }} tabIndex={0} role="group" aria-labelledby="invoices-h">
          <table className="data" aria-labelledby="invoices-h" aria-busy={loading || undefined}>
            <caption className="visually-hidden">{t('invoices.caption', { total: data?.total ?? 0 })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('invoices.date')}</th>
                <th scope="col">{t('invoices.amount')}</th>
                <th scope="col">{t('invoices.status')}</th>
                <th scope="col">{t('invoices.invoice')}</th>
                <th scope="col">{t('invoices.checkout')}</th>
              </tr>
            </thead>
            <tbody>
              {invoices.map((inv) => {
                const phase = phaseOfStatus(inv.status, inv.additionalStatus);
                return (
                  <tr key={inv.invoiceId}>
                    <td style={cellNoWrap}>
                      <time dateTime={inv.createdAt}>{dateTimeLabel(inv.createdAt, i18n.language)}</time>
                    </td>
                    <td style={cellNoWrap}>{formatUsd(inv.amountCents, i18n.language)}</td>
                    <td>{t(`phase.${phase}`)}</td>
                    <td>
                      <code>{inv.invoiceId}</code>
                    </td>
                    <td>
                      {isOpenPhase(phase) ? (
                        <a
                          href={inv.checkoutLink}
                          target="_blank"
                          rel="noopener noreferrer"
                          aria-label={`${t('invoice.openCheckout')} ${inv.invoiceId}`}
                          onClick={() => followInvoice(inv)}
                        >
                          {t('invoice.openCheckout')}
                        </a>
                      ) : (
                        '—'
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label={t('invoices.pages')}
        page={query.page}
        pageSize={query.pageSize}
        total={data?.total ?? 0}
        disabled={loading}
        onPage={(page) => void loadInvoices({ page })}
      />
    </section>
  );
}

/** What a ledger entry was for (ledgerAbout), a code as typed, else a dash. */
function whatFor(t: (key: string, o?: Record<string, unknown>) => string, tx: Transaction) {
  const about = ledgerAbout(t, tx);
  if (!about) return '—';
  return about.code ? <code>{about.text}</code> : about.text;
}

/** Every ledger entry of the user's wallets: date, kind, amount, balance after, what it was for; paginated. */
export function History() {
  const { t, i18n } = useTranslation(['payments', 'market']);
  const { data, loading, error } = useSnapshot(transactionsStore.state);
  const query = useSnapshot(transactionsQuery);
  const rows = data?.transactions ?? [];
  return (
    <section className="card" aria-labelledby="history-h" style={{ marginTop: 20 }}>
      <h2 id="history-h">{t('history.title')}</h2>
      <p>{t('history.intro')}</p>
      <LoadState loading={loading && !data} error={error} />
      {data && !rows.length && <p>{t('history.empty')}</p>}
      {rows.length > 0 && (
        <div style={{ overflowX: 'auto' }} tabIndex={0} role="group" aria-labelledby="history-h">
          <table className="data" aria-labelledby="history-h" aria-busy={loading || undefined}>
            <caption className="visually-hidden">{t('history.caption', { total: data?.total ?? 0 })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('history.date')}</th>
                <th scope="col">{t('history.kind')}</th>
                <th scope="col">{t('history.wallet')}</th>
                <th scope="col">{t('history.amount')}</th>
                <th scope="col">{t('history.balanceAfter')}</th>
                <th scope="col">{t('history.reference')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((tx) => (
                <tr key={tx.id}>
                  <td style={cellNoWrap}>
                    <time dateTime={tx.createdAt}>{dateTimeLabel(tx.createdAt, i18n.language)}</time>
                  </td>
                  <td>{t(`kinds.${tx.kind}`, { defaultValue: tx.kind })}</td>
                  <td>{walletLabel((k) => t(`market:${k}`), tx)}</td>
                  <td style={cellNoWrap}>{tx.amountCents > 0 ? `+${formatUsd(tx.amountCents, i18n.language)}` : formatUsd(tx.amountCents, i18n.language)}</td>
                  <td style={cellNoWrap}>{formatUsd(tx.balanceAfterCents, i18n.language)}</td>
                  <td style={{ overflowWrap: 'anywhere' }}>{whatFor(t, tx)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label={t('history.pages')}
        page={query.page}
        pageSize={query.pageSize}
        total={data?.total ?? 0}
        disabled={loading}
        onPage={(page) => void loadTransactions({ page })}
      />
    </section>
  );
}
