import { useEffect, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { postAd } from '../../state/ads';
import { sessionStore } from '../../state/session';
import { discardAdDraft, readAdDraft, saveAdDraft } from '../../state/adDraft';
import { adPriceFor, pricingStore } from '../../state/pricing';
import { routes } from '../../app/routes';
import type { ListingType } from '../../api/ads';
import { SubmitButton } from '../../components/forms/SubmitButton';
import { FormError } from '../../components/forms/FormError';
import { useFormAction } from '../../components/forms/useFormAction';
import { Money } from '../../components/market/Money';
import { AdFields } from '../../components/market/AdFields';
import { EMPTY_AD_FORM, adFieldsOf, validateAdForm, type AdFormValues, type FieldError } from '../../components/market/adForm';

/**
 * Post an ad (with its optional rates, incall / outcall and hours): every rule is shown beside its
 * field; a valid ad goes to the cart, unpaid. What is typed is kept in the tab until it is posted
 * (state/adDraft): a reload or a session that ends on the way does not lose it.
 */
export default function CreateAds() {
  const { t } = useTranslation('market');
  const [, navigate] = useLocation();
  const me = useSnapshot(sessionStore).session.id ?? '';
  // The user the form is written for: while another session shows (it ended: a visitor's), the
  // draft stays theirs, untouched, for when they sign in again.
  const [writer] = useState(me);
  const [restored] = useState(() => readAdDraft(writer, EMPTY_AD_FORM)?.values ?? null);
  const [v, setV] = useState<AdFormValues>(() => (restored ? { ...restored, photos: [] } : EMPTY_AD_FORM));
  const [tried, setTried] = useState(false);
  const form = useFormAction('market');
  const pricing = useSnapshot(pricingStore.state);

  useEffect(() => {
    if (!pricingStore.state.data) void pricingStore.load();
  }, []);
  useEffect(() => {
    if (me === writer) saveAdDraft(writer, v, EMPTY_AD_FORM);
  }, [me, writer, v]);

  const errors = validateAdForm(v);
  const err = (k: keyof AdFormValues) => {
    const e: FieldError | undefined = errors[k];
    return tried && e ? t(e.key, e.values) : null;
  };
  const price = adPriceFor(pricing.data, v.listingType as ListingType);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (Object.keys(errors).length) {
      form.setError((tr) => tr('form.fixErrors')); // worded at render: a language switch re-words it
      return;
    }
    const ad = await form.run(() => postAd(adFieldsOf(v), v.photos));
    if (!ad) return;
    discardAdDraft({}); // this form's only: a draft of an edit stays
    navigate(routes.myCart);
  }

  return (
    <section>
      <h1>{t('create.title')}</h1>
      <p>{t('create.intro')}</p>
      {restored && (
        <p role="status" className="alert alert-info">
          {t('create.draftRestored')}
        </p>
      )}
      <form onSubmit={submit} noValidate className="card">
        <AdFields
          v={v}
          onChange={(patch) => setV((old) => ({ ...old, ...patch }))}
          err={err}
          tried={tried}
          typeHint={
            <p id="create-rules" aria-live="polite" style={{ margin: '4px 0 0' }}>
              {price ? (
                <>
                  {t('create.price')}{' '}
                  <strong>
                    <Money cents={price.priceCents} />
                  </strong>
                  {price.durationDays ? ` ${t('create.duration', { count: price.durationDays })}` : ''}
                </>
              ) : v.listingType && pricing.loading ? (
                t('loading')
              ) : v.listingType ? (
                t('create.noPrice')
              ) : (
                t('create.pickTypeForPrice')
              )}
            </p>
          }
        />
        <FormError message={form.error} />
        <SubmitButton busy={form.busy} busyLabel={t('create.posting')}>
          {t('create.submit')}
        </SubmitButton>
      </form>
    </section>
  );
}
