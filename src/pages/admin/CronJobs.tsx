import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useSnapshot } from 'valtio';
import { adminCronJobsStore, cronQuery, deleteCronRun, loadCronJobs, runCronJob, runDuration } from '../../state/adminCronJobs';
import { asError, errorMessage } from '../../api/client';
import { sayIt } from '../../lib/said';
import { durationLabel } from '../../lib/duration';
import type { CronRun, CronSchedule } from '../../api/cron';
import { ConfirmDialog } from '../../components/market/ConfirmDialog';
import { Pager } from '../../components/forms/Pager';
import { LoadState } from '../../components/market/Status';
import styles from '../../components/market/market.module.css';

const tone: Record<string, string> = { ok: styles.badgeOn, failed: styles.badgeBad, running: styles.badgeWarn };

/** An outcome as a word on a coloured label (the colour only repeats what the word says). */
function Outcome({ outcome }: { outcome: string }) {
  const { t } = useTranslation('admin');
  return <span className={`${styles.badge} ${tone[outcome] ?? ''}`}>{t(`cronJobs.outcomes.${outcome}`, { defaultValue: outcome })}</span>;
}

/** A note kept unworded: worded at each render with the page's t and language, so a language switch re-words it. */
type Note = { kind: 'ok' | 'failed'; word: (t: TFunction<'admin'>, lang: string) => string };

/** A run's message in the page's language (runs recorded before it was kept as a code show the server's English words). */
const runMessage = (t: TFunction, r: Pick<CronRun, 'message' | 'says'>, lang: string) => (r.says ? sayIt(t, r.says, r.message ?? '', lang) : (r.message ?? ''));

/** Admin: the in-process jobs (schedule, next run, last outcome, run now) and their recorded runs, newest first, deletable. */
export default function CronJobs() {
  const { t, i18n } = useTranslation('admin');
  const { data, loading, error } = useSnapshot(adminCronJobsStore.state);
  const query = useSnapshot(cronQuery);
  const [deleting, setDeleting] = useState<CronRun | null>(null);
  const [busy, setBusy] = useState(false);
  // Failures are kept as the errors, worded at render.
  const [deleteError, setDeleteError] = useState<Error | null>(null);
  const [note, setNote] = useState<Note | null>(null);
  const [runningName, setRunningName] = useState<string | null>(null);
  const [runError, setRunError] = useState<Error | null>(null);

  useEffect(() => {
    void loadCronJobs({ page: 1 });
  }, []);

  const lang = i18n.language;
  const when = (iso: string) => new Date(iso).toLocaleString(lang);

  async function runNow(name: string) {
    setRunningName(name);
    setNote(null);
    setRunError(null);
    try {
      const run = await runCronJob(name);
      const word = (tr: TFunction<'admin'>, lng: string) => {
        const outcome = tr(`cronJobs.outcomes.${run.outcome}`, { defaultValue: run.outcome });
        const said = runMessage(tr, run, lng);
        return tr('cronJobs.ran', { name, outcome }) + (said ? ` ${said}` : '');
      };
      setNote({ kind: run.outcome === 'ok' ? 'ok' : 'failed', word });
    } catch (e) {
      setRunError(asError(e));
    } finally {
      setRunningName(null);
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    setBusy(true);
    setDeleteError(null);
    try {
      await deleteCronRun(deleting.id);
      const { name } = deleting;
      setNote({ kind: 'ok', word: (tr) => tr('cronJobs.deleted', { name }) });
      setDeleting(null);
    } catch (e) {
      setDeleteError(asError(e));
    } finally {
      setBusy(false);
    }
  }

  const schedules = (data?.schedules ?? []) as readonly CronSchedule[];
  const runs = (data?.cronJobs ?? []) as readonly CronRun[];

  return (
    <section aria-labelledby="cron-title">
      <h1 id="cron-title">{t('cronJobs.title')}</h1>

      {note && (
        <div role="status" className={`alert ${note.kind === 'ok' ? 'alert-success' : 'alert-error'}`}>
          {note.word(t, lang)}
        </div>
      )}
      {runError && (
        <div role="alert" className="alert alert-error">
          {errorMessage(runError)}
        </div>
      )}

      <h2 style={{ fontSize: 18 }}>{t('cronJobs.schedules')}</h2>
      {data && !schedules.length && <p>{t('cronJobs.noJobs')}</p>}
      {schedules.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="data" aria-label={t('cronJobs.schedules')}>
            <thead>
              <tr>
                <th scope="col">{t('cronJobs.job')}</th>
                <th scope="col">{t('cronJobs.schedule')}</th>
                <th scope="col">{t('cronJobs.nextRun')}</th>
                <th scope="col">{t('cronJobs.lastOutcome')}</th>
                <th scope="col">{t('actions')}</th>
              </tr>
            </thead>
            <tbody>
              {schedules.map((j) => (
                <tr key={j.name}>
                  <td>
                    <code>{j.name}</code>
                  </td>
                  <td>
                    <code>{j.cron}</code>
                  </td>
                  <td style={{ whiteSpace: 'nowrap' }}>{j.nextRunAt ? <time dateTime={j.nextRunAt}>{when(j.nextRunAt)}</time> : t('cronJobs.notScheduled')}</td>
                  <td>{j.lastOutcome ? <Outcome outcome={j.lastOutcome} /> : t('cronJobs.never')}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-sm btn-primary"
                      aria-label={t('cronJobs.runJob', { name: j.name })}
                      disabled={runningName !== null}
                      aria-busy={runningName === j.name || undefined}
                      onClick={() => void runNow(j.name)}
                    >
                      {runningName === j.name ? t('cronJobs.runningNow') : t('cronJobs.runNow')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2 style={{ fontSize: 18, marginTop: 24 }}>{t('cronJobs.runs')}</h2>
      <div className="field" style={{ maxWidth: 320 }}>
        <label htmlFor="cron-name">{t('cronJobs.filter')}</label>
        <select id="cron-name" value={query.name} onChange={(e) => void loadCronJobs({ name: e.target.value, page: 1 })}>
          <option value="">{t('cronJobs.allJobs')}</option>
          {schedules.map((j) => (
            <option key={j.name} value={j.name}>
              {j.name}
            </option>
          ))}
        </select>
      </div>
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
                    <Outcome outcome={r.outcome} />
                  </td>
                  <td style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap', maxWidth: 420 }}>{runMessage(t, r, lang)}</td>
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
              {errorMessage(deleteError)}
            </div>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}
