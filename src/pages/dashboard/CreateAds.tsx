import { useEffect, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { postAd } from '../../state/ads';
import { adPriceFor, pricingStore } from '../../state/pricing';
import { normalizeUsPhone } from '../../../contract/rules';
import { routes } from '../../app/routes';
import type { ListingType } from '../../api/ads';
import { TextField } from '../../components/forms/TextField';
import { TextAreaField } from '../../components/forms/TextAreaField';
import { SubmitButton } from '../../components/forms/SubmitButton';
import { FormError } from '../../components/forms/FormError';
import { useFormAction } from '../../components/forms/useFormAction';
import { StateCityPicker } from '../../components/market/StateCityPicker';
import { PhotoPicker } from '../../components/market/PhotoPicker';
import { Money } from '../../components/market/Money';
import { AGES, LISTING_TYPE_CODES, ageLabel, typeLabel } from '../../components/market/labels';
import { RULES, validateAdForm, type AdFormValues, type FieldError } from '../../components/market/adForm';

const EMPTY: AdFormValues = { listingType: '', title: '', description: '', age: '', stateId: '', cityId: '', phone: '', photos: [] };

/** Post an ad: every rule is shown beside its field; a valid ad goes to the cart, unpaid. */
export default function CreateAds() {
  const { t } = useTranslation('market');
  const [, navigate] = useLocation();
  const [v, setV] = useState<AdFormValues>(EMPTY);
  const [tried, setTried] = useState(false);
  const form = useFormAction();
  const pricing = useSnapshot(pricingStore.state);

  useEffect(() => {
    if (!pricingStore.state.data) void pricingStore.load();
  }, []);

  const errors = validateAdForm(v);
  const err = (k: keyof AdFormValues) => {
    const e: FieldError | undefined = errors[k];
    return tried && e ? t(e.key, e.values) : null;
  };
  const set = <K extends keyof AdFormValues>(k: K, value: AdFormValues[K]) => setV((old) => ({ ...old, [k]: value }));
  const price = adPriceFor(pricing.data, v.listingType as ListingType);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (Object.keys(errors).length) {
      form.setError(t('form.fixErrors'));
      return;
    }
    const ad = await form.run(() =>
      postAd(
        {
          listingType: v.listingType,
          title: v.title.trim(),
          description: v.description.trim(),
          age: v.age,
          stateId: v.stateId,
          cityId: v.cityId,
          phone: normalizeUsPhone(v.phone) ?? v.phone,
        },
        v.photos,
      ),
    );
    if (ad) navigate(routes.myCart);
  }

  return (
    <section>
      <h1>{t('create.title')}</h1>
      <p>{t('create.intro')}</p>
      <form onSubmit={submit} noValidate className="card">
        <div className="field">
          <label htmlFor="ad-type">{t('form.listingType')}</label>
          <select id="ad-type" value={v.listingType} onChange={(e) => set('listingType', e.target.value)} aria-invalid={err('listingType') ? true : undefined}>
            <option value="">{t('form.chooseType')}</option>
            {LISTING_TYPE_CODES.map((c) => (
              <option key={c} value={c}>
                {typeLabel(t, c)}
              </option>
            ))}
          </select>
          {err('listingType') && <span className="field-error">{err('listingType')}</span>}
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
        </div>
        <TextField
          label={t('form.title')}
          value={v.title}
          onChange={(x) => set('title', x)}
          maxLength={RULES.title.values.max + 20}
          hint={`${t(RULES.title.key, RULES.title.values)} ${t('form.chars', { count: v.title.trim().length })}`}
          error={err('title')}
        />
        <TextAreaField
          id="ad-description"
          label={t('form.description')}
          rows={8}
          value={v.description}
          onChange={(x) => set('description', x)}
          hint={`${t(RULES.description.key, RULES.description.values)} ${t('form.chars', { count: v.description.trim().length })}`}
          error={err('description')}
        />
        <div className="field">
          <label htmlFor="ad-age">{t('form.age')}</label>
          <select id="ad-age" value={v.age} onChange={(e) => set('age', e.target.value)} aria-invalid={err('age') ? true : undefined}>
            <option value="">{t('form.chooseAge')}</option>
            {AGES.map((a) => (
              <option key={a} value={a}>
                {ageLabel(t, a)}
              </option>
            ))}
          </select>
          <small>{t('rules.ageHint')}</small>
          {err('age') && <span className="field-error">{err('age')}</span>}
        </div>
        <StateCityPicker
          stateId={v.stateId}
          cityId={v.cityId}
          onChange={(p) => setV((old) => ({ ...old, ...p }))}
          stateError={err('stateId')}
          cityError={err('cityId')}
        />
        <TextField
          label={t('form.phone')}
          type="tel"
          autoComplete="tel"
          value={v.phone}
          onChange={(x) => set('phone', x)}
          hint={t('rules.phoneHint')}
          error={err('phone')}
        />
        <PhotoPicker files={v.photos} onChange={(files) => set('photos', files)} error={err('photos')} />
        <FormError message={form.error} />
        <SubmitButton busy={form.busy} busyLabel={t('create.posting')}>
          {t('create.submit')}
        </SubmitButton>
      </form>
    </section>
  );
}
