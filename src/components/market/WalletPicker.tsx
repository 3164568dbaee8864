import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Wallet } from '../../api/wallets';
import { formatUsd } from '../../lib/money';

interface Props {
  wallets: readonly Wallet[];
  value: string;
  onChange: (walletId: string) => void;
  /** The amount to pay: wallets that cannot cover it are marked. */
  needCents?: number | null;
  label?: string;
}

/** The red of field errors (global.css): 5.6:1 on white, where the palette's --danger is 3.7:1. */
const NOT_ENOUGH_RED = '#c62828';

export const walletLabel = (t: (k: string) => string, w: Pick<Wallet, 'walletType'>) => (w.walletType === 'USD' ? t('wallet.usd') : t('wallet.promo'));

/**
 * What a ledger entry was for, in words: the ad's title (a deleted ad's last one, or only that it
 * was deleted), else the promo code or the invoice (`code`: shown as typed), never an internal id
 * the user cannot match to anything; null when none. The wallet's history and the dashboard's
 * money lines both say it so.
 */
export function ledgerAbout(
  t: (key: string, o?: Record<string, unknown>) => string,
  e: { adTitle?: string | null; adDeleted?: boolean | null; promoCode?: string | null; invoiceId?: string | null },
): { text: string; code: boolean } | null {
  if (e.adDeleted != null) {
    if (!e.adTitle) return { text: t('payments:about.deletedAd'), code: false };
    return { text: t(e.adDeleted ? 'payments:about.deletedAdTitled' : 'payments:about.ad', { title: e.adTitle }), code: false };
  }
  const code = e.promoCode ?? e.invoiceId;
  return code ? { text: code, code: true } : null;
}

/** Radio choice of the wallet to pay from, each with its balance. */
export function WalletPicker({ wallets, value, onChange, needCents, label }: Props) {
  const { t, i18n } = useTranslation('market');
  const name = useId();
  if (!wallets.length) return <p>{t('wallet.none')}</p>;
  return (
    <fieldset style={{ border: 0, padding: 0, margin: '0 0 12px' }}>
      <legend style={{ fontWeight: 500 }}>{label ?? t('wallet.payFrom')}</legend>
      {wallets.map((w) => {
        const short = needCents != null && w.amountCents < needCents;
        return (
          <label key={w.id} style={{ display: 'flex', gap: 8, alignItems: 'center', padding: '2px 0' }}>
            <input type="radio" name={name} value={w.id} checked={value === w.id} onChange={() => onChange(w.id)} />
            <span>
              {walletLabel(t, w)} — {formatUsd(w.amountCents, i18n.language)}
              {short && <em style={{ color: NOT_ENOUGH_RED }}> ({t('wallet.notEnough')})</em>}
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}

/** The wallet to preselect: the first that covers the amount, else the first one. */
export function defaultWalletId(wallets: readonly Wallet[] | null, needCents?: number | null): string {
  if (!wallets?.length) return '';
  return (wallets.find((w) => needCents == null || w.amountCents >= needCents) ?? wallets[0]).id;
}
