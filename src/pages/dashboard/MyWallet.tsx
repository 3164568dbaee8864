import { useEffect, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { PROMO_ALREADY_USED, addPromoCode, createPromoWallet, emailWelcomePromoCode, mayHaveMoved, promoWalletOf, walletsStore } from '../../state/wallets';
import {
  amountText,
  createTopUp,
  currentInvoice,
  currentPhase,
  followInvoice,
  invoicesQuery,
  isOpenPhase,
  loadInvoices,
  loadTransactions,
  myInvoicesStore,
  paymentModeStore,
  phaseOfStatus,
  refreshPayments,
  restoreCurrentInvoice,
  transactionsQuery,
  transactionsStore,
  watchInvoice,
} from '../../state/payments';
import { socketStore } from '../../state/socket';
import type { Transaction } from '../../api/payments';
import { checkPromoCode } from '../../../contract/rules';
import { TOP_UP_MAX_CENTS, TOP_UP_MIN_CENTS, TOP_UP_PRESETS, centsToDecimal, topUpCents } from '../../../contract/amount';
import { formatUsd } from '../../lib/money';
import { TextField } from '../../components/forms/TextField';
import { SubmitButton } from '../../components/forms/SubmitButton';
import { BusyButton } from '../../components/forms/BusyButton';
import { FormError, FormSuccess } from '../../components/forms/FormError';
import { useFormAction } from '../../components/forms/useFormAction';
import { Pager } from '../../components/forms/Pager';
import { ledgerAbout, walletLabel } from '../../components/market/WalletPicker';
import { dateTimeLabel } from '../../components/market/labels';
import { LoadState } from '../../components/market/Status';
import styles from '../../components/market/market.module.css';

/** My wallet: balances, Bitcoin top-up with its live invoice, the invoices, the history, and the promo wallet. */
export default function MyWallet() {
  const { t, i18n } = useTranslation(['market', 'validation']);
  const snap = useSnapshot(walletsStore.state);
  const [code, setCode] = useState('');
  const [tried, setTried] = useState(false);
  const promoForm = useFormAction('market');
  const create = useFormAction('market');
  const mail = useFormAction('market');

  useEffect(() => {
    void walletsStore.load();
    if (!paymentModeStore.state.data) void paymentModeStore.load();
    restoreCurrentInvoice(); // first, so the invoices read next fill its status
    void loadInvoices({ page: 1 });
    void loadTransactions({ page: 1 });
  }, []);

  const promo = promoWalletOf(snap.data as never);
  const rule = checkPromoCode(code.trim());

  async function redeem(e: FormEvent) {
    e.preventDefault();
    // The rule is shown (and describes the field) before the field takes focus: a screen reader hears it there.
    flushSync(() => setTried(true));
    if (rule) {
      document.getElementById('promo-code')?.focus();
      return;
    }
    const w = await promoForm.run(async () => {
      try {
        return await addPromoCode(code.trim());
      } catch (e) {
        // The code may have been credited (its answer lost; a retry is then "already used"): the
        // store reads the balances again, and the history shows the credit or its absence.
        if (mayHaveMoved(e, PROMO_ALREADY_USED)) void loadTransactions();
        throw e;
      }
    });
    if (w) {
      void loadTransactions(); // the credit is a row of the history below
      promoForm.setSuccess((t, lng) => t('wallet.codeAdded', { balance: formatUsd(w.amountCents, lng) }));
      setCode('');
      setTried(false);
    }
  }

  return (
    <section>
      <h1>{t('wallet.title')}</h1>
      <LoadState loading={snap.loading && !snap.data} error={snap.error} />
      <h2>{t('wallet.balances')}</h2>
      <ul className={styles.stats}>
        {(snap.data ?? []).map((w) => (
          <li key={w.id}>
            <span>{walletLabel(t, w)}</span>
            <strong>{formatUsd(w.amountCents, i18n.language)}</strong>
            <small className={styles.meta}>{w.currency}</small>
          </li>
        ))}
      </ul>

      <BitcoinTopUp />
      <Invoices />
      <History />

      <section className="card" aria-labelledby="promo-h" style={{ marginTop: 20 }}>
        <h2 id="promo-h">{t('wallet.promoTitle')}</h2>
        <p>{t('wallet.promoIntro')}</p>
        {!promo && snap.data && (
          <>
            <BusyButton className="btn btn-primary" busy={create.busy} onClick={() => void create.run(createPromoWallet, (t) => t('wallet.promoCreated'))}>
              {t('wallet.createPromo')}
            </BusyButton>
            <FormError message={create.error} />
          </>
        )}
        <FormSuccess message={create.success} focus />
        <form onSubmit={redeem} noValidate style={{ marginTop: 12 }}>
          <TextField
            id="promo-code"
            label={t('wallet.promoCode')}
            value={code}
            onChange={(v) => setCode(v.toUpperCase())}
            autoComplete="off"
            spellCheck={false}
            maxLength={32}
            hint={t('wallet.promoCodeHint')}
            error={tried && rule ? t(`validation:${rule}`) : null}
            refusedBy={promoForm.error ? 'promo-refused' : null}
          />
          <FormError message={promoForm.error} id="promo-refused" />
          <FormSuccess message={promoForm.success} />
          <SubmitButton busy={promoForm.busy}>{t('wallet.redeem')}</SubmitButton>
        </form>
        <hr style={{ margin: '20px 0', border: 0, borderTop: '1px solid var(--gray-light)' }} />
        <p>{t('wallet.welcomeIntro')}</p>
        <BusyButton
          className="btn btn-info"
          busy={mail.busy}
          onClick={() =>
            void mail.run(
              async () => (await emailWelcomePromoCode(), true),
              (t) => t('wallet.welcomeSent'),
            )
          }
        >
          {t('wallet.emailWelcome')}
        </BusyButton>
        <FormError message={mail.error} />
        <FormSuccess message={mail.success} />
      </section>
    </section>
  );
}

/**
 * A tab for the checkout, opened now, inside the click's own task (a popup blocker lets that
 * through; one opened after the invoice request would be blocked), and pointed at the checkout
 * once the invoice exists. Null when the browser refused.
 */
function openBlankTab(waiting: string): Window | null {
  let tab: Window | null;
  try {
    tab = window.open('', '_blank');
  } catch {
    return null;
  }
  if (!tab) return null;
  try {
    tab.opener = null; // the checkout (another site) gets no handle on this page
    tab.document.title = waiting;
    tab.document.body.textContent = waiting;
  } catch {
    // not ours to write into: it is still pointed at the checkout below
  }
  return tab;
}

/** Amount (with presets), "Pay with Bitcoin", and the status of the invoice being paid. */
function BitcoinTopUp() {
  const { t, i18n } = useTranslation(['payments', 'market']);
  const mode = useSnapshot(paymentModeStore.state).data;
  const [amount, setAmount] = useState('');
  const [tried, setTried] = useState(false);
  const [blocked, setBlocked] = useState(false);
  const form = useFormAction();
  const cents = topUpCents(amountText(amount));
  const limits = { min: formatUsd(TOP_UP_MIN_CENTS, i18n.language), max: formatUsd(TOP_UP_MAX_CENTS, i18n.language) };
  const amountError = tried && cents === null ? t('topUp.amountInvalid', limits) : null;
  const field = useRef<HTMLDivElement>(null);

  async function pay(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (cents === null) {
      field.current?.querySelector('input')?.focus();
      return;
    }
    if (form.busy) return;
    setBlocked(false);
    const tab = openBlankTab(t('topUp.opening'));
    const created = await form.run(() => createTopUp(centsToDecimal(cents)));
    if (!created) {
      tab?.close();
      return;
    }
    let opened = false;
    if (tab && !tab.closed) {
      try {
        tab.location.href = created.checkoutLink;
        opened = true;
      } catch {
        opened = false;
      }
    }
    setBlocked(!opened);
    setAmount('');
    setTried(false);
  }

  return (
    <section id="bitcoin-topup" className="card" aria-labelledby="btc-h" style={{ marginTop: 20 }}>
      <h2 id="btc-h">{t('market:wallet.bitcoinTitle')}</h2>
      <p>{t('topUp.intro')}</p>
      {mode === 'sandbox' && <p className="alert alert-info">{t('topUp.sandboxNote')}</p>}
      <form onSubmit={pay} noValidate>
        <div ref={field}>
          <TextField
            label={t('topUp.amount')}
            value={amount}
            onChange={setAmount}
            inputMode="decimal"
            autoComplete="off"
            maxLength={20}
            hint={t('topUp.amountHint', limits)}
            error={amountError}
          />
        </div>
        <div role="group" aria-label={t('topUp.presets')} style={{ display: 'flex', gap: 8, flexWrap: 'wrap', marginBottom: 12 }}>
          {TOP_UP_PRESETS.map((p) => {
            const text = centsToDecimal(p * 100);
            return (
              <button key={p} type="button" className="btn btn-sm btn-white" aria-pressed={cents === p * 100} onClick={() => setAmount(text)}>
                {wholeUsd(p, i18n.language)}
              </button>
            );
          })}
        </div>
        <FormError message={form.error} />
        <SubmitButton busy={form.busy} busyLabel={t('topUp.creating')} variant="warning">
          {t('topUp.pay')}
        </SubmitButton>
      </form>
      {blocked && (
        <p role="alert" className="alert alert-info">
          {t('topUp.popupBlocked')}
        </p>
      )}
      <CurrentInvoice />
    </section>
  );
}

/** The watched invoice: its status in words, following the socket's events live. */
function CurrentInvoice() {
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

const cellNoWrap = { whiteSpace: 'nowrap' } as const;

/** The user's Bitcoin invoices, newest first, paginated. */
function Invoices() {
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
        <div style={{ overflowX: 'auto' }}>
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

/**
 * A whole number of dollars as the page's language writes it, without cents ("$20", "20 US$",
 * "US$ 20"): formatUsd's form, for the quick amounts, which are never fractional.
 */
const wholeUsd = (dollars: number, lng: string) => new Intl.NumberFormat(lng, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(dollars);

/** What a ledger entry was for (ledgerAbout), a code as typed, else a dash. */
function whatFor(t: (key: string, o?: Record<string, unknown>) => string, tx: Transaction) {
  const about = ledgerAbout(t, tx);
  if (!about) return '—';
  return about.code ? <code>{about.text}</code> : about.text;
}

/** Every ledger entry of the user's wallets: date, kind, amount, balance after, what it was for; paginated. */
function History() {
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
        <div style={{ overflowX: 'auto' }}>
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
