import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdContent, Photo } from '../../api/ads';
import { detailsSummary, hoursSummary } from './AdExtras';
import { ageLabel, typeLabel } from './labels';
import styles from './market.module.css';

type Row = { key: string; label: string; before: ReactNode; after: ReactNode; changed: boolean };

/** Rows holding the ad's own text, shown in its writer's direction (Hebrew, Arabic…) whatever the page's. */
const OWN_TEXT = new Set(['title', 'description']);

function Thumbs({ photos, label }: { photos: readonly Photo[]; label: string }) {
  const { t } = useTranslation('admin');
  return (
    <ul className={styles.thumbs} aria-label={label}>
      {photos.map((p, i) => (
        <li key={p.url}>
          <a href={p.url} target="_blank" rel="noreferrer" aria-label={t('openPhoto', { n: i + 1 })}>
            <img src={p.thumbUrl} alt="" />
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * An edit of a live ad beside the live ad, field by field: the live content, the proposed one,
 * and the rows that differ marked (in words as well as colour).
 */
export function RevisionDiff({ before, after }: { before: AdContent; after: AdContent }) {
  const { t, i18n } = useTranslation(['admin', 'market']);
  const text = (c: AdContent) => ({
    listingType: typeLabel(t, c.listingType),
    title: c.title,
    description: c.description,
    age: ageLabel(t, c.age),
    place: `${c.city.name}, ${c.state.name}`,
    phone: c.phone,
    rates: detailsSummary(t, c.details, i18n.language) || t('revision.none'),
    hours: hoursSummary(t, c.details) || t('revision.none'),
  });
  const a = text(before);
  const b = text(after);
  const photos = (c: AdContent) => c.photos.map((p) => p.url).join('\n');
  const rows: Row[] = (Object.keys(a) as (keyof typeof a)[]).map((k) => ({
    key: k,
    label: t(`revision.field.${k}`),
    before: a[k],
    after: b[k],
    changed: a[k] !== b[k],
  }));
  rows.push({
    key: 'photos',
    label: t('revision.field.photos'),
    before: <Thumbs photos={before.photos} label={t('revision.livePhotos')} />,
    after: <Thumbs photos={after.photos} label={t('revision.proposedPhotos')} />,
    changed: photos(before) !== photos(after),
  });
  const changed = rows.filter((r) => r.changed).length;

  return (
    <div className={styles.diffWrap}>
      <table className={styles.diff}>
        <caption>{t('revision.caption', { count: changed })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('revision.field.label')}</th>
            <th scope="col">{t('revision.live')}</th>
            <th scope="col">{t('revision.proposed')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} data-changed={r.changed || undefined} className={r.changed ? styles.diffChanged : undefined}>
              <th scope="row">
                {r.label}
                {r.changed && (
                  <>
                    {' '}
                    <span className={`${styles.badge} ${styles.badgeWarn}`}>{t('revision.changed')}</span>
                  </>
                )}
              </th>
              <td dir={OWN_TEXT.has(r.key) ? 'auto' : undefined}>{r.before}</td>
              <td dir={OWN_TEXT.has(r.key) ? 'auto' : undefined}>{r.after}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
