import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { addPromoCode, createPromoWallet, emailWelcomePromoCode, promoWalletOf, walletsStore } from '../../state/wallets';
import { checkPromoCode } from '../../../contract/rules';
import { formatUsd } from '../../lib/money';
import { TextField } from '../../components/forms/TextField';
import { SubmitButton } from '../../components/forms/SubmitButton';
import { FormError, FormSuccess } from '../../components/forms/FormError';
import { useFormAction } from '../../components/forms/useFormAction';
import { walletLabel } from '../../components/market/WalletPicker';
import { LoadState } from '../../components/market/Status';
import styles from '../../components/market/market.module.css';

/** My wallet: balances, the promo wallet and its codes, and the slot for Bitcoin top-up. */
export default function MyWallet() {
  const { t } = useTranslation(['market', 'validation']);
  const snap = useSnapshot(walletsStore.state);
  const [code, setCode] = useState('');
  const [tried, setTried] = useState(false);
  const promoForm = useFormAction();
  const create = useFormAction();
  const mail = useFormAction();

  useEffect(() => {
    void walletsStore.load();
  }, []);

  const promo = promoWalletOf(snap.data as never);
  const rule = checkPromoCode(code.trim());

  async function redeem(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (rule) return;
    const w = await promoForm.run(() => addPromoCode(code.trim()));
    if (w) {
      promoForm.setSuccess(t('wallet.codeAdded', { balance: formatUsd(w.amountCents) }));
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
            <strong>{formatUsd(w.amountCents)}</strong>
            <small className={styles.meta}>{w.currency}</small>
          </li>
        ))}
      </ul>

      <section className="card" aria-labelledby="promo-h" style={{ marginTop: 20 }}>
        <h2 id="promo-h">{t('wallet.promoTitle')}</h2>
        <p>{t('wallet.promoIntro')}</p>
        {!promo && snap.data && (
          <>
            <button
              type="button"
              className="btn btn-primary"
              disabled={create.busy}
              onClick={() => void create.run(createPromoWallet, t('wallet.promoCreated'))}
            >
              {t('wallet.createPromo')}
            </button>
            <FormError message={create.error} />
          </>
        )}
        <FormSuccess message={create.success} />
        <form onSubmit={redeem} noValidate style={{ marginTop: 12 }}>
          <TextField
            label={t('wallet.promoCode')}
            value={code}
            onChange={(v) => setCode(v.toUpperCase())}
            autoComplete="off"
            spellCheck={false}
            maxLength={32}
            hint={t('wallet.promoCodeHint')}
            error={tried && rule ? t(`validation:${rule}`) : null}
          />
          <FormError message={promoForm.error} />
          <FormSuccess message={promoForm.success} />
          <SubmitButton busy={promoForm.busy}>{t('wallet.redeem')}</SubmitButton>
        </form>
        <hr style={{ margin: '20px 0', border: 0, borderTop: '1px solid var(--gray-light)' }} />
        <p>{t('wallet.welcomeIntro')}</p>
        <button
          type="button"
          className="btn btn-info"
          disabled={mail.busy}
          onClick={() => void mail.run(async () => (await emailWelcomePromoCode(), true), t('wallet.welcomeSent'))}
        >
          {t('wallet.emailWelcome')}
        </button>
        <FormError message={mail.error} />
        <FormSuccess message={mail.success} />
      </section>

      <section id="bitcoin-topup" className="card" aria-labelledby="btc-h" style={{ marginTop: 20 }}>
        <h2 id="btc-h">{t('wallet.bitcoinTitle')}</h2>
        <p className="alert alert-info">{t('wallet.bitcoinSoon')}</p>
      </section>
    </section>
  );
}
