import { Link, useParams, useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { LISTING_TYPES, pathFor, routes } from '../../app/routes';
import { LOADERS, pageParam, typeFromSlug } from '../../app/loaders';
import { useRouteData } from '../../app/routeData';
import { publicSource } from '../../api/publicSource';
import { humanizeSlug } from '../../../contract/seo';
import { LISTING_TOTAL_CAP } from '../../../contract/api/listings';
import { AdGrid, EAGER_CARDS } from '../../components/market/AdCard';
import { Pagination } from '../../components/market/Pagination';
import { LoadState } from '../../components/market/Status';
import { typeLabel } from '../../components/market/labels';
import NotFound from './NotFound';
import styles from '../../components/market/market.module.css';

/** /listings/us/:state/:city/:type: the city's live ads of one type, newest bump first, paginated. */
export default function ListingsCity() {
  const { t } = useTranslation('market');
  const params = useParams<{ state: string; city: string; type: string }>();
  const search = useSearch();
  const { state = '', city = '', type = '' } = params;
  const code = typeFromSlug(type);
  const loader = LOADERS.listingsCity;
  const { result, loading, error } = useRouteData(loader.key(params, search), () => loader.load(params, search, publicSource));

  if (!code)
    return (
      <p role="alert" className={styles.panel}>
        {t('city.unknownType')}
      </p>
    );
  if (result && result.status !== 200) return <NotFound />;

  const data = result?.data.page;
  const cityName = data?.place?.city?.name ?? humanizeSlug(city);
  const stateName = data?.place?.state?.name ?? humanizeSlug(state);
  const base = pathFor(routes.listingsCity, { state, city, type });
  const page = data?.page ?? pageParam(search);

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
            <strong key={lt.code} aria-current="page">
              {typeLabel(t, lt.code)}
            </strong>
          ) : (
            <Link key={lt.code} href={pathFor(routes.listingsCity, { state, city, type: lt.slug })}>
              {typeLabel(t, lt.code)}
            </Link>
          ),
        )}
      </nav>
      <LoadState loading={loading && !data} error={error} />
      {data && (
        <>
          {/* The list's heading: the cards' titles (h3) come under it. */}
          {/* A list counts (and pages) its first 10,000 ads only: at the cap, "10,000+". */}
          <h2 className={styles.listCount}>
            {data.total >= LISTING_TOTAL_CAP ? t('adsCountCapped', { cap: LISTING_TOTAL_CAP }) : t('adsCount', { count: data.total })}
          </h2>
          {data.ads.length ? <AdGrid ads={data.ads} eager={EAGER_CARDS} /> : <p>{t('city.empty')}</p>}
          <Pagination page={page} pageSize={data.pageSize} total={data.total} hrefFor={(p) => (p > 1 ? `${base}?page=${p}` : base)} />
        </>
      )}
    </section>
  );
}
