import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import type { AdCard as Card } from '../../../contract/api/ads.ts';
import { pathFor, routes } from '../../app/routes';
import { ageLabel, typeLabel } from './labels';
import { PhoneVerifiedBadge } from '../public/Badges';
import { CARD_SIZES, srcSetOf } from './photos';
import styles from './market.module.css';

/**
 * One ad in a list: first photo, title, place, age, type; the whole card links to the ad. The photo
 * has its size (no layout shift) and both stored sizes; the first cards of a page (`eager`) are
 * loaded at once, as the largest paint of the page is one of them, the very first (`first`) ahead
 * of anything else (the server also preloads it from the head).
 */
export function AdCard({ ad, eager = false, first = false }: { ad: Card; eager?: boolean; first?: boolean }) {
  const { t } = useTranslation('market');
  const photo = ad.photo;
  return (
    <li className={styles.card}>
      <Link href={pathFor(routes.ad, { id: ad.id })}>
        {photo ? (
          <img
            className={styles.thumb}
            src={photo.thumbUrl}
            srcSet={srcSetOf(photo)}
            sizes={CARD_SIZES}
            alt=""
            loading={eager ? 'eager' : 'lazy'}
            fetchPriority={first ? 'high' : undefined}
            decoding="async"
            width={photo.thumbWidth}
            height={photo.thumbHeight}
          />
        ) : (
          <div className={styles.thumb} aria-hidden="true" />
        )}
        <div className={styles.cardBody}>
          <h3>{ad.title}</h3>
          <span className={styles.meta}>
            {ad.city.name}, {ad.state.name} · {t('ageShort', { age: ageLabel(t, ad.age) })}
          </span>
          <span className={styles.meta}>{typeLabel(t, ad.listingType)}</span>
          {ad.phoneVerified && (
            <span>
              <PhoneVerifiedBadge />
            </span>
          )}
        </div>
      </Link>
    </li>
  );
}

/** Cards in a grid; the first `eager` photos load at once (above the fold). */
export function AdGrid({ ads, eager = 0 }: { ads: readonly Card[]; eager?: number }) {
  return (
    <ul className={styles.grid}>
      {ads.map((a, i) => (
        <AdCard key={a.id} ad={a} eager={i < eager} first={i === 0 && eager > 0} />
      ))}
    </ul>
  );
}
