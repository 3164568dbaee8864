import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Photo } from '../../api/ads';
import { charCount, cleanLine, cleanText } from '../../../contract/rules';
import { TextField } from '../forms/TextField';
import { TextAreaField } from '../forms/TextAreaField';
import { StateCityPicker } from './StateCityPicker';
import { PhotoPicker } from './PhotoPicker';
import { PhotoKeeper } from './PhotoKeeper';
import { RatesField } from './RatesField';
import { AvailabilityField } from './AvailabilityField';
import { AGES, LISTING_TYPE_CODES, ageLabel, typeLabel } from './labels';
import { PHOTOS_MAX, RULES, type AdFormValues } from './adForm';
import styles from './market.module.css';

interface Props {
  v: AdFormValues;
  onChange: (patch: Partial<AdFormValues>) => void;
  /** The translated error of a field, once the form was submitted; null otherwise. */
  err: (k: keyof AdFormValues) => string | null;
  /** True once the form was submitted: lines that break a rule are marked. */
  tried: boolean;
  /** Under the listing type: its price (the post form), or why it cannot change (a paid ad's edit). */
  typeHint?: ReactNode;
  /** The listing type cannot change: the ad was paid for as that type. */
  typeLocked?: boolean;
  /** The edit form: the ad's current photos and which of them to keep. */
  current?: { photos: readonly Photo[]; keep: string[]; onKeep: (keep: string[]) => void };
}

/** The fields of an ad, shared by the post and edit forms; every rule is shown beside its field. */
export function AdFields({ v, onChange, err, tried, typeHint, typeLocked, current }: Props) {
  const { t } = useTranslation('market');
  const kept = current?.keep.length ?? 0;
  return (
    <>
      <div className="field">
        <label htmlFor="ad-type">{t('form.listingType')}</label>
        <select
          id="ad-type"
          value={v.listingType}
          onChange={(e) => onChange({ listingType: e.target.value })}
          aria-invalid={err('listingType') ? true : undefined}
          disabled={typeLocked}
          aria-describedby={[err('listingType') ? 'ad-type-error' : null, typeLocked ? 'ad-type-hint' : null].filter(Boolean).join(' ') || undefined}
        >
          <option value="">{t('form.chooseType')}</option>
          {LISTING_TYPE_CODES.map((c) => (
            <option key={c} value={c}>
              {typeLabel(t, c)}
            </option>
          ))}
        </select>
        {err('listingType') && (
          <span id="ad-type-error" className="field-error">
            {err('listingType')}
          </span>
        )}
        {typeHint && <div id="ad-type-hint">{typeHint}</div>}
      </div>
      <TextField
        label={t('form.title')}
        value={v.title}
        onChange={(x) => onChange({ title: x })}
        // Typed in its writer's direction (Hebrew, Arabic…) whatever the page's, as the ad will show it.
        dir="auto"
        // The browser caps UTF-16 units, where an emoji takes two: room for a whole title of them, plus spaces to collapse.
        maxLength={2 * (RULES.title.values.max + 20)}
        hint={`${t(RULES.title.key, RULES.title.values)} ${t('form.chars', { count: charCount(cleanLine(v.title)) })}`}
        error={err('title')}
      />
      <TextAreaField
        id="ad-description"
        label={t('form.description')}
        rows={8}
        dir="auto"
        value={v.description}
        onChange={(x) => onChange({ description: x })}
        hint={`${t(RULES.description.key, RULES.description.values)} ${t('form.chars', { count: charCount(cleanText(v.description)) })}`}
        error={err('description')}
      />
      <div className="field">
        <label htmlFor="ad-age">{t('form.age')}</label>
        <select
          id="ad-age"
          value={v.age}
          onChange={(e) => onChange({ age: e.target.value })}
          aria-invalid={err('age') ? true : undefined}
          aria-describedby={err('age') ? 'ad-age-error ad-age-hint' : 'ad-age-hint'}
        >
          <option value="">{t('form.chooseAge')}</option>
          {AGES.map((a) => (
            <option key={a} value={a}>
              {ageLabel(t, a)}
            </option>
          ))}
        </select>
        <small id="ad-age-hint">{t('rules.ageHint')}</small>
        {err('age') && (
          <span id="ad-age-error" className="field-error">
            {err('age')}
          </span>
        )}
      </div>
      <StateCityPicker stateId={v.stateId} cityId={v.cityId} onChange={(p) => onChange(p)} stateError={err('stateId')} cityError={err('cityId')} />
      <TextField
        label={t('form.phone')}
        type="tel"
        autoComplete="tel"
        value={v.phone}
        onChange={(x) => onChange({ phone: x })}
        hint={t('rules.phoneHint')}
        error={err('phone')}
      />
      <fieldset className={`field ${styles.fieldset}`}>
        <legend>{t('form.meet')}</legend>
        <label className={styles.row}>
          <input type="checkbox" checked={v.incall} onChange={(e) => onChange({ incall: e.target.checked })} />
          {t('form.incall')}
        </label>
        <label className={styles.row}>
          <input type="checkbox" checked={v.outcall} onChange={(e) => onChange({ outcall: e.target.checked })} />
          {t('form.outcall')}
        </label>
      </fieldset>
      <RatesField rows={v.rates} onChange={(rates) => onChange({ rates })} error={err('rates')} showLineErrors={tried} />
      <AvailabilityField rows={v.availability} onChange={(availability) => onChange({ availability })} error={err('availability')} showLineErrors={tried} />
      {current && <PhotoKeeper photos={current.photos} keep={current.keep} onChange={current.onKeep} />}
      <PhotoPicker
        files={v.photos}
        onChange={(photos) => onChange({ photos })}
        error={err('photos')}
        max={PHOTOS_MAX - kept}
        label={current ? t('form.addPhotos') : undefined}
      />
    </>
  );
}
