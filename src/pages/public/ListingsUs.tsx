import { Link, useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { LISTING_TYPES, pathFor, routes } from '../../app/routes';
import { LOADERS } from '../../app/loaders';
import { useRouteData } from '../../app/routeData';
import { publicSource } from '../../api/publicSource';
import type { ListingType } from '../../api/ads';
import { LoadState } from '../../components/market/Status';
import { typeLabel, typeSlug } from '../../components/market/labels';
import NotFound from './NotFound';
import styles from '../../components/market/market.module.css';

/** /listings/us (?type=): every state with its number of live ads, of one listing type or all. */
export default function ListingsUs() {
  const { t } = useTranslation('market');
  const search = useSearch();
  const loader = LOADERS.listingsUs;
  const { result, loading, error } = useRouteData(loader.key({}, search), () => loader.load({}, search, publicSource));
  if (result && result.status !== 200) return <NotFound />;
  const data = result?.data;
  const type = data?.type ?? null;
  const rows = data?.states ?? [];
  const total = rows.reduce((n, s) => n + s.count, 0);
  const query = type ? `?type=${typeSlug(type)}` : '';

  return (
    <section className={styles.panel}>
      <h1>{t('us.title')}</h1>
      <p>{t('us.intro', { count: total })}</p>
      <nav aria-label={t('city.otherTypes')} className={styles.row}>
        {[null, ...LISTING_TYPES.map((lt) => lt.code as ListingType)].map((code) => {
          const label = code ? typeLabel(t, code) : t('state.allTypes');
          return code === type ? (
            <strong key={code ?? 'all'} aria-current="page">
              {label}
            </strong>
          ) : (
            <Link key={code ?? 'all'} href={code ? `${routes.listingsUs}?type=${typeSlug(code)}` : routes.listingsUs}>
              {label}
            </Link>
          );
        })}
      </nav>
      <LoadState loading={loading && !data} error={error} />
      <ul className={styles.columns}>
        {rows.map((s) => (
          <li key={s.slug}>
            <Link href={pathFor(routes.listingsState, { state: s.slug }) + query}>{s.name}</Link>{' '}
            <span className={styles.meta}>({t('adsCount', { count: s.count })})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
