import type { MouseEvent } from 'react';
import { useLocation, useRouter } from 'wouter';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { AdCard as Card } from '../../../contract/api/ads.ts';
import { pathFor, routes } from '../../app/routes';
import { ageLabel, typeLabel } from './labels';
import { PhoneVerifiedBadge } from '../public/Badges';
import { CARD_SIZES, srcSetOf } from './photos';
import styles from './market.module.css';

interface CardProps {
  ad: Card;
  /** Loaded at once: the first cards of a page, where its largest paint is. */
  eager: boolean;
  /** Asked for ahead of anything else (the server also preloads it from the head). */
  first: boolean;
  href: string;
  t: TFunction;
  type: string;
}

/**
 * One ad in a list: first photo, title, place, age, type; the whole card links to the ad. The photo
 * has its size (no layout shift) and both stored sizes. A plain function of its grid's texts: a
 * list page renders twenty of them on the server for every uncached page, so a card has no hooks
 * of its own (the grid translates once and follows the links).
 */
function adCard({ ad, eager, first, href, t, type }: CardProps) {
  const photo = ad.photo;
  return (
    <li key={ad.id} className={styles.card}>
      <a href={href}>
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
          <h3 dir="auto">{ad.title}</h3>
          <span className={styles.meta}>
            {ad.city.name}, {ad.state.name} · {t('ageShort', { age: ageLabel(t, ad.age) })}
          </span>
          <span className={styles.meta}>{type}</span>
          {ad.phoneVerified && (
            <span>
              <PhoneVerifiedBadge />
            </span>
          )}
        </div>
      </a>
    </li>
  );
}

/**
 * Cards whose photos a public list loads at once: what a phone shows above the fold (one column:
 * the first card and the top of the second), where the page's largest paint is. The others load as
 * they come near the viewport (on a wide screen, the rest of the first row just after layout):
 * fetched with the page, they took a slow line's bandwidth from the largest image.
 */
export const EAGER_CARDS = 2;

/** Cards in a grid; the first `eager` photos load at once (above the fold). Links open in the app (client-side). */
export function AdGrid({ ads, eager = 0 }: { ads: readonly Card[]; eager?: number }) {
  const { t } = useTranslation('market');
  const { base } = useRouter();
  const [, navigate] = useLocation();
  const types = new Map<string, string>();
  const typeOf = (code: string) => types.get(code) ?? (types.set(code, typeLabel(t, code)), types.get(code)!);
  // One listener for every card, as wouter's <Link> would do for each: a plain left click stays in the app.
  const follow = (e: MouseEvent<HTMLUListElement>) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const href = (e.target as Element).closest('a')?.getAttribute('href');
    if (!href?.startsWith(`${base}/`)) return;
    e.preventDefault();
    navigate(href.slice(base.length)); // the path inside the app, without the language prefix
  };
  return (
    <ul className={styles.grid} onClick={follow}>
      {ads.map((ad, i) =>
        adCard({ ad, eager: i < eager, first: i === 0 && eager > 0, href: base + pathFor(routes.ad, { id: ad.id }), t, type: typeOf(ad.listingType) }),
      )}
    </ul>
  );
}
