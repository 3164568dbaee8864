import { useTranslation } from 'react-i18next';
import { LOADERS } from '../../app/loaders';
import { useRouteData } from '../../app/routeData';
import { publicSource } from '../../api/publicSource';
import type { TransparencyMonth } from '../../api/moderation';
import s from '../../components/public/page.module.css';

const CATEGORIES = ['underage_suspected', 'trafficking_suspected', 'prohibited_content', 'spam', 'misleading', 'other', 'uncategorized'] as const;

/** "2026-01" in the page's language: "January 2026". */
function monthLabel(month: string, lng: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleDateString(lng, { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** When the figures were computed, in UTC: "January 20, 2026 at 9:00 AM UTC". */
function generatedAt(iso: string, lng: string): string {
  return new Date(iso).toLocaleString(lng, { year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' });
}

/**
 * The public transparency report (issue #14): per month, what staff reviewed, approved and
 * rejected (by reason), took down after reports, the reports and law-enforcement requests
 * received and the accounts suspended. Counts only, computed from our own records. Rendered by
 * the server with its figures (its route loader), which the browser hydrates without asking again.
 */
export default function Transparency() {
  const { t, i18n } = useTranslation('transparency');
  const loader = LOADERS.transparency;
  const { result, loading, error } = useRouteData(loader.key({}, ''), () => loader.load({}, '', publicSource));
  const data = result?.status === 200 ? result.data : null;

  const months = data?.months ?? [];
  const rows: { key: string; value: (m: TransparencyMonth) => number; sub?: boolean }[] = [
    { key: 'adsReviewed', value: (m) => m.adsReviewed },
    { key: 'adsApproved', value: (m) => m.adsApproved },
    { key: 'adsRejected', value: (m) => m.adsRejected },
    ...CATEGORIES.map((c) => ({ key: `categories.${c}`, value: (m: TransparencyMonth) => m.rejectedByCategory[c], sub: true })),
    { key: 'adsDisabled', value: (m) => m.adsDisabled },
    { key: 'adsDisabledAfterReport', value: (m) => m.adsDisabledAfterReport, sub: true },
    { key: 'reportsAd', value: (m) => m.reportsByKind.ad },
    { key: 'reportsTrafficking', value: (m) => m.reportsByKind.trafficking },
    { key: 'lawEnforcementRequests', value: (m) => m.lawEnforcementRequests },
    { key: 'accountsSuspended', value: (m) => m.accountsSuspended },
  ];
  return (
    <article className={s.card}>
      <h1>{t('title')}</h1>
      <p className={s.lead}>{t('intro')}</p>
      <p>{t('method')}</p>
      {error && (
        <p role="alert" className="alert alert-error">
          {t('error')}
        </p>
      )}
      {loading && !data && <p role="status">{t('loading')}</p>}
      {data && (
        <>
          <div style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={t('tableLabel')}>
            <table className="data">
              <caption>{t('caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('measure')}</th>
                  {months.map((m) => (
                    <th scope="col" key={m.month} style={{ whiteSpace: 'nowrap' }}>
                      {monthLabel(m.month, i18n.language)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.key}>
                    <th scope="row" style={{ fontWeight: r.sub ? 400 : 600, paddingLeft: r.sub ? 20 : undefined }}>
                      {t(`rows.${r.key}`)}
                    </th>
                    {months.map((m) => (
                      <td key={m.month} style={{ textAlign: 'right' }}>
                        {r.value(m).toLocaleString(i18n.language)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p>
            {/* In UTC, as the months are: the server's time zone is not the reader's, and the page must hydrate as rendered. */}
            <small>{t('generated', { date: generatedAt(data.generatedAt, i18n.language) })}</small>
          </p>
        </>
      )}
      <h2>{t('definitionsTitle')}</h2>
      <dl>
        {(['reviewed', 'rejected', 'disabled', 'reports', 'lawEnforcement', 'suspended'] as const).map((k) => (
          <div key={k}>
            <dt>
              <strong>{t(`definitions.${k}.term`)}</strong>
            </dt>
            <dd style={{ marginLeft: 0, marginBottom: 8 }}>{t(`definitions.${k}.text`)}</dd>
          </div>
        ))}
      </dl>
    </article>
  );
}
