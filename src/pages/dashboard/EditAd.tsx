import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { editAd, loadMyAds, myAdsFlash, myAdsQuery, myAdsStore } from '../../state/ads';
import { sessionStore } from '../../state/session';
import { discardAdDraft, readAdDraft, saveAdDraft } from '../../state/adDraft';
import { adPriceFor, pricingStore } from '../../state/pricing';
import { routes } from '../../app/routes';
import type { AdContent, ListingType, OwnerAd } from '../../api/ads';
import { SubmitButton } from '../../components/forms/SubmitButton';
import { FormError } from '../../components/forms/FormError';
import { useFormAction } from '../../components/forms/useFormAction';
import { Money } from '../../components/market/Money';
import { AdFields } from '../../components/market/AdFields';
import { LoadState } from '../../components/market/Status';
import { adFieldsOf, formValuesOf, validateAdForm, type AdFormValues, type FieldError } from '../../components/market/adForm';

/**
 * Edit an own ad (/admin/dashboard/edit-ad/:id), the post form filled with its content: an unpaid
 * or in-review ad changes at once; a rejected one goes back to the cart, to be paid again; a live
 * (approved or expired) one keeps showing as it is while staff review the changes. The screen says
 * which before the save. An edit waiting for review is what the form shows (saving replaces it).
 * What is typed is kept in the tab until it is saved or cancelled (state/adDraft), as on the post
 * form; a draft taken on an ad that has changed since is given back with a plain warning.
 */
export default function EditAd() {
  const { t } = useTranslation('market');
  const { id = '' } = useParams<{ id: string }>();
  const snap = useSnapshot(myAdsStore.state);

  useEffect(() => {
    // My ads are read a page at a time: this ad is asked for on its own too, wherever it is, and
    // stays asked for while the screen is open, so a reading again (a socket event: the ad
    // approved, a newer ad pushing it to page 2) still holds it and the form is not lost.
    if (myAdsQuery.linked !== id || !myAdsStore.state.data) void loadMyAds({ linked: id });
  }, [id]);

  const ad = snap.data ? ([...snap.data.approvedAds, ...snap.data.pendingAds] as OwnerAd[]).find((a) => a.id === id) : undefined;
  // Read with another page than this ad's (the store held one before): the ad itself is on its way.
  const asked = myAdsQuery.linked === id;
  if (!ad)
    return (
      <section>
        <h1>{t('edit.title')}</h1>
        <LoadState loading={(!snap.data || snap.loading || !asked) && !snap.error} error={snap.error} />
        {snap.data && !snap.loading && asked && <p role="alert">{t('edit.notFound')}</p>}
        <p>
          <Link href={routes.myAds}>{t('edit.back')}</Link>
        </p>
      </section>
    );
  if (ad.status === 'disabled')
    return (
      <section>
        <h1 style={{ overflowWrap: 'anywhere' }}>{t('edit.titleOf', { title: ad.title })}</h1>
        <p role="alert" className="alert alert-error">
          {t('edit.disabled')}
        </p>
        <p>
          <Link href={routes.myAds}>{t('edit.back')}</Link>
        </p>
      </section>
    );
  return <EditForm key={ad.id} ad={ad} />;
}

/**
 * What an edit starts from besides its values: the photos shown, what saving does (the ad's status),
 * and the edit waiting for review or refused. A draft taken on another basis was typed over an ad
 * that has changed since (edited in another tab, paid, decided by staff).
 */
function basisOf(ad: OwnerAd, source: Pick<AdContent, 'photos'>, values: AdFormValues): string {
  const { photos: _files, ...typed } = values;
  const live = ad.status === 'approved' || ad.status === 'expired'; // an ad expiring changes nothing of its edit
  const revision = ad.revision ? [ad.revision.id, ad.revision.status, ad.revision.createdAt] : null;
  return JSON.stringify({ status: live ? 'live' : ad.status, revision, photos: source.photos.map((p) => p.url), typed });
}

function EditForm({ ad }: { ad: OwnerAd }) {
  const { t, i18n } = useTranslation('market');
  const [, navigate] = useLocation();
  const me = useSnapshot(sessionStore).session.id ?? '';
  const pending = ad.revision?.status === 'pending' ? ad.revision.content : null;
  const source = pending ?? ad;
  const live = ad.status === 'approved' || ad.status === 'expired';
  const willPay = ad.status === 'unpaid' || ad.status === 'rejected';
  // The ad as the form opened on it: the draft is kept against these values (the same ones: no draft).
  const [start] = useState(() => {
    const base = formValuesOf(source, i18n.language);
    return { base, basis: basisOf(ad, source, base) };
  });
  const [restored, setRestored] = useState(() => readAdDraft(me, start.base, { adId: ad.id }));
  // A stale draft keeps its first basis, so that it is still called stale after another reload.
  const basis = restored?.basis ?? start.basis;
  const stale = !!restored && restored.basis !== start.basis;
  const [v, setV] = useState<AdFormValues>(() =>
    restored
      ? // A type paid for meanwhile is the ad's, whatever the draft says (the field is locked).
        { ...restored.values, listingType: willPay ? restored.values.listingType : start.base.listingType, photos: [] }
      : start.base,
  );
  const [keep, setKeep] = useState<string[]>(() => source.photos.map((p) => p.url));
  const [tried, setTried] = useState(false);
  const form = useFormAction('market');
  const pricing = useSnapshot(pricingStore.state);

  useEffect(() => {
    if (willPay && !pricingStore.state.data) void pricingStore.load();
  }, [willPay]);
  useEffect(() => saveAdDraft(me, v, start.base, { adId: ad.id, basis }), [me, v, start.base, ad.id, basis]);

  /** Drops the draft given back: the form shows the ad as it is now. */
  function startAgain() {
    discardAdDraft({ adId: ad.id });
    setRestored(null);
    setV(start.base);
    setKeep(source.photos.map((p) => p.url));
  }

  const errors = validateAdForm(v, keep.length);
  const err = (k: keyof AdFormValues) => {
    const e: FieldError | undefined = errors[k];
    return tried && e ? t(e.key, e.values) : null;
  };
  const price = willPay ? adPriceFor(pricing.data, v.listingType as ListingType) : null;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (Object.keys(errors).length) {
      form.setError((t) => t('form.fixErrors'));
      return;
    }
    const saved = await form.run(() => editAd(ad.id, adFieldsOf(v), keep, v.photos));
    if (!saved) return;
    discardAdDraft({ adId: ad.id });
    const title = saved.revision?.status === 'pending' ? saved.revision.content.title : saved.title;
    const key = live
      ? 'edit.savedRevision'
      : saved.status === 'unpaid' && ad.status === 'rejected'
        ? 'edit.savedToCart'
        : saved.status === 'in_review'
          ? 'edit.savedInReview'
          : 'edit.saved';
    myAdsFlash.note = { key, title };
    navigate(routes.myAds);
  }

  return (
    <section>
      <h1 style={{ overflowWrap: 'anywhere' }}>{t('edit.titleOf', { title: ad.title })}</h1>
      <div className="alert alert-info" id="edit-outcome">
        <p style={{ margin: 0 }}>
          {live
            ? t('edit.whenLive')
            : ad.status === 'rejected'
              ? t('edit.whenRejected', { reason: ad.rejectionReason || t('myAds.noReason') })
              : ad.status === 'in_review'
                ? t('edit.whenInReview')
                : t('edit.whenUnpaid')}
        </p>
        {pending && <p style={{ margin: '6px 0 0' }}>{t('edit.replacesPending')}</p>}
        {ad.revision?.status === 'rejected' && (
          <p style={{ margin: '6px 0 0' }}>{t('myAds.revisionRejected', { reason: ad.revision.rejectionReason || t('myAds.noReason') })}</p>
        )}
      </div>
      {restored && (
        <div role="status" className="alert alert-info">
          <p style={{ margin: 0 }}>{stale ? <strong>{t('edit.draftStale')}</strong> : t('edit.draftRestored')}</p>
          <p style={{ margin: '6px 0 0' }}>{t('edit.draftPhotos')}</p>
          <button type="button" className="btn btn-sm btn-white" style={{ marginTop: 8 }} onClick={startAgain}>
            {t('edit.draftDiscard')}
          </button>
        </div>
      )}
      <form onSubmit={submit} noValidate className="card" aria-describedby="edit-outcome">
        <AdFields
          v={v}
          onChange={(patch) => setV((old) => ({ ...old, ...patch }))}
          err={err}
          tried={tried}
          current={{ photos: source.photos, keep, onKeep: setKeep }}
          typeLocked={!willPay}
          typeHint={
            !willPay ? (
              <p style={{ margin: '4px 0 0' }}>{t('edit.typeLocked')}</p>
            ) : price ? (
              <p aria-live="polite" style={{ margin: '4px 0 0' }}>
                {t('create.price')}{' '}
                <strong>
                  <Money cents={price.priceCents} />
                </strong>
                {price.durationDays ? ` ${t('create.duration', { count: price.durationDays })}` : ''}
              </p>
            ) : undefined
          }
        />
        <FormError message={form.error} />
        <div className="actions" style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
          <SubmitButton busy={form.busy} busyLabel={t('edit.saving')}>
            {live ? t('edit.submitForReview') : t('edit.submit')}
          </SubmitButton>
          <Link href={routes.myAds} className="btn btn-white" onClick={() => discardAdDraft({ adId: ad.id })}>
            {t('cancel')}
          </Link>
        </div>
      </form>
    </section>
  );
}
