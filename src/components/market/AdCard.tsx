import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import type { Snapshot } from 'valtio';
import type { Ad } from '../../api/ads';
import { pathFor, routes } from '../../app/routes';
import { ageLabel, typeLabel } from './labels';
import styles from './market.module.css';

/** One ad in a list: first photo, title, place, age, type; the whole card links to the ad. */
export function AdCard({ ad }: { ad: Snapshot<Ad> | Ad }) {
  const { t } = useTranslation('market');
  const photo = ad.photos[0];
  return (
    <li className={styles.card}>
      <Link href={pathFor(routes.ad, { id: ad.id })}>
        {photo ? (
          <img className={styles.thumb} src={photo.thumbUrl} alt="" loading="lazy" width={photo.width} height={photo.height} />
        ) : (
          <div className={styles.thumb} aria-hidden="true" />
        )}
        <div className={styles.cardBody}>
          <h3>{ad.title}</h3>
          <span className={styles.meta}>
            {ad.city.name}, {ad.state.name} · {t('ageShort', { age: ageLabel(t, ad.age) })}
          </span>
          <span className={styles.meta}>{typeLabel(t, ad.listingType)}</span>
        </div>
      </Link>
    </li>
  );
}

export function AdGrid({ ads }: { ads: ReadonlyArray<Snapshot<Ad> | Ad> }) {
  return (
    <ul className={styles.grid}>
      {ads.map((a) => (
        <AdCard key={a.id} ad={a} />
      ))}
    </ul>
  );
}
