import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { pageViewsQuery, pageViewsStore } from '../../state/moderation';
import { FormError } from '../../components/forms/FormError';
import { Loading } from '../../components/Loading';
import { SearchLink } from '../../components/moderation/ModBadges';
import { dateLabel } from '../../components/market/labels';

const PERIODS = [7, 30, 90] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Every UTC day of the period, oldest first, with its count (0 for a day without views). */
export function fillDays(byDay: readonly { day: string; count: number }[], days: number, today: Date): { day: string; count: number }[] {
  const counts = new Map(byDay.map((d) => [d.day, d.count]));
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(end - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10);
    return { day, count: counts.get(day) ?? 0 };
  });
}

/** Views per day as bars (plain SVG), each bar titled with its day and count; the same figures as a table below. */
function DayChart({ days, label }: { days: { day: string; count: number }[]; label: string }) {
  const { t, i18n } = useTranslation('moderation');
  const titleId = useId();
  const max = Math.max(1, ...days.map((d) => d.count));
  const w = 720;
  const h = 180;
  const bar = w / days.length;
  return (
    <figure style={{ margin: '12px 0' }}>
      <svg viewBox={`0 0 ${w} ${h + 20}`} width="100%" role="img" aria-labelledby={titleId} style={{ maxWidth: w, display: 'block' }}>
        <title id={titleId}>{label}</title>
        <line x1={0} y1={h} x2={w} y2={h} stroke="currentColor" strokeOpacity={0.3} />
        {days.map((d, i) => {
          const bh = Math.round((d.count / max) * (h - 10));
          return (
            <rect key={d.day} x={i * bar + bar * 0.15} y={h - bh} width={bar * 0.7} height={bh} fill="var(--primary, #7b3fa0)" data-day={d.day}>
              <title>{t('views.bar', { date: dateLabel(d.day, i18n.language, true), count: d.count })}</title>
            </rect>
          );
        })}
        <text x={0} y={h + 16} fontSize={12} fill="currentColor">
          {dateLabel(days[0]?.day, i18n.language, true)}
        </text>
        <text x={w} y={h + 16} fontSize={12} textAnchor="end" fill="currentColor">
          {dateLabel(days[days.length - 1]?.day, i18n.language, true)}
        </text>
        <text x={4} y={12} fontSize={12} fill="currentColor">
          {max}
        </text>
      </svg>
    </figure>
  );
}

/** The site's own page views over 7, 30 or 90 days: per day, top pages, top ads, by language. */
export default function PageViews() {
  const { t, i18n } = useTranslation('moderation');
  const { data, loading, error } = useSnapshot(pageViewsStore.state);
  const q = useSnapshot(pageViewsQuery);

  useEffect(() => {
    void pageViewsStore.load();
  }, [q.days]);

  // The days the server counted (its UTC today), not the browser's: a clock a minute ahead at
  // midnight UTC dropped the first day and drew an empty one.
  const days = data ? fillDays(data.byDay, data.days, new Date(`${data.today}T00:00:00Z`)) : [];
  return (
    <section aria-labelledby="views-title">
      <h1 id="views-title">{t('views.title')}</h1>
      <div role="group" aria-label={t('views.period')} style={{ display: 'flex', gap: 8, marginBottom: 12 }}>
        {PERIODS.map((d) => (
          <button
            key={d}
            type="button"
            className={`btn btn-sm ${q.days === d ? 'btn-primary' : 'btn-white'}`}
            aria-pressed={q.days === d}
            onClick={() => (pageViewsQuery.days = d)}
          >
            {t('views.days', { count: d })}
          </button>
        ))}
      </div>
      <FormError message={error} />
      {loading && !data && <Loading />}
      {data && (
        <>
          <p aria-live="polite">
            <strong>{t('views.total', { count: data.total, days: data.days })}</strong>
          </p>
          <DayChart days={days} label={t('views.chart', { days: data.days, count: data.total })} />
          <details>
            <summary id="views-days">{t('views.asTable')}</summary>
            <div style={{ overflowX: 'auto' }}>
              <table className="data" aria-labelledby="views-days">
                <thead>
                  <tr>
                    <th scope="col">{t('views.day')}</th>
                    <th scope="col">{t('views.views')}</th>
                  </tr>
                </thead>
                <tbody>
                  {days.map((d) => (
                    <tr key={d.day}>
                      <td>{dateLabel(d.day, i18n.language, true)}</td>
                      <td>{d.count}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
          {/* One column on a phone, never wider than the screen; each table scrolls in its own box. */}
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(280px, 100%), 1fr))', gap: 24, marginTop: 16 }}>
            <section aria-labelledby="top-pages" style={{ minWidth: 0 }}>
              <h2 id="top-pages" style={{ fontSize: 18 }}>
                {t('views.topPages')}
              </h2>
              {data.topPaths.length === 0 ? (
                <p>{t('views.none')}</p>
              ) : (
                <div style={{ overflowX: 'auto' }}>
                  <table className="data" aria-labelledby="top-pages">
                    <thead>
                      <tr>
                        <th scope="col">{t('views.page')}</th>
                        <th scope="col">{t('views.views')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.topPaths.map((p) => (
                        <tr key={p.path}>
                          <td style={{ overflowWrap: 'anywhere' }}>
                            <code>{p.path}</code>
                          </td>
                          <td>{p.count}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </section>
            <section aria-labelledby="top-ads" style={{ minWidth: 0 }}>
              <h2 id="top-ads" style={{ fontSize: 18 }}>
                {t('views.topAds')}
              </h2>
              {data.topAds.length === 0 ? (
                <p>{t('views.none')}</p>
              ) : (
                <div style={{ overflowX: 'auto' }}>
                  <table className="data" aria-labelledby="top-ads">
                    <thead>
                      <tr>
                        <th scope="col">{t('views.ad')}</th>
                        <th scope="col">{t('views.views')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.topAds.map((a) => (
                        <tr key={a.adId}>
                          <td style={{ overflowWrap: 'anywhere' }}>
                            <SearchLink query={a.adId}>{a.title ?? t('views.adGone', { id: a.adId })}</SearchLink>
                          </td>
                          <td>{a.count}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </section>
            <section aria-labelledby="by-language" style={{ minWidth: 0 }}>
              <h2 id="by-language" style={{ fontSize: 18 }}>
                {t('views.byLanguage')}
              </h2>
              <ul>
                {data.byLocale.map((l) => (
                  <li key={l.locale}>
                    {t(`views.languages.${l.locale}`)}: {l.count}
                  </li>
                ))}
              </ul>
            </section>
          </div>
        </>
      )}
    </section>
  );
}
