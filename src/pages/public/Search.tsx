import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { searchStore } from '../../state/listings';
import { statesStore } from '../../state/locations';
import { checkSearchQuery, SEARCH_QUERY_MAX } from '../../../contract/rules';
import { routes } from '../../app/routes';
import { TextField } from '../../components/forms/TextField';
import { AdGrid } from '../../components/market/AdCard';
import { Pagination, pageParam } from '../../components/market/Pagination';
import { LoadState } from '../../components/market/Status';
import { LISTING_TYPE_CODES, typeFromSlug, typeLabel } from '../../components/market/labels';
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
  const params = new URLSearchParams(search);
  const urlQuery = params.get('query') ?? '';
  const urlState = params.get('state') ?? '';
  const urlType = typeFromSlug(params.get('type') ?? '') ?? '';
  const page = pageParam(search);
  const snap = useSnapshot(searchStore.state);
  const states = useSnapshot(statesStore.state);
  const [query, setQuery] = useState(urlQuery);
  const [state, setState] = useState(urlState);
  const [type, setType] = useState<string>(urlType);
  const urlValid = !checkSearchQuery(urlQuery);
  // A new search or page in the address puts its values back in the form, set while rendering
  // (React's way for state that follows a prop) rather than one render late.
  const [shown, setShown] = useState({ urlQuery, urlState, urlType, page });
  if (shown.urlQuery !== urlQuery || shown.urlState !== urlState || shown.urlType !== urlType || shown.page !== page) {
    setShown({ urlQuery, urlState, urlType, page });
    setQuery(urlQuery);
    setState(urlState);
    setType(urlType);
  }

  useEffect(() => {
    if (!statesStore.state.data) void statesStore.load();
  }, []);
  useEffect(() => {
    if (urlValid) void searchStore.load({ query: urlQuery.trim(), state: urlState || undefined, type: urlType || undefined, page });
    else searchStore.reset();
  }, [urlQuery, urlState, urlType, page, urlValid]);

  const rule = checkSearchQuery(query);
  function submit(e: FormEvent) {
    e.preventDefault();
    if (rule) return;
    navigate(searchHref({ query, state, type }));
  }

  const data = snap.data;
  return (
    <section className={styles.panel}>
      <h1>{t('search.title')}</h1>
      <form role="search" onSubmit={submit} noValidate style={{ marginBottom: 16 }}>
        <TextField
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
            <select id="search-state" value={state} onChange={(e) => setState(e.target.value)}>
              <option value="">{t('search.anyState')}</option>
              {states.data?.map((s) => (
                <option key={s.id} value={s.slug}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="search-type">{t('search.type')}</label>
            <select id="search-type" value={type} onChange={(e) => setType(e.target.value)}>
              <option value="">{t('search.anyType')}</option>
              {LISTING_TYPE_CODES.map((c) => (
                <option key={c} value={c}>
                  {typeLabel(t, c)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <button type="submit" className="btn btn-primary" disabled={!!rule}>
          {t('search.submit')}
        </button>
      </form>
      {urlValid && <LoadState loading={snap.loading} error={snap.error} />}
      {urlValid && data && !snap.loading && (
        <>
          <p role="status">{t('search.results', { count: data.total, query: urlQuery })}</p>
          {data.ads.length > 0 && <AdGrid ads={data.ads} />}
          <Pagination
            page={data.page || page}
            pageSize={data.pageSize}
            total={data.total}
            hrefFor={(p) => searchHref({ query: urlQuery, state: urlState, type: urlType, page: p })}
          />
        </>
      )}
    </section>
  );
}
