import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { adminReportsStore, setReportStatus } from '../../state/reports';
import { errorMessage } from '../../api/client';
import type { ReportKind, ReportStatus } from '../../api/reports';

const PAGE_SIZE = 20;
const KINDS: ReportKind[] = ['trafficking', 'ad', 'law_enforcement', 'contact'];

/** Staff's list of visitor reports, newest first, with open/closed filters (admin screen). */
export default function Reports() {
  const { t, i18n } = useTranslation('pages');
  const snap = useSnapshot(adminReportsStore.state);
  const [status, setStatus] = useState<ReportStatus | ''>('open');
  const [kind, setKind] = useState<ReportKind | ''>('');
  const [page, setPage] = useState(1);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    void adminReportsStore.load({ page, pageSize: PAGE_SIZE, status: status || undefined, kind: kind || undefined });
  }, [page, status, kind]);

  const total = snap.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const fmt = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  const toggle = async (id: string, to: ReportStatus) => {
    setBusy(id);
    try {
      await setReportStatus(id, to);
      setNotice(t('adminReports.updated', { id, status: t(`adminReports.statuses.${to}`) }));
    } catch (e) {
      setNotice(errorMessage(e));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section>
      <h1>{t('adminReports.title')}</h1>
      <p>{t('adminReports.intro')}</p>
      <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap', alignItems: 'flex-end' }}>
        <div className="field">
          <label htmlFor="rep-status">{t('adminReports.status')}</label>
          <select
            id="rep-status"
            value={status}
            onChange={(e) => {
              setPage(1);
              setStatus(e.target.value as ReportStatus | '');
            }}
          >
            <option value="">{t('adminReports.any')}</option>
            <option value="open">{t('adminReports.statuses.open')}</option>
            <option value="closed">{t('adminReports.statuses.closed')}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="rep-kind">{t('adminReports.kind')}</label>
          <select
            id="rep-kind"
            value={kind}
            onChange={(e) => {
              setPage(1);
              setKind(e.target.value as ReportKind | '');
            }}
          >
            <option value="">{t('adminReports.any')}</option>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`adminReports.kinds.${k}`)}
              </option>
            ))}
          </select>
        </div>
        <p style={{ marginLeft: 'auto' }}>{t('adminReports.total', { count: total })}</p>
      </div>
      <p role="status" aria-live="polite">
        {snap.loading ? t('adminReports.loading') : notice}
      </p>
      {snap.error && (
        <p className="alert alert-error" role="alert">
          {snap.error}
        </p>
      )}
      {snap.data && snap.data.reports.length === 0 && !snap.loading && <p className="alert alert-info">{t('adminReports.none')}</p>}
      {snap.data && snap.data.reports.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="data">
            <thead>
              <tr>
                <th scope="col">{t('adminReports.received')}</th>
                <th scope="col">{t('adminReports.kind')}</th>
                <th scope="col">{t('adminReports.message')}</th>
                <th scope="col">{t('adminReports.contact')}</th>
                <th scope="col">{t('adminReports.status')}</th>
                <th scope="col">{t('adminReports.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {snap.data.reports.map((r) => (
                <tr key={r.id}>
                  <td>
                    <time dateTime={r.createdAt}>{fmt.format(new Date(r.createdAt))}</time>
                    {r.ipHash && (
                      <div style={{ fontSize: 12, color: '#6b6470' }} title={t('adminReports.sender')}>
                        #{r.ipHash.slice(0, 8)}
                      </div>
                    )}
                  </td>
                  <td>
                    {t(`adminReports.kinds.${r.kind}`)}
                    {r.adId && (
                      <div>
                        <Link href={`~/ad/${r.adId}`}>{t('adminReports.viewAd')}</Link>
                      </div>
                    )}
                  </td>
                  <td style={{ whiteSpace: 'pre-wrap', maxWidth: 480 }}>{r.message}</td>
                  <td>{r.contact ?? <em>{t('adminReports.anonymous')}</em>}</td>
                  <td>{t(`adminReports.statuses.${r.status}`)}</td>
                  <td>
                    <button
                      type="button"
                      className={`btn btn-sm ${r.status === 'open' ? 'btn-success' : 'btn-white'}`}
                      disabled={busy === r.id}
                      onClick={() => void toggle(r.id, r.status === 'open' ? 'closed' : 'open')}
                      aria-label={`${r.status === 'open' ? t('adminReports.close') : t('adminReports.reopen')} ${r.id}`}
                    >
                      {r.status === 'open' ? t('adminReports.close') : t('adminReports.reopen')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 && (
        <nav aria-label={t('adminReports.pageOf', { page, pages })} style={{ display: 'flex', gap: 10, alignItems: 'center', marginTop: 12 }}>
          <button type="button" className="btn btn-sm btn-white" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t('adminReports.prev')}
          </button>
          <span>{t('adminReports.pageOf', { page, pages })}</span>
          <button type="button" className="btn btn-sm btn-white" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            {t('adminReports.next')}
          </button>
        </nav>
      )}
    </section>
  );
}
