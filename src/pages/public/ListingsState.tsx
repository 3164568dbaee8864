import { useState } from 'react';
import { Link, useParams, useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { LISTING_TYPES, pathFor, routes } from '../../app/routes';
import { LOADERS, type CityCount } from '../../app/loaders';
import { useRouteData } from '../../app/routeData';
import { publicSource } from '../../api/publicSource';
import { humanizeSlug } from '../../../contract/seo';
import { LoadState } from '../../components/market/Status';
import { typeLabel, typeSlug } from '../../components/market/labels';
import type { ListingType } from '../../api/ads';
import NotFound from './NotFound';
import styles from '../../components/market/market.module.css';

/** The cities shown in full at the top, largest first; the others are grouped by their first letter. */
const TOP_CITIES = 12;

const firstLetter = (name: string) => name.normalize('NFD').charAt(0).toUpperCase();
const fold = (s: string) => s.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');

/** The cities of the rest, by first letter, each letter's cities by name. */
function byLetter(cities: readonly CityCount[]): Array<[string, CityCount[]]> {
  const m = new Map<string, CityCount[]>();
  for (const c of cities) {
    const l = firstLetter(c.name);
    m.set(l, [...(m.get(l) ?? []), c]);
  }
  return [...m.entries()].sort(([a], [b]) => a.localeCompare(b, 'en')).map(([l, cs]) => [l, cs.sort((a, b) => a.name.localeCompare(b.name, 'en'))]);
}

/**
 * /listings/us/:state (?type=): the state's largest cities with a link per listing type, then every
 * other city with ads by first letter (folded lists, all links in the page for crawlers) and a box
 * that filters them by name.
 */
export default function ListingsState() {
  const { t } = useTranslation('market');
  const params = useParams<{ state: string }>();
  const search = useSearch();
  const loader = LOADERS.listingsState;
  const { result, loading, error } = useRouteData(loader.key(params, search), () => loader.load(params, search, publicSource));
  const [query, setQuery] = useState('');
  const slug = params.state ?? '';

  if (result && result.status !== 200) return <NotFound />;
  const data = result?.data;
  const type = data?.type ?? null;
  const cities = data?.cities ?? [];
  const top = cities.slice(0, TOP_CITIES);
  const rest = cities.slice(TOP_CITIES);
  const q = fold(query.trim());
  const matches = q ? rest.filter((c) => fold(c.name).includes(q)) : [];
  const cityHref = (c: CityCount, code?: ListingType) => {
    const best = code ?? (Object.entries(c.byType).sort(([, a], [, b]) => (b ?? 0) - (a ?? 0))[0]?.[0] as ListingType | undefined) ?? 'female_esc';
    return pathFor(routes.listingsCity, { state: slug, city: c.slug, type: typeSlug(best) });
  };
  const cityLink = (c: CityCount) => (
    <li key={c.slug}>
      <Link href={cityHref(c, type ?? undefined)}>{c.name}</Link> <span className={styles.meta}>({c.count})</span>
    </li>
  );

  return (
    <section className={styles.panel}>
      <p>
        <Link href={type ? `${routes.listingsUs}?type=${typeSlug(type)}` : routes.listingsUs}>{t('us.allStates')}</Link>
      </p>
      <h1>{t('state.title', { state: data?.state.name ?? humanizeSlug(slug) })}</h1>
      <nav aria-label={t('city.otherTypes')} className={styles.row}>
        {[null, ...LISTING_TYPES.map((lt) => lt.code as ListingType)].map((code) => {
          const label = code ? typeLabel(t, code) : t('state.allTypes');
          const href = code ? `${pathFor(routes.listingsState, { state: slug })}?type=${typeSlug(code)}` : pathFor(routes.listingsState, { state: slug });
          return code === type ? (
            <strong key={code ?? 'all'} aria-current="page">
              {label}
            </strong>
          ) : (
            <Link key={code ?? 'all'} href={href}>
              {label}
            </Link>
          );
        })}
      </nav>
      <LoadState loading={loading && !data} error={error} />
      {data && !cities.length && <p>{t('state.empty')}</p>}
      {top.length > 0 && (
        <>
          <h2 className={styles.subhead}>{t('state.topCities')}</h2>
          <ul className={styles.list}>
            {top.map((c) => (
              <li key={c.slug} className={styles.item}>
                <div className={styles.itemBody}>
                  <h3 className={styles.cityName}>
                    {c.name} <span className={styles.meta}>({t('adsCount', { count: c.count })})</span>
                  </h3>
                  <ul className={styles.row} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                    {LISTING_TYPES.filter((lt) => c.byType[lt.code]).map((lt) => (
                      <li key={lt.code}>
                        <Link href={cityHref(c, lt.code)}>
                          {typeLabel(t, lt.code)} ({c.byType[lt.code]})
                        </Link>
                      </li>
                    ))}
                  </ul>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
      {rest.length > 0 && (
        <>
          <h2 className={styles.subhead}>{t('state.moreCities')}</h2>
          <div className="field">
            <label htmlFor="city-filter">{t('state.filter')}</label>
            <input id="city-filter" type="search" value={query} onChange={(e) => setQuery(e.target.value)} aria-describedby="city-filter-hint" autoComplete="off" />
            <small id="city-filter-hint">{t('state.filterHint')}</small>
          </div>
          {q ? (
            matches.length ? (
              <ul className={styles.columns}>{matches.map(cityLink)}</ul>
            ) : (
              <p role="status">{t('state.filterEmpty', { query: query.trim() })}</p>
            )
          ) : (
            <div className={styles.letters}>
              {byLetter(rest).map(([letter, cs]) => (
                <details key={letter}>
                  <summary>
                    {letter} <span className={styles.meta}>({cs.length})</span>
                  </summary>
                  <ul>{cs.map(cityLink)}</ul>
                </details>
              ))}
            </div>
          )}
        </>
      )}
    </section>
  );
}
