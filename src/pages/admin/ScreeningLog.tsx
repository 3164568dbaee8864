import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { SEARCH_PAGE_SIZE, screeningQuery, screeningStore } from '../../state/moderation';
import { FormError } from '../../components/forms/FormError';
import { Pager } from '../../components/forms/Pager';
import { Loading } from '../../components/Loading';
import { UserLink } from '../../components/moderation/ModBadges';
import { dateTimeLabel } from '../../components/market/labels';

/** Ad texts refused by screening (terms that suggest minors or coercion): when, who, which term, the wording. */
export default function ScreeningLog() {
  const { t, i18n } = useTranslation('moderation');
  const { data, loading, error } = useSnapshot(screeningStore.state);
  const q = useSnapshot(screeningQuery);

  useEffect(() => {
    void screeningStore.load();
  }, [q.page]);

  const entries = data?.entries ?? [];
  return (
    <section aria-labelledby="screening-title">
      <h1 id="screening-title">{t('screening.title')}</h1>
      <p>{t('screening.intro')}</p>
      <FormError message={error} />
      {loading && !data && <Loading />}
      {data && entries.length === 0 && <p>{t('screening.none')}</p>}
      {entries.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="data" aria-busy={loading || undefined}>
            <caption className="visually-hidden">{t('screening.caption', { count: data?.total ?? 0 })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('screening.at')}</th>
                <th scope="col">{t('screening.user')}</th>
                <th scope="col">{t('screening.term')}</th>
                <th scope="col">{t('screening.wording')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td style={{ whiteSpace: 'nowrap' }}>
                    <time dateTime={e.createdAt}>{dateTimeLabel(e.createdAt, i18n.language)}</time>
                  </td>
                  <td>{e.userId ? <UserLink id={e.userId} label={e.userEmail ?? e.userId} /> : '—'}</td>
                  <td>
                    <mark>{e.term}</mark>
                    <small style={{ display: 'block' }}>{t('screening.in', { field: t(`screening.fields.${e.field}`) })}</small>
                  </td>
                  <td style={{ maxWidth: 480 }}>
                    <strong dir="auto">{e.title}</strong>
                    <details>
                      <summary>{t('screening.description')}</summary>
                      <p dir="auto" style={{ whiteSpace: 'pre-wrap' }}>
                        {e.description}
                      </p>
                    </details>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label={t('screening.pages')}
        page={q.page}
        pageSize={SEARCH_PAGE_SIZE}
        total={data?.total ?? 0}
        disabled={loading}
        onPage={(page) => (screeningQuery.page = page)}
      />
    </section>
  );
}
