import { useTranslation } from 'react-i18next';
import type { Photo } from '../../api/ads';
import styles from './market.module.css';

interface Props {
  photos: readonly Photo[];
  /** The URLs of the photos to keep. */
  keep: readonly string[];
  onChange: (keep: string[]) => void;
}

/** The ad's current photos, each with a "keep" tick: an unticked one is removed when the form is saved. */
export function PhotoKeeper({ photos, keep, onChange }: Props) {
  const { t } = useTranslation('market');
  if (!photos.length) return null;
  return (
    <fieldset className={`field ${styles.fieldset}`}>
      <legend>{t('form.currentPhotos')}</legend>
      <small>{t('form.currentPhotosHint')}</small>
      <ul className={styles.previews}>
        {photos.map((p, i) => {
          const kept = keep.includes(p.url);
          return (
            <li key={p.url} data-removed={!kept || undefined}>
              <img src={p.thumbUrl} alt={t('form.currentPhoto', { n: i + 1 })} style={kept ? undefined : { opacity: 0.35 }} />
              <label className={styles.row}>
                <input
                  type="checkbox"
                  checked={kept}
                  // Kept in the ad's order, whatever order the ticks came in.
                  onChange={(e) => onChange(photos.map((x) => x.url).filter((u) => (u === p.url ? e.target.checked : keep.includes(u))))}
                />
                {t('form.keepPhoto', { n: i + 1 })}
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
