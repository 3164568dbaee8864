import { useEffect, useState } from 'react';
import { Link, useParams } from 'wouter';
import { useTranslation } from 'react-i18next';
import { subscribe } from 'valtio';
import { LOADERS } from '../../app/loaders';
import { useRouteData } from '../../app/routeData';
import { pathFor, routes } from '../../app/routes';
import { publicSource } from '../../api/publicSource';
import { listingsApi } from '../../api/listings';
import type { Ad } from '../../api/ads';
import { sessionStore } from '../../state/session';
import { Gallery } from '../../components/market/Gallery';
import { ReportDialog } from '../../components/market/ReportDialog';
import { LoadState, StatusBadge } from '../../components/market/Status';
import { ageLabel, dateLabel, typeLabel, typeSlug } from '../../components/market/labels';
import { PhoneVerifiedBadge } from '../../components/public/Badges';
import { AdDetailsView, ContactButtons } from '../../components/market/AdExtras';
import styles from '../../components/market/market.module.css';

/** Shows +12125550123 as (212) 555-0123; the tel: link keeps the E.164 form. */
function displayPhone(e164: string): string {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : e164;
}

/**
 * The page (server-rendered) says a hidden ad does not exist; its owner and staff may still see it
 * (preview, review): once the session says someone is signed in, the ad is asked for with it.
 */
function usePreview(id: string, hidden: boolean): Ad | null {
  const [preview, setPreview] = useState<Ad | null>(null);
  useEffect(() => {
    if (!hidden) return;
    let live = true;
    const ask = () => {
      if (!sessionStore.session.isAuthenticated) return;
      listingsApi.ad(id).then(
        (r) => live && setPreview(r.ad),
        () => undefined,
      );
    };
    let unsubscribe: (() => void) | undefined;
    if (sessionStore.loaded) ask();
    else
      unsubscribe = subscribe(sessionStore, () => {
        if (!sessionStore.loaded) return;
        unsubscribe?.();
        ask();
      });
    return () => {
      live = false;
      unsubscribe?.();
    };
  }, [id, hidden]);
  return preview?.id === id ? preview : null;
}

/** /ad/:id: photos, details, phone and a way to report the ad. */
export default function AdDetail() {
  const { t, i18n } = useTranslation('market');
  const params = useParams<{ id: string }>();
  const id = params.id ?? '';
  const loader = LOADERS.ad;
  const { result, loading, error } = useRouteData(loader.key(params, ''), () => loader.load(params, '', publicSource));
  const [reporting, setReporting] = useState(false);
  const preview = usePreview(id, !!result && result.status !== 200);

  const ad = result?.status === 200 ? result.data : preview;
  // No answer about the ad (busy, offline) is not "not available": say why, so a retry makes sense.
  if (!ad)
    return (
      <div className={styles.panel}>
        <LoadState loading={loading && !result} error={result ? t('ad.notAvailable') : error} />
      </div>
    );

  return (
    <article className={styles.panel}>
      <p>
        <Link href={pathFor(routes.listingsCity, { state: ad.state.slug, city: ad.city.slug, type: typeSlug(ad.listingType) })}>
          {t('ad.backToCity', { type: typeLabel(t, ad.listingType), city: ad.city.name })}
        </Link>
      </p>
      {/* The ad's own text, in its writer's direction (Hebrew, Arabic…) whatever the page's. */}
      <h1 dir="auto" className={styles.adText}>
        {ad.title}
      </h1>
      {ad.status !== 'approved' && (
        <p>
          <StatusBadge status={ad.status} />
        </p>
      )}
      <div className={styles.adColumns}>
        <Gallery photos={ad.photos} title={ad.title} />
        <div>
          <dl>
            <dt>{t('ad.type')}</dt>
            <dd>{typeLabel(t, ad.listingType)}</dd>
            <dt>{t('ad.age')}</dt>
            <dd>{ageLabel(t, ad.age)}</dd>
            <dt>{t('ad.location')}</dt>
            <dd>
              {ad.city.name}, {ad.state.name}
            </dd>
            <dt>{t('ad.phone')}</dt>
            <dd>
              <a href={`tel:${ad.phone}`}>{displayPhone(ad.phone)}</a>
              {ad.phoneVerified && (
                <>
                  {' '}
                  <PhoneVerifiedBadge />
                </>
              )}
            </dd>
            {ad.bumpedAt && (
              <>
                <dt>{t('ad.updated')}</dt>
                {/* In UTC, and said so: the server renders it, and its time zone is not the reader's (an evening
                    bump in Los Angeles is the next day's date in UTC). */}
                <dd>
                  <time dateTime={ad.bumpedAt}>{`${dateLabel(ad.bumpedAt, i18n.language, true)} UTC`}</time>
                </dd>
              </>
            )}
          </dl>
          <ContactButtons phone={ad.phone} />
          <p dir="auto" className={styles.adText} style={{ whiteSpace: 'pre-wrap' }}>
            {ad.description}
          </p>
          <AdDetailsView details={ad.details} city={ad.city.name} />
          <div className={styles.actions} style={{ justifyContent: 'flex-start' }}>
            <button type="button" className="btn btn-danger btn-sm" onClick={() => setReporting(true)} aria-haspopup="dialog">
              {t('report.open')}
            </button>
          </div>
          <p className={styles.meta}>{t('ad.safety')}</p>
        </div>
      </div>
      {reporting && <ReportDialog adId={ad.id} onClose={() => setReporting(false)} />}
    </article>
  );
}
