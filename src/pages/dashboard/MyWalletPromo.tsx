// The wallet screen's promo wallet: create it, redeem a promo code into it, and email the welcome code.
import { useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { Snapshot } from 'valtio';
import { PROMO_ALREADY_USED, addPromoCode, createPromoWallet, emailWelcomePromoCode, mayHaveMoved, promoWalletOf } from '../../state/wallets';
import { loadTransactions } from '../../state/payments';
import type { Wallet } from '../../api/wallets';
import { checkPromoCode } from '../../../contract/rules';
import { formatUsd } from '../../lib/money';
import { TextField } from '../../components/forms/TextField';
import { SubmitButton } from '../../components/forms/SubmitButton';
import { BusyButton } from '../../components/forms/BusyButton';
import { FormError, FormSuccess } from '../../components/forms/FormError';
import { useFormAction } from '../../components/forms/useFormAction';

/** The promo wallet's section; `wallets` is the page's snapshot of the balances (null until loaded). */
export function PromoWallet({ wallets }: { wallets: Snapshot<Wallet[]> | null }) {
  const { t } = useTranslation(['market', 'validation']);
  const [code, setCode] = useState('');
  const [tried, setTried] = useState(false);
  const promoForm = useFormAction('market');
  const create = useFormAction('market');
  const mail = useFormAction('market');

  const promo = promoWalletOf(wallets as never);
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
    <section className="card" aria-labelledby="promo-h" style={{ marginTop: 20 }}>
      <h2 id="promo-h">{t('wallet.promoTitle')}</h2>
      <p>{t('wallet.promoIntro')}</p>
      {!promo && wallets && (
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
  );
}
