import { useEffect } from 'react';
import { Link, useParams, useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { cityListingsStore, aggregateStore, unslug } from '../../state/listings';
import { LISTING_TYPES, pathFor, routes } from '../../app/routes';
import { AdGrid } from '../../components/market/AdCard';
import { Pagination, pageParam } from '../../components/market/Pagination';
import { LoadState } from '../../components/market/Status';
import { typeFromSlug, typeLabel } from '../../components/market/labels';
import styles from '../../components/market/market.module.css';

/** /listings/us/:state/:city/:type: the city's live ads of one type, newest bump first, paginated. */
export default function ListingsCity() {
  const { t } = useTranslation('market');
  const { state = '', city = '', type = '' } = useParams<{ state: string; city: string; type: string }>();
  const page = pageParam(useSearch());
  const code = typeFromSlug(type);
  const snap = useSnapshot(cityListingsStore.state);
  const agg = useSnapshot(aggregateStore.state);

  useEffect(() => {
    if (code) void cityListingsStore.load({ state, city, type: code, page });
  }, [state, city, code, page]);

  if (!code)
    return (
      <p role="alert" className={styles.panel}>
        {t('city.unknownType')}
      </p>
    );

  const data = snap.data;
  const first = data?.ads[0];
  const known = agg.data?.flatMap((p) => p.rows).find((r) => r.stateSlug === state && r.citySlug === city);
  const cityName = first?.city.name ?? known?.cityName ?? unslug(city);
  const stateName = first?.state.name ?? known?.stateName ?? unslug(state);
  const base = pathFor(routes.listingsCity, { state, city, type });

  return (
    <section className={styles.panel}>
      <p>
        <Link href={routes.listingsUs}>{t('us.allStates')}</Link> ›{' '}
        <Link href={pathFor(routes.listingsState, { state })}>{stateName}</Link>
      </p>
      <h1>{t('city.title', { type: typeLabel(t, code), city: cityName, state: stateName })}</h1>
      <nav aria-label={t('city.otherTypes')} className={styles.row}>
        {LISTING_TYPES.map((lt) =>
          lt.code === code ? (
            <strong key={lt.code} aria-current="page">{typeLabel(t, lt.code)}</strong>
          ) : (
            <Link key={lt.code} href={pathFor(routes.listingsCity, { state, city, type: lt.slug })}>
              {typeLabel(t, lt.code)}
            </Link>
          ),
        )}
      </nav>
      <LoadState loading={snap.loading} error={snap.error} />
      {data && !snap.loading && (
        <>
          <p className={styles.meta}>{t('adsCount', { count: data.total })}</p>
          {data.ads.length ? <AdGrid ads={data.ads} /> : <p>{t('city.empty')}</p>}
          <Pagination page={data.page || page} pageSize={data.pageSize} total={data.total} hrefFor={(p) => (p > 1 ? `${base}?page=${p}` : base)} />
        </>
      )}
    </section>
  );
}
