import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { AD_ALREADY_PAID, CART_PAGE_SIZE, cartQuery, cartStore, deleteCartAd, loadCartPage, payCartAd } from '../../state/cart';
import { walletsStore } from '../../state/wallets';
import { adPriceFor, pricingStore, quoteOf } from '../../state/pricing';
import { ApiError, asError, errorMessage } from '../../api/client';
import { payErrorMessage } from '../../components/market/payError';
import type { OwnerAd } from '../../api/ads';
import { routes } from '../../app/routes';
import { Money } from '../../components/market/Money';
import { WalletPicker, defaultWalletId } from '../../components/market/WalletPicker';
import { ConfirmDialog } from '../../components/market/ConfirmDialog';
import { LoadState } from '../../components/market/Status';
import { Pager } from '../../components/forms/Pager';
import { BusyButton } from '../../components/forms/BusyButton';
import { ageLabel, typeLabel } from '../../components/market/labels';
import styles from '../../components/market/market.module.css';

/** My cart: unpaid ads, a page at a time, each paid from a chosen wallet (then reviewed) or deleted. */
export default function MyCart() {
  const { t } = useTranslation('market');
  const cart = useSnapshot(cartStore.state);
  const query = useSnapshot(cartQuery);
  const wallets = useSnapshot(walletsStore.state);
  const pricing = useSnapshot(pricingStore.state);
  const [choice, setChoice] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);
  // Kept as the errors and the paid ad's title, worded at each render: a language switch re-words them.
  const [errors, setErrors] = useState<Record<string, Error | null>>({});
  const [paidNote, setPaidNote] = useState<{ paid: string } | Error | null>(null);
  const [deleting, setDeleting] = useState<OwnerAd | null>(null);
  const noteRef = useRef<HTMLDivElement>(null);

  // Paying takes the ad's row, and its Pay button, out of the cart: focus goes to the outcome, not to the page's body.
  useEffect(() => {
    if (paidNote) noteRef.current?.focus();
  }, [paidNote]);

  useEffect(() => {
    void cartStore.load();
    void walletsStore.load();
    if (!pricingStore.state.data) void pricingStore.load();
  }, []);

  const priceOf = (ad: OwnerAd) => ad.priceCents ?? adPriceFor(pricing.data, ad.listingType)?.priceCents ?? null;
  // The price the page shows, named with the payment: the server charges that or refuses (409). No
  // price list read (loading, or its request failed): nothing to name, so no payment.
  const quoteFor = (ad: OwnerAd) => quoteOf(adPriceFor(pricingStore.state.data, ad.listingType));

  async function pay(ad: OwnerAd) {
    const walletId = choice[ad.id] || defaultWalletId(walletsStore.state.data, priceOf(ad));
    const quote = quoteFor(ad);
    if (!walletId || !quote || busy === ad.id) return;
    setBusy(ad.id);
    setErrors((x) => ({ ...x, [ad.id]: null }));
    setPaidNote(null);
    try {
      await payCartAd(ad.id, walletId, quote);
      setPaidNote({ paid: ad.title });
    } catch (e) {
      // After a lost answer or "already paid", payCartAd has the wallets read again.
      if (e instanceof ApiError && e.code === AD_ALREADY_PAID) {
        // Paid meanwhile (another tab, or a try whose answer was lost): it left the cart; say so where the cart's news goes.
        setPaidNote(asError(e));
        void cartStore.load();
      } else setErrors((x) => ({ ...x, [ad.id]: asError(e) }));
    } finally {
      setBusy(null);
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    const ad = deleting;
    setBusy(ad.id);
    try {
      await deleteCartAd(ad.id);
      setDeleting(null);
    } catch (e) {
      setErrors((x) => ({ ...x, [ad.id]: asError(e) }));
      setDeleting(null);
    } finally {
      setBusy(null);
    }
  }

  const list = cart.data ?? [];
  return (
    <section>
      <h1>{t('cart.title')}</h1>
      <p>{t('cart.intro')}</p>
      {paidNote && (
        <div ref={noteRef} role="status" tabIndex={-1} className="alert alert-success">
          {paidNote instanceof Error ? errorMessage(paidNote) : t('cart.paid', { title: paidNote.paid })} <Link href={routes.myAds}>{t('cart.seeMyAds')}</Link>
        </div>
      )}
      <LoadState loading={cart.loading && !cart.data} error={cart.error ?? wallets.error ?? pricing.error} />
      {cart.data && !list.length && (
        <p>
          {t('cart.empty')} <Link href={routes.createAds}>{t('cart.postOne')}</Link>
        </p>
      )}
      <ul className={styles.list}>
        {list.map((a) => {
          const ad = a as OwnerAd;
          const price = priceOf(ad);
          const ws = wallets.data ?? [];
          return (
            <li key={ad.id} className={styles.item} aria-label={ad.title}>
              {ad.photos[0] && <img src={ad.photos[0].thumbUrl} alt="" />}
              <div className={styles.itemBody}>
                <h2 dir="auto" style={{ fontSize: 17, margin: '0 0 4px' }}>
                  {ad.title}
                </h2>
                <p className={styles.meta}>
                  {typeLabel(t, ad.listingType)} · {ad.city.name}, {ad.state.name} · {t('ageShort', { age: ageLabel(t, ad.age) })}
                </p>
                <p>
                  {t('cart.price')}{' '}
                  <strong>
                    <Money cents={price} />
                  </strong>
                </p>
                <WalletPicker
                  wallets={ws}
                  value={choice[ad.id] || defaultWalletId(ws, price)}
                  onChange={(id) => setChoice((c) => ({ ...c, [ad.id]: id }))}
                  needCents={price}
                />
                {errors[ad.id] && (
                  <div role="alert" className="alert alert-error">
                    {payErrorMessage(t, errors[ad.id])}
                  </div>
                )}
                <div className={styles.row}>
                  <button
                    type="button"
                    className="btn btn-success"
                    // Focusable while it pays (aria-disabled, pay ignores it), so a refusal leaves focus here.
                    disabled={!ws.length || !quoteFor(ad)}
                    aria-disabled={busy === ad.id || undefined}
                    onClick={() => pay(ad)}
                    aria-busy={busy === ad.id || undefined}
                  >
                    {t('cart.pay')}
                  </button>
                  {/* Focusable while its ad pays or is deleted: a dialog closed meanwhile gives focus back to it. */}
                  <BusyButton className="btn btn-white" busy={busy === ad.id} onClick={() => setDeleting(ad)}>
                    {t('cart.delete')}
                  </BusyButton>
                </div>
              </div>
            </li>
          );
        })}
      </ul>
      <Pager
        label={t('cart.pages')}
        page={query.page}
        pageSize={CART_PAGE_SIZE}
        total={query.total}
        disabled={cart.loading}
        onPage={(page) => {
          setPaidNote(null);
          void loadCartPage(page);
        }}
      />
      {deleting && (
        <ConfirmDialog
          title={t('cart.deleteTitle')}
          confirmLabel={t('cart.deleteConfirm')}
          onConfirm={confirmDelete}
          onCancel={() => setDeleting(null)}
          busy={busy === deleting.id}
          danger
        >
          <p>{t('cart.deleteText', { title: deleting.title })}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
