// The wallet screen's Bitcoin top-up: the amount with its presets, and "Pay with Bitcoin" opening the checkout.
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { amountText, createTopUp, paymentModeStore } from '../../state/payments';
import { TOP_UP_MAX_CENTS, TOP_UP_MIN_CENTS, TOP_UP_PRESETS, centsToDecimal, topUpCents } from '../../../contract/amount';
import { formatUsd } from '../../lib/money';
import { TextField } from '../../components/forms/TextField';
import { SubmitButton } from '../../components/forms/SubmitButton';
import { FormError } from '../../components/forms/FormError';
import { useFormAction } from '../../components/forms/useFormAction';
import { CurrentInvoice } from './MyWalletCurrentInvoice';

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

/**
 * A whole number of dollars as the page's language writes it, without cents ("$20", "20 US$",
 * "US$ 20"): formatUsd's form, for the quick amounts, which are never fractional.
 */
const wholeUsd = (dollars: number, lng: string) => new Intl.NumberFormat(lng, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(dollars);

/** Amount (with presets), "Pay with Bitcoin", and the status of the invoice being paid. */
export function BitcoinTopUp() {
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
