import { useState, type FormEvent } from 'react';
import { useLocation, useRouter, useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { checkSearchQuery, SEARCH_QUERY_MAX } from '../../../contract/rules';
import { SEARCH_TOTAL_CAP } from '../../../contract/api/listings';
import { routes } from '../../app/routes';
import { LOADERS, searchParams } from '../../app/loaders';
import { useRouteData } from '../../app/routeData';
import { publicSource } from '../../api/publicSource';
import { TextField } from '../../components/forms/TextField';
import { useHydrated, useTypedBeforeHydration } from '../../components/forms/useTypedBeforeHydration';
import { AdGrid, EAGER_CARDS } from '../../components/market/AdCard';
import { Pagination } from '../../components/market/Pagination';
import { LoadState } from '../../components/market/Status';
import { LISTING_TYPE_CODES, typeLabel } from '../../components/market/labels';
import NotFound from './NotFound';
import styles from '../../components/market/market.module.css';

function searchHref(q: { query: string; state?: string; type?: string; page?: number }): string {
  const p = new URLSearchParams({ query: q.query.trim() });
  if (q.state) p.set('state', q.state);
  if (q.type) p.set('type', q.type);
  if (q.page && q.page > 1) p.set('page', String(q.page));
  return `${routes.search}?${p}`;
}

/** /search?query=&state=&type=&page=: free-text search with state and type filters. */
export default function Search() {
  const { t } = useTranslation(['market', 'validation']);
  const search = useSearch();
  const [, navigate] = useLocation();
  const { base } = useRouter();
  const url = searchParams(search);
  const loader = LOADERS.search;
  const { result, loading, error } = useRouteData(loader.key({}, search), () => loader.load({}, search, publicSource));
  const [query, setQuery] = useState(url.query);
  const [state, setState] = useState(url.state);
  const [type, setType] = useState<string>(url.type);
  // A new search or page in the address puts its values back in the form, set while rendering
  // (React's way for state that follows a prop) rather than one render late.
  const [shown, setShown] = useState(url);
  if (shown.query !== url.query || shown.state !== url.state || shown.type !== url.type || shown.page !== url.page) {
    setShown(url);
    setQuery(url.query);
    setState(url.state);
    setType(url.type);
  }
  // What was typed or chosen before hydration is what Enter searches for once it is interactive.
  const queryRef = useTypedBeforeHydration<HTMLInputElement>(query, setQuery);
  const stateRef = useTypedBeforeHydration<HTMLSelectElement>(state, setState);
  const typeRef = useTypedBeforeHydration<HTMLSelectElement>(type, setType);
  const hydrated = useHydrated();

  const rule = checkSearchQuery(query);
  function submit(e: FormEvent) {
    e.preventDefault();
    if (rule) return;
    navigate(searchHref({ query, state, type }));
  }

  if (result && result.status !== 200) return <NotFound />;
  const data = result?.data;
  const results = data?.results;
  return (
    <section className={styles.panel}>
      <h1>{t('search.title')}</h1>
      {/* Before hydration the browser submits the form itself: the same query names as searchHref,
          to the same page (the server answers an empty state= or type= with a 301 to the URL
          without it, site.urls.ts), and the button is not disabled yet by a rule the server
          checks too (an empty search lands on this page asking for criteria). */}
      <form role="search" action={`${base}${routes.search}`} method="get" onSubmit={submit} noValidate style={{ marginBottom: 16 }}>
        <TextField
          id="search-query"
          name="query"
          ref={queryRef}
          label={t('search.query')}
          type="search"
          value={query}
          onChange={setQuery}
          maxLength={SEARCH_QUERY_MAX}
          error={rule ? t(`validation:${rule}`) : null}
        />
        <div className={styles.row}>
          <div className="field">
            <label htmlFor="search-state">{t('search.state')}</label>
            <select id="search-state" name="state" ref={stateRef} value={state} onChange={(e) => setState(e.target.value)}>
              <option value="">{t('search.anyState')}</option>
              {data?.states.map((s) => (
                <option key={s.id} value={s.slug}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="search-type">{t('search.type')}</label>
            <select id="search-type" name="type" ref={typeRef} value={type} onChange={(e) => setType(e.target.value)}>
              <option value="">{t('search.anyType')}</option>
              {LISTING_TYPE_CODES.map((c) => (
                <option key={c} value={c}>
                  {typeLabel(t, c)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <button type="submit" className="btn btn-primary" disabled={hydrated && !!rule}>
          {t('search.submit')}
        </button>
      </form>
      {url.valid && <LoadState loading={loading && !results} error={error} />}
      {url.valid && results && (
        <>
          {/* The results' heading (the cards' titles, h3, come under it), announced when it changes. */}
          <h2 className={styles.listCount}>
            <span role="status">
              {/* Search counts the newest 200 matches only (and serves their pages): at the cap, "200+". */}
              {results.total >= SEARCH_TOTAL_CAP
                ? t('search.resultsCapped', { cap: SEARCH_TOTAL_CAP, query: url.query })
                : t('search.results', { count: results.total, query: url.query })}
            </span>
          </h2>
          {results.ads.length > 0 && <AdGrid ads={results.ads} eager={EAGER_CARDS} />}
          <Pagination
            page={results.page || url.page}
            pageSize={results.pageSize}
            total={results.total}
            hrefFor={(p) => searchHref({ query: url.query, state: url.state, type: url.type, page: p })}
          />
        </>
      )}
    </section>
  );
}
