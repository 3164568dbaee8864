import { useEffect, useState } from 'react';
import { Link, useParams } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { adDetailStore } from '../../state/listings';
import { pathFor, routes } from '../../app/routes';
import { Gallery } from '../../components/market/Gallery';
import { ReportDialog } from '../../components/market/ReportDialog';
import { LoadState, StatusBadge } from '../../components/market/Status';
import { ageLabel, dateLabel, typeLabel, typeSlug } from '../../components/market/labels';
import styles from '../../components/market/market.module.css';

/** Shows +12125550123 as (212) 555-0123; the tel: link keeps the E.164 form. */
function displayPhone(e164: string): string {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : e164;
}

/** /ad/:id: photos, details, phone and a way to report the ad. */
export default function AdDetail() {
  const { t, i18n } = useTranslation('market');
  const { id = '' } = useParams<{ id: string }>();
  const snap = useSnapshot(adDetailStore.state);
  const [reporting, setReporting] = useState(false);

  useEffect(() => {
    adDetailStore.reset(); // never show the previous ad while this one loads
    void adDetailStore.load(id);
  }, [id]);

  const ad = snap.data;
  if (!ad || ad.id !== id)
    return (
      <div className={styles.panel}>
        <LoadState loading={snap.loading || !snap.error} error={snap.error ? t('ad.notAvailable') : null} />
      </div>
    );

  return (
    <article className={styles.panel}>
      <p>
        <Link href={pathFor(routes.listingsCity, { state: ad.state.slug, city: ad.city.slug, type: typeSlug(ad.listingType) })}>
          {t('ad.backToCity', { type: typeLabel(t, ad.listingType), city: ad.city.name })}
        </Link>
      </p>
      <h1>{ad.title}</h1>
      {ad.status !== 'approved' && (
        <p>
          <StatusBadge status={ad.status} />
        </p>
      )}
      <div style={{ display: 'grid', gap: 24, gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))' }}>
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
            </dd>
            {ad.bumpedAt && (
              <>
                <dt>{t('ad.updated')}</dt>
                <dd>{dateLabel(ad.bumpedAt, i18n.language)}</dd>
              </>
            )}
          </dl>
          <p style={{ whiteSpace: 'pre-wrap' }}>{ad.description}</p>
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
