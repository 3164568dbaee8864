import { useState } from 'react';
import { Link, useParams, useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { LISTING_TYPES, pathFor, routes } from '../../app/routes';
import { LOADERS, stateCities, type CityCount } from '../../app/loaders';
import { useRouteData } from '../../app/routeData';
import { publicSource } from '../../api/publicSource';
import { humanizeSlug } from '../../../contract/seo';
import { LoadState } from '../../components/market/Status';
import { typeLabel, typeSlug } from '../../components/market/labels';
import type { ListingType } from '../../api/ads';
import NotFound from './NotFound';
import styles from '../../components/market/market.module.css';

const fold = (s: string) => s.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');

/** The href of a city: its list of `code`, or of the type it has most ads of. */
function cityHref(state: string, c: CityCount, code?: ListingType): string {
  const best = code ?? (Object.entries(c.byType).sort(([, a], [, b]) => (b ?? 0) - (a ?? 0))[0]?.[0] as ListingType | undefined) ?? 'female_esc';
  return pathFor(routes.listingsCity, { state, city: c.slug, type: typeSlug(best) });
}

function CityLink({ state, city, type }: { state: string; city: CityCount; type: ListingType | null }) {
  return (
    <li>
      <Link href={cityHref(state, city, type ?? undefined)}>{city.name}</Link> <span className={styles.meta}>({city.count})</span>
    </li>
  );
}

/**
 * The cities whose names hold what was typed in the filter box, all of the state's (largest first):
 * loaded when the box is first used, not with the page.
 */
function FilterResults({ state, type, query }: { state: string; type: ListingType | null; query: string }) {
  const { t } = useTranslation('market');
  const { result, loading, error } = useRouteData(`state-cities:${state}:${type ?? ''}`, async () => ({
    status: 200 as const,
    data: await stateCities(state, type, publicSource),
  }));
  const q = fold(query);
  const all = result?.status === 200 ? result.data : null;
  if (!all) return <LoadState loading={loading} error={error} />;
  const matches = all.filter((c) => fold(c.name).includes(q));
  return matches.length ? (
    <ul className={styles.columns}>
      {matches.map((c) => (
        <CityLink key={c.slug} state={state} city={c} type={type} />
      ))}
    </ul>
  ) : (
    <p role="status">{t('state.filterEmpty', { query })}</p>
  );
}

/**
 * /listings/us/:state (?type=, ?letter=): the state's largest cities with a link per listing type,
 * then an index of the other cities by first letter, each letter a page of its own (a link for
 * crawlers, the letter's cities by name), and a box that finds any city of the state by name.
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
  const top = data?.top ?? [];
  const letters = data?.letters ?? [];
  const q = query.trim();
  const stateHref = (code: ListingType | null, letter?: string) => {
    const qs = new URLSearchParams();
    if (code) qs.set('type', typeSlug(code));
    if (letter) qs.set('letter', letter.toLowerCase());
    const base = pathFor(routes.listingsState, { state: slug });
    return qs.size ? `${base}?${qs}` : base;
  };

  return (
    <section className={styles.panel}>
      <p>
        <Link href={type ? `${routes.listingsUs}?type=${typeSlug(type)}` : routes.listingsUs}>{t('us.allStates')}</Link>
      </p>
      <h1>{t('state.title', { state: data?.state.name ?? humanizeSlug(slug) })}</h1>
      <nav aria-label={t('city.otherTypes')} className={styles.row}>
        {[null, ...LISTING_TYPES.map((lt) => lt.code as ListingType)].map((code) => {
          const label = code ? typeLabel(t, code) : t('state.allTypes');
          return code === type ? (
            <strong key={code ?? 'all'} aria-current="page">
              {label}
            </strong>
          ) : (
            <Link key={code ?? 'all'} href={stateHref(code)}>
              {label}
            </Link>
          );
        })}
      </nav>
      <LoadState loading={loading && !data} error={error} />
      {data && !top.length && <p>{t('state.empty')}</p>}
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
                  <ul className={styles.typeLinks}>
                    {LISTING_TYPES.filter((lt) => c.byType[lt.code]).map((lt) => (
                      <li key={lt.code}>
                        <Link href={cityHref(slug, c, lt.code)}>
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
      {letters.length > 0 && (
        <>
          <h2 className={styles.subhead}>{t('state.moreCities')}</h2>
          <div className="field">
            <label htmlFor="city-filter">{t('state.filter')}</label>
            <input id="city-filter" type="search" value={query} onChange={(e) => setQuery(e.target.value)} aria-describedby="city-filter-hint" autoComplete="off" />
            <small id="city-filter-hint">{t('state.filterHint')}</small>
          </div>
          {q ? (
            <FilterResults state={slug} type={type} query={q} />
          ) : (
            <>
              <nav aria-label={t('state.letters')}>
                <ul className={styles.letters}>
                  {letters.map(({ letter, count }) => (
                    <li key={letter}>
                      {letter === data?.letter ? (
                        <strong aria-current="page">
                          {letter} <span className={styles.meta}>({count})</span>
                        </strong>
                      ) : (
                        <Link href={stateHref(type, letter)}>
                          {letter} <span className={styles.meta}>({count})</span>
                        </Link>
                      )}
                    </li>
                  ))}
                </ul>
              </nav>
              {data?.letter && (
                <>
                  <h3 className={styles.subhead}>{t('state.letterTitle', { letter: data.letter })}</h3>
                  <ul className={styles.columns}>
                    {data.cities.map((c) => (
                      <CityLink key={c.slug} state={slug} city={c} type={type} />
                    ))}
                  </ul>
                </>
              )}
            </>
          )}
        </>
      )}
    </section>
  );
}
