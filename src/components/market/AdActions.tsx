import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { OwnerAd } from '../../api/ads';
import { bumpAd, moveAd } from '../../state/ads';
import { walletsStore } from '../../state/wallets';
import { bumpPriceFor, pricingStore } from '../../state/pricing';
import { errorMessage } from '../../api/client';
import { Dialog } from './Dialog';
import { Money } from './Money';
import { WalletPicker, defaultWalletId } from './WalletPicker';
import { StateCityPicker } from './StateCityPicker';
import { payErrorMessage } from './payError';
import styles from './market.module.css';

/** Bump dialog: the bump price for the ad's type and the wallet to pay it from. */
export function BumpDialog({ ad, onClose, onDone }: { ad: OwnerAd; onClose: () => void; onDone: (msg: string) => void }) {
  const { t } = useTranslation('market');
  const wallets = useSnapshot(walletsStore.state);
  const pricing = useSnapshot(pricingStore.state);
  const price = bumpPriceFor(pricing.data, ad.listingType)?.priceCents ?? null;
  const [walletId, setWalletId] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!walletsStore.state.data) void walletsStore.load();
    if (!pricingStore.state.data) void pricingStore.load();
  }, []);

  const chosen = walletId || defaultWalletId(wallets.data, price);
  async function confirm() {
    if (!chosen) return;
    setBusy(true);
    setError(null);
    try {
      await bumpAd(ad.id, chosen);
      onDone(t('myAds.bumped', { title: ad.title }));
    } catch (e) {
      setError(payErrorMessage(t, e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title={t('myAds.bumpTitle', { title: ad.title })} onClose={onClose}>
      <p>{t('myAds.bumpText')}</p>
      <p>
        {t('myAds.bumpPrice')}{' '}
        <strong>
          <Money cents={price} />
        </strong>
      </p>
      <WalletPicker wallets={wallets.data ?? []} value={chosen} onChange={setWalletId} needCents={price} />
      {error && (
        <div role="alert" className="alert alert-error">
          {error}
        </div>
      )}
      <div className={styles.actions}>
        <button type="button" className="btn btn-white" onClick={onClose}>
          {t('cancel')}
        </button>
        <button type="button" className="btn btn-primary" onClick={confirm} disabled={busy || !chosen || price == null} aria-busy={busy || undefined}>
          {t('myAds.bumpConfirm')}
        </button>
      </div>
    </Dialog>
  );
}

/** Move dialog: another state and city for an approved ad. */
export function MoveDialog({ ad, onClose, onDone }: { ad: OwnerAd; onClose: () => void; onDone: (msg: string) => void }) {
  const { t } = useTranslation('market');
  const [place, setPlace] = useState({ stateId: ad.state.id, cityId: ad.city.id });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const same = place.cityId === ad.city.id;

  async function confirm() {
    if (!place.stateId || !place.cityId) return setError(t('rules.city'));
    setBusy(true);
    setError(null);
    try {
      await moveAd(ad.id, place.stateId, place.cityId);
      onDone(t('myAds.moved', { title: ad.title }));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title={t('myAds.moveTitle', { title: ad.title })} onClose={onClose}>
      <p>{t('myAds.moveText', { city: ad.city.name, state: ad.state.name })}</p>
      <StateCityPicker stateId={place.stateId} cityId={place.cityId} onChange={setPlace} />
      {error && (
        <div role="alert" className="alert alert-error">
          {error}
        </div>
      )}
      <div className={styles.actions}>
        <button type="button" className="btn btn-white" onClick={onClose}>
          {t('cancel')}
        </button>
        <button type="button" className="btn btn-primary" onClick={confirm} disabled={busy || !place.cityId || same} aria-busy={busy || undefined}>
          {t('myAds.moveConfirm')}
        </button>
      </div>
    </Dialog>
  );
}
