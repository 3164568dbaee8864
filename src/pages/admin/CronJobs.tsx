import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useSnapshot } from 'valtio';
import { adminCronJobsStore, cronQuery, deleteCronRun, loadCronJobs, runDuration } from '../../state/adminCronJobs';
import { errorMessage } from '../../api/client';
import type { CronRun } from '../../api/cron';
import { ConfirmDialog } from '../../components/market/ConfirmDialog';
import { Pager } from '../../components/forms/Pager';
import { LoadState } from '../../components/market/Status';
import styles from '../../components/market/market.module.css';

const tone: Record<string, string> = { ok: styles.badgeOn, error: styles.badgeBad, running: styles.badgeWarn };

function durationLabel(t: TFunction, lang: string, ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return t('cronJobs.durationMs', { n: ms });
  const seconds = ms / 1000;
  if (seconds < 60) return t('cronJobs.durationSeconds', { n: seconds.toLocaleString(lang, { maximumFractionDigits: 1 }) });
  return t('cronJobs.durationMinutes', { m: Math.floor(seconds / 60), s: Math.round(seconds % 60) });
}

/** Admin: the in-process jobs with their schedules, and their recorded runs (newest first), deletable one by one. */
export default function CronJobs() {
  const { t, i18n } = useTranslation('admin');
  const { data, loading, error } = useSnapshot(adminCronJobsStore.state);
  const query = useSnapshot(cronQuery);
  const [deleting, setDeleting] = useState<CronRun | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);

  useEffect(() => {
    void loadCronJobs({ page: 1 });
  }, []);

  async function confirmDelete() {
    if (!deleting) return;
    setBusy(true);
    setDeleteError(null);
    try {
      await deleteCronRun(deleting.id);
      setNote(t('cronJobs.deleted', { name: deleting.name }));
      setDeleting(null);
    } catch (e) {
      setDeleteError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  const lang = i18n.language;
  const when = (iso: string) => new Date(iso).toLocaleString(lang);
  const jobs = data?.jobs ?? [];
  const runs = (data?.cronJobs ?? []) as readonly CronRun[];

  return (
    <section aria-labelledby="cron-title">
      <h1 id="cron-title">{t('cronJobs.title')}</h1>

      <h2 style={{ fontSize: 18 }}>{t('cronJobs.registered')}</h2>
      {data && !jobs.length && <p>{t('cronJobs.noJobs')}</p>}
      {jobs.length > 0 && (
        <table className="data" aria-label={t('cronJobs.registered')}>
          <thead>
            <tr>
              <th scope="col">{t('cronJobs.job')}</th>
              <th scope="col">{t('cronJobs.schedule')}</th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((j) => (
              <tr key={j.name}>
                <td>
                  <code>{j.name}</code>
                </td>
                <td>
                  <code>{j.schedule}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h2 style={{ fontSize: 18, marginTop: 24 }}>{t('cronJobs.runs')}</h2>
      <div className="field" style={{ maxWidth: 320 }}>
        <label htmlFor="cron-name">{t('cronJobs.filter')}</label>
        <select id="cron-name" value={query.name} onChange={(e) => void loadCronJobs({ name: e.target.value, page: 1 })}>
          <option value="">{t('cronJobs.allJobs')}</option>
          {jobs.map((j) => (
            <option key={j.name} value={j.name}>
              {j.name}
            </option>
          ))}
        </select>
      </div>
      {note && (
        <div role="status" className="alert alert-success">
          {note}
        </div>
      )}
      <LoadState loading={loading && !data} error={error} />
      {data && !runs.length && <p>{t('cronJobs.empty')}</p>}
      {runs.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="data" aria-busy={loading || undefined} aria-label={t('cronJobs.runs')}>
            <caption className="visually-hidden">{t('total', { count: data?.total ?? 0 })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('cronJobs.job')}</th>
                <th scope="col">{t('cronJobs.started')}</th>
                <th scope="col">{t('cronJobs.finished')}</th>
                <th scope="col">{t('cronJobs.duration')}</th>
                <th scope="col">{t('cronJobs.outcome')}</th>
                <th scope="col">{t('cronJobs.message')}</th>
                <th scope="col">{t('actions')}</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr key={r.id}>
                  <td>
                    <code>{r.name}</code>
                  </td>
                  <td style={{ whiteSpace: 'nowrap' }}>
                    <time dateTime={r.startedAt}>{when(r.startedAt)}</time>
                  </td>
                  <td style={{ whiteSpace: 'nowrap' }}>{r.finishedAt ? <time dateTime={r.finishedAt}>{when(r.finishedAt)}</time> : '—'}</td>
                  <td style={{ whiteSpace: 'nowrap' }}>{durationLabel(t, lang, runDuration(r.startedAt, r.finishedAt))}</td>
                  <td>
                    <span className={`${styles.badge} ${tone[r.outcome] ?? ''}`}>{t(`cronJobs.outcomes.${r.outcome}`, { defaultValue: r.outcome })}</span>
                  </td>
                  <td style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap', maxWidth: 420 }}>{r.message ?? ''}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-sm btn-danger"
                      aria-haspopup="dialog"
                      aria-label={t('cronJobs.deleteRun', { name: r.name, at: when(r.startedAt) })}
                      onClick={() => {
                        setNote(null);
                        setDeleteError(null);
                        setDeleting(r);
                      }}
                    >
                      {t('cronJobs.delete')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label={t('cronJobs.pages')}
        page={query.page}
        pageSize={query.pageSize}
        total={data?.total ?? 0}
        disabled={loading}
        onPage={(page) => void loadCronJobs({ page })}
      />

      {deleting && (
        <ConfirmDialog
          title={t('cronJobs.confirmTitle')}
          confirmLabel={t('cronJobs.delete')}
          danger
          busy={busy}
          onConfirm={() => void confirmDelete()}
          onCancel={() => {
            setDeleting(null);
            setDeleteError(null);
          }}
        >
          <p>{t('cronJobs.confirmText', { name: deleting.name, at: when(deleting.startedAt) })}</p>
          {deleteError && (
            <div role="alert" className="alert alert-error">
              {deleteError}
            </div>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}
