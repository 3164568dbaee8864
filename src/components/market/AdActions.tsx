import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useSnapshot } from 'valtio';
import type { OwnerAd } from '../../api/ads';
import { bumpAd, deleteAd, moveAd, payAd, renewAd } from '../../state/ads';
import { walletsStore } from '../../state/wallets';
import { adPriceFor, bumpPriceFor, pricingStore, quoteOf } from '../../state/pricing';
import { asError, errorMessage } from '../../api/client';
import { formatUsd } from '../../lib/money';
import { Dialog } from './Dialog';
import { ConfirmDialog } from './ConfirmDialog';
import { BusyButton } from '../forms/BusyButton';
import { Money } from './Money';
import { WalletPicker, defaultWalletId } from './WalletPicker';
import { StateCityPicker } from './StateCityPicker';
import { payErrorMessage } from './payError';
import { dateLabel } from './labels';
import styles from './market.module.css';

const DAY_MS = 86_400_000;

/**
 * What a dialog answers once done: the message to show, as a function that words it with the
 * showing page's 'market' t and language, called at each render (a language switch re-words it).
 */
export type DoneMessage = (t: TFunction<'market'>, lng: string) => string;

/**
 * A payment from one of the user's wallets: the price, the wallet picker (short wallets marked),
 * the refusal in the page's language (a short wallet's 402 gets the advice to choose another).
 * Every dialog here keeps a refusal as the error and words it at render: it follows a language switch.
 * Their confirm buttons keep focus while they run (BusyButton): a refusal leaves the user there.
 */
function WalletPayDialog(props: {
  title: string;
  priceCents: number | null;
  confirmLabel: string;
  children?: ReactNode;
  /** Pays from the wallet; answers the message to show once done. */
  pay: (walletId: string) => Promise<DoneMessage>;
  onClose: () => void;
  onDone: (msg: DoneMessage) => void;
}) {
  const { t } = useTranslation('market');
  const wallets = useSnapshot(walletsStore.state);
  const [walletId, setWalletId] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);

  useEffect(() => {
    if (!walletsStore.state.data) void walletsStore.load();
  }, []);

  const chosen = walletId || defaultWalletId(wallets.data, props.priceCents);
  async function confirm() {
    if (!chosen) return;
    setBusy(true);
    setError(null);
    try {
      props.onDone(await props.pay(chosen));
    } catch (e) {
      setError(asError(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title={props.title} onClose={props.onClose}>
      {props.children}
      <p>
        {t('cart.price')}{' '}
        <strong>
          <Money cents={props.priceCents} />
        </strong>
      </p>
      {wallets.loading && !wallets.data ? (
        <p>{t('loading')}</p>
      ) : (
        <WalletPicker wallets={wallets.data ?? []} value={chosen} onChange={setWalletId} needCents={props.priceCents} />
      )}
      {error && (
        <div role="alert" className="alert alert-error">
          {payErrorMessage(t, error)}
        </div>
      )}
      <div className={styles.actions}>
        <button type="button" className="btn btn-white" onClick={props.onClose}>
          {t('cancel')}
        </button>
        <BusyButton className="btn btn-primary" onClick={() => void confirm()} busy={busy} disabled={!chosen || props.priceCents == null}>
          {props.confirmLabel}
        </BusyButton>
      </div>
    </Dialog>
  );
}

/**
 * Renew dialog: the ad price adds its duration to max(now, expiry); shows the new expiry before
 * paying. A held term (not started yet) gets its duration added to its end, as the server does
 * (AdManageService.renew): it shows how many days the term then has, counted from when it starts.
 */
export function RenewDialog({ ad, onClose, onDone }: { ad: OwnerAd; onClose: () => void; onDone: (msg: DoneMessage) => void }) {
  const { t, i18n } = useTranslation('market');
  const pricing = useSnapshot(pricingStore.state);
  const price = adPriceFor(pricing.data, ad.listingType);
  useEffect(() => {
    if (!pricingStore.state.data) void pricingStore.load();
  }, []);
  const days = price?.durationDays ?? 30;
  const expires = ad.expiresAt ? Date.parse(ad.expiresAt) : 0;
  const [now] = useState(() => Date.now());
  const held = !!ad.termHeld && expires > 0;
  const until = new Date((held ? expires : Math.max(now, expires)) + days * DAY_MS).toISOString();
  const heldDays = held && ad.publishedAt ? Math.round((Date.parse(until) - Date.parse(ad.publishedAt)) / DAY_MS) : null;
  const lng = i18n.language;
  return (
    <WalletPayDialog
      title={t('myAds.renewTitle', { title: ad.title })}
      priceCents={price?.priceCents ?? null}
      confirmLabel={t('myAds.renewConfirm')}
      pay={async (walletId) => {
        const renewed = await renewAd(ad.id, walletId, quoteOf(price));
        return (tr, at) => tr('myAds.renewed', { title: ad.title, date: dateLabel(renewed.expiresAt, at) });
      }}
      onClose={onClose}
      onDone={onDone}
    >
      {heldDays !== null ? (
        <p>{t('myAds.renewHeld', { count: days, total: heldDays })}</p>
      ) : (
        <p>
          {ad.expiresAt ? t(expires > now ? 'myAds.renewNow' : 'myAds.renewWasExpired', { date: dateLabel(ad.expiresAt, lng) }) : null}{' '}
          {t('myAds.renewAfter', { count: days, date: dateLabel(until, lng) })}
        </p>
      )}
    </WalletPayDialog>
  );
}

/** Pay dialog: an unpaid ad paid from a wallet goes to review (as from the cart). */
export function PayDialog({ ad, onClose, onDone }: { ad: OwnerAd; onClose: () => void; onDone: (msg: DoneMessage) => void }) {
  const { t } = useTranslation('market');
  const pricing = useSnapshot(pricingStore.state);
  useEffect(() => {
    if (!pricingStore.state.data) void pricingStore.load();
  }, []);
  return (
    <WalletPayDialog
      title={t('myAds.payTitle', { title: ad.title })}
      priceCents={adPriceFor(pricing.data, ad.listingType)?.priceCents ?? null}
      confirmLabel={t('cart.pay')}
      pay={async (walletId) => {
        await payAd(ad.id, walletId, quoteOf(adPriceFor(pricingStore.state.data, ad.listingType)));
        return (tr) => tr('cart.paid', { title: ad.title });
      }}
      onClose={onClose}
      onDone={onDone}
    >
      <p>{t('myAds.payText')}</p>
    </WalletPayDialog>
  );
}

/**
 * Delete dialog, saying what happens to the money: an ad in review is refunded in full to the
 * wallet that paid it; an approved one is removed without refund; unpaid or rejected ones cost nothing more.
 */
export function DeleteDialog({ ad, onClose, onDone }: { ad: OwnerAd; onClose: () => void; onDone: (msg: DoneMessage) => void }) {
  const { t, i18n } = useTranslation('market');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const refund = ad.status === 'in_review' && ad.priceCents ? ad.priceCents : 0;
  const text =
    ad.status === 'in_review'
      ? refund
        ? t('myAds.deleteRefund', { title: ad.title, amount: formatUsd(refund, i18n.language) })
        : t('myAds.deleteUnpaid', { title: ad.title })
      : ad.status === 'approved' || ad.status === 'expired' || ad.status === 'disabled'
        ? t('myAds.deleteNoRefund', { title: ad.title })
        : ad.status === 'rejected'
          ? t('myAds.deleteRejected', { title: ad.title })
          : t('myAds.deleteUnpaid', { title: ad.title });

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      const refunded = await deleteAd(ad.id);
      onDone((tr, at) =>
        refunded > 0 ? tr('myAds.deletedRefunded', { title: ad.title, amount: formatUsd(refunded, at) }) : tr('myAds.deleted', { title: ad.title }),
      );
    } catch (e) {
      setError(asError(e));
      setBusy(false);
    }
  }

  return (
    <ConfirmDialog
      title={t('myAds.deleteTitle', { title: ad.title })}
      confirmLabel={t('myAds.deleteConfirm')}
      onConfirm={confirm}
      onCancel={onClose}
      busy={busy}
      danger
    >
      <p>{text}</p>
      {ad.revision?.status === 'pending' && <p>{t('myAds.deleteRevisionToo')}</p>}
      <p>{t('myAds.deleteForever')}</p>
      {error && (
        <div role="alert" className="alert alert-error">
          {errorMessage(error)}
        </div>
      )}
    </ConfirmDialog>
  );
}

/** Bump dialog: the bump price for the ad's type and the wallet to pay it from. */
export function BumpDialog({ ad, onClose, onDone }: { ad: OwnerAd; onClose: () => void; onDone: (msg: DoneMessage) => void }) {
  const { t } = useTranslation('market');
  const wallets = useSnapshot(walletsStore.state);
  const pricing = useSnapshot(pricingStore.state);
  const price = bumpPriceFor(pricing.data, ad.listingType)?.priceCents ?? null;
  const [walletId, setWalletId] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);

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
      await bumpAd(ad.id, chosen, price ?? undefined);
      onDone((tr) => tr('myAds.bumped', { title: ad.title }));
    } catch (e) {
      setError(asError(e));
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
          {payErrorMessage(t, error)}
        </div>
      )}
      <div className={styles.actions}>
        <button type="button" className="btn btn-white" onClick={onClose}>
          {t('cancel')}
        </button>
        <BusyButton className="btn btn-primary" onClick={() => void confirm()} busy={busy} disabled={!chosen || price == null}>
          {t('myAds.bumpConfirm')}
        </BusyButton>
      </div>
    </Dialog>
  );
}

/** Move dialog: another state and city for an approved ad. */
export function MoveDialog({ ad, onClose, onDone }: { ad: OwnerAd; onClose: () => void; onDone: (msg: DoneMessage) => void }) {
  const { t } = useTranslation('market');
  const [place, setPlace] = useState({ stateId: ad.state.id, cityId: ad.city.id });
  const [busy, setBusy] = useState(false);
  // A city not chosen ('noCity') or the server's refusal: worded at render.
  const [error, setError] = useState<Error | 'noCity' | null>(null);
  const same = place.cityId === ad.city.id;

  async function confirm() {
    if (!place.stateId || !place.cityId) return setError('noCity');
    setBusy(true);
    setError(null);
    try {
      await moveAd(ad.id, place.stateId, place.cityId);
      onDone((tr) => tr('myAds.moved', { title: ad.title }));
    } catch (e) {
      setError(asError(e));
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
          {error === 'noCity' ? t('rules.city') : errorMessage(error)}
        </div>
      )}
      <div className={styles.actions}>
        <button type="button" className="btn btn-white" onClick={onClose}>
          {t('cancel')}
        </button>
        <BusyButton className="btn btn-primary" onClick={() => void confirm()} busy={busy} disabled={!place.cityId || same}>
          {t('myAds.moveConfirm')}
        </BusyButton>
      </div>
    </Dialog>
  );
}
