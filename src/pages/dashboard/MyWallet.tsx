// The provider's wallet screen: loads its data, shows the balances and lays out the sections below.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { walletsStore } from '../../state/wallets';
import { loadInvoices, loadTransactions, paymentModeStore, restoreCurrentInvoice } from '../../state/payments';
import { formatUsd } from '../../lib/money';
import { walletLabel } from '../../components/market/WalletPicker';
import { LoadState } from '../../components/market/Status';
import styles from '../../components/market/market.module.css';
import { BitcoinTopUp } from './MyWalletTopUp';
import { History, Invoices } from './MyWalletLists';
import { PromoWallet } from './MyWalletPromo';

/** My wallet: balances, Bitcoin top-up with its live invoice, the invoices, the history, and the promo wallet. */
export default function MyWallet() {
  const { t, i18n } = useTranslation(['market', 'validation']);
  const snap = useSnapshot(walletsStore.state);

  useEffect(() => {
    void walletsStore.load();
    if (!paymentModeStore.state.data) void paymentModeStore.load();
    restoreCurrentInvoice(); // first, so the invoices read next fill its status
    void loadInvoices({ page: 1 });
    void loadTransactions({ page: 1 });
  }, []);

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

      <PromoWallet wallets={snap.data} />
    </section>
  );
}
