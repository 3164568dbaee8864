import { useEffect, useId, useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { SEARCH_STATUSES, evidenceUrl, type SearchStatus } from '../../api/moderation';
import { activeHoldsStore, adSearchStore, loadSearch, SEARCH_PAGE_SIZE, searchQuery } from '../../state/moderation';
import { sessionStore } from '../../state/session';
import { routes } from '../../app/routes';
import { FormError } from '../../components/forms/FormError';
import { Pager } from '../../components/forms/Pager';
import { Loading } from '../../components/Loading';
import { HeldBadge, ModStatus, SearchLink, UserLink } from '../../components/moderation/ModBadges';
import { dateLabel, dateTimeLabel } from '../../components/market/labels';

type Search = { query: string; status: '' | SearchStatus; page: number };

/** The search the address names (?query=&status=&page=): Back, a reload and a shared link all show that one. */
function searchFromUrl(search: string): Search {
  const p = new URLSearchParams(search);
  const status = p.get('status') ?? '';
  const page = Number(p.get('page'));
  return {
    query: p.get('query') ?? '',
    status: (SEARCH_STATUSES as string[]).includes(status) ? (status as SearchStatus) : '',
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

function searchHref(s: Search): string {
  const p = new URLSearchParams();
  if (s.query) p.set('query', s.query);
  if (s.status) p.set('status', s.status);
  if (s.page > 1) p.set('page', String(s.page));
  const qs = p.toString();
  return qs ? `${routes.adminSearchAds}?${qs}` : routes.adminSearchAds;
}

/** The query and status of a search, as the address names them; submitting asks for its first page. */
function SearchForm({ initial, onSearch }: { initial: Search; onSearch: (s: Search) => void }) {
  const { t } = useTranslation('moderation');
  const [text, setText] = useState(initial.query);
  const [status, setStatus] = useState<'' | SearchStatus>(initial.status);
  const queryId = useId();
  const statusId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch({ query: text.trim(), status, page: 1 });
  };
  return (
    <form role="search" onSubmit={submit} style={{ display: 'flex', gap: 10, alignItems: 'flex-end', flexWrap: 'wrap', marginBottom: 12 }}>
      <div className="field" style={{ margin: 0, flex: '1 1 280px' }}>
        <label htmlFor={queryId}>{t('search.query')}</label>
        <input id={queryId} type="search" value={text} onChange={(e) => setText(e.target.value)} maxLength={200} />
      </div>
      <div className="field" style={{ margin: 0 }}>
        <label htmlFor={statusId}>{t('search.status')}</label>
        <select id={statusId} value={status} onChange={(e) => setStatus(e.target.value as '' | SearchStatus)}>
          <option value="">{t('search.anyStatus')}</option>
          {SEARCH_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`status.${s}`)}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn btn-primary">
        {t('search.submit')}
      </button>
    </form>
  );
}

/**
 * Staff search over every ad in every status (deleted ones kept under a legal hold too): an ad
 * id, words of the title and description, the phone's digits in any format, the owner's e-mail or
 * nickname. Each row opens its owner's user screen. Below: the legal holds in force.
 */
export default function SearchAds() {
  const { t, i18n } = useTranslation('moderation');
  const { data, loading, error } = useSnapshot(adSearchStore.state);
  const holds = useSnapshot(activeHoldsStore.state);
  const q = useSnapshot(searchQuery);
  const me = useSnapshot(sessionStore).session.id;
  const search = useSearch();
  const [, navigate] = useLocation();
  const url = searchFromUrl(search);

  useEffect(() => {
    void loadSearch({ query: url.query, status: url.status, page: url.page });
  }, [url.query, url.status, url.page]);
  useEffect(() => {
    void activeHoldsStore.load();
  }, []);
  // A search or page goes in the address (a step Back returns to); the same one again is read again.
  const show = (s: Search) => {
    const href = searchHref(s);
    if (href === searchHref(url)) void loadSearch(s);
    else navigate(href);
  };

  const ads = data?.ads ?? [];
  return (
    <section aria-labelledby="search-ads-title">
      <h1 id="search-ads-title">{t('search.title')}</h1>
      <p>{t('search.intro')}</p>
      {/* Keyed by the address's search: Back or a link to another search puts its words and status back in the form. */}
      <SearchForm key={`${url.status}:${url.query}`} initial={url} onSearch={show} />
      <FormError message={error} />
      {loading && !data && <Loading />}
      {data && <p aria-live="polite">{t('search.found', { count: data.total })}</p>}
      {ads.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="data" aria-busy={loading || undefined}>
            <caption className="visually-hidden">{t('search.caption', { count: data?.total ?? 0 })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('ad.photo')}</th>
                <th scope="col">{t('ad.title')}</th>
                <th scope="col">{t('ad.status')}</th>
                <th scope="col">{t('ad.phone')}</th>
                <th scope="col">{t('ad.owner')}</th>
                <th scope="col">{t('ad.created')}</th>
                <th scope="col">{t('ad.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {ads.map((ad) => (
                <tr key={ad.id}>
                  <td>{ad.thumbUrl ? <img src={ad.thumbUrl} alt="" width={64} height={48} style={{ objectFit: 'cover', borderRadius: 4 }} /> : '—'}</td>
                  <th scope="row" style={{ fontWeight: 400 }}>
                    <span dir="auto">{ad.title}</span>
                    <small style={{ display: 'block', color: 'var(--gray)' }}>
                      {ad.id}
                      {ad.place ? ` · ${ad.place}` : ''}
                    </small>
                  </th>
                  <td>
                    <ModStatus status={ad.status} /> {ad.held && <HeldBadge />}
                    {ad.deletedAt && <small style={{ display: 'block' }}>{t('ad.deletedAt', { date: dateTimeLabel(ad.deletedAt, i18n.language) })}</small>}
                  </td>
                  <td style={{ whiteSpace: 'nowrap' }}>
                    <SearchLink query={ad.phone}>{ad.phone}</SearchLink>
                  </td>
                  <td>
                    <UserLink id={ad.owner.id} label={ad.owner.email} />
                    <small style={{ display: 'block' }}>
                      {ad.owner.nickname} · {t(`userStatus.${ad.owner.status}`)}
                      {ad.owner.deleted ? ` · ${t('user.deleted')}` : ''}
                    </small>
                  </td>
                  <td>{dateLabel(ad.createdAt, i18n.language)}</td>
                  <td>
                    {ad.owner.id !== me && (
                      <a href={evidenceUrl(ad.id)} download aria-label={t('export.adLabel', { title: ad.title })}>
                        {t('export.ad')}
                      </a>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label={t('search.pages')}
        page={q.page}
        pageSize={SEARCH_PAGE_SIZE}
        total={data?.total ?? 0}
        disabled={loading}
        onPage={(page) => show({ ...url, page })}
      />

      <h2 style={{ marginTop: 32 }}>{t('holds.title')}</h2>
      <FormError message={holds.error} />
      {holds.data && holds.data.holds.length === 0 && <p>{t('holds.none')}</p>}
      {holds.data && holds.data.holds.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="data">
            <caption className="visually-hidden">{t('holds.caption', { count: holds.data.total })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('holds.subject')}</th>
                <th scope="col">{t('holds.reason')}</th>
                <th scope="col">{t('holds.placed')}</th>
              </tr>
            </thead>
            <tbody>
              {holds.data.holds.map((h) => (
                <tr key={h.id}>
                  <td>
                    {h.targetType === 'user' ? (
                      <UserLink id={h.targetId} label={t('holds.account', { id: h.targetId })} />
                    ) : (
                      <SearchLink query={h.targetId}>{t('holds.ad', { id: h.targetId })}</SearchLink>
                    )}
                  </td>
                  <td style={{ whiteSpace: 'pre-wrap' }}>{h.reason}</td>
                  <td>
                    {dateTimeLabel(h.placedAt, i18n.language)}
                    {h.placedBy && <small style={{ display: 'block' }}>{h.placedBy}</small>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
