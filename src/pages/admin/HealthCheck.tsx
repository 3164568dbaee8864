import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useSnapshot } from 'valtio';
import { deleteHealthCheck, healthChecksStore, healthQuery, loadHealthChecks, runHealthChecks } from '../../state/health';
import { asError, errorMessage } from '../../api/client';
import { sayIt } from '../../lib/said';
import { durationLabel } from '../../lib/duration';
import type { HealthCheck as Check } from '../../api/health';
import { ConfirmDialog } from '../../components/market/ConfirmDialog';
import { Pager } from '../../components/forms/Pager';
import { LoadState } from '../../components/market/Status';
import styles from '../../components/market/market.module.css';

const tone: Record<string, string> = { ok: styles.badgeOn, degraded: styles.badgeWarn, failing: styles.badgeBad };
/** The checks the server makes, in its order (for the filter before any result is loaded). */
const CHECKS = ['database', 'disk', 'memory', 'smtp', 'payment-server', 'sms'];

const checkLabel = (t: TFunction, name: string) => t(`healthCheck.names.${name}`, { defaultValue: name });

/** A note kept unworded: worded at each render with the page's t and language, so a language switch re-words it. */
type Note = { word: (t: TFunction<'admin'>, lang: string) => string };

/** A check's status as a word on a coloured label (the colour only repeats what the word says). */
function Status({ status }: { status: string }) {
  const { t } = useTranslation('admin');
  return <span className={`${styles.badge} ${tone[status] ?? ''}`}>{t(`healthCheck.statuses.${status}`, { defaultValue: status })}</span>;
}

/** Admin: the latest result of each health check on top, run them now, and the history below (newest first), deletable. */
export default function HealthCheck() {
  const { t, i18n } = useTranslation('admin');
  const { data, loading, error } = useSnapshot(healthChecksStore.state);
  const query = useSnapshot(healthQuery);
  const [running, setRunning] = useState(false);
  // Failures are kept as the errors, worded at render.
  const [runError, setRunError] = useState<Error | null>(null);
  const [note, setNote] = useState<Note | null>(null);
  const [deleting, setDeleting] = useState<Check | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<Error | null>(null);

  useEffect(() => {
    void loadHealthChecks({ page: 1 });
  }, []);

  const lang = i18n.language;
  const when = (iso: string) => new Date(iso).toLocaleString(lang);

  async function runNow() {
    setRunning(true);
    setRunError(null);
    setNote(null);
    try {
      const rows = await runHealthChecks();
      const at = rows[0]?.checkedAt;
      setNote({ word: (tr, lng) => tr('healthCheck.ran', { at: at ? new Date(at).toLocaleString(lng) : '' }) });
    } catch (e) {
      setRunError(asError(e));
    } finally {
      setRunning(false);
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    setBusy(true);
    setDeleteError(null);
    try {
      await deleteHealthCheck(deleting.id);
      const { name } = deleting;
      setNote({ word: (tr) => tr('healthCheck.deleted', { name: checkLabel(tr, name) }) });
      setDeleting(null);
    } catch (e) {
      setDeleteError(asError(e));
    } finally {
      setBusy(false);
    }
  }

  const latest = (data?.latest ?? []) as readonly Check[];
  const history = (data?.healthChecks ?? []) as readonly Check[];
  // The newest result of each check is its current state: the server refuses to delete it (409).
  const current = new Set(latest.map((c) => c.id));
  const names = [...new Set([...CHECKS, ...latest.map((c) => c.name)])];

  return (
    <section aria-labelledby="health-title">
      <h1 id="health-title">{t('healthCheck.title')}</h1>
      <p>
        <button type="button" className="btn btn-primary" onClick={() => void runNow()} disabled={running} aria-busy={running || undefined}>
          {running ? t('healthCheck.running') : t('healthCheck.runNow')}
        </button>
      </p>
      {note && (
        <div role="status" className="alert alert-success">
          {note.word(t, lang)}
        </div>
      )}
      {runError && (
        <div role="alert" className="alert alert-error">
          {errorMessage(runError)}
        </div>
      )}
      <LoadState loading={loading && !data} error={error} />

      <h2 style={{ fontSize: 18 }}>{t('healthCheck.latest')}</h2>
      {data && !latest.length && <p>{t('healthCheck.noResults')}</p>}
      {latest.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="data" aria-label={t('healthCheck.latest')}>
            <thead>
              <tr>
                <th scope="col">{t('healthCheck.check')}</th>
                <th scope="col">{t('healthCheck.status')}</th>
                <th scope="col">{t('healthCheck.message')}</th>
                <th scope="col">{t('healthCheck.checkedAt')}</th>
              </tr>
            </thead>
            <tbody>
              {latest.map((c) => (
                <tr key={c.id}>
                  <th scope="row">{checkLabel(t, c.name)}</th>
                  <td>
                    <Status status={c.status} />
                  </td>
                  <td style={{ overflowWrap: 'anywhere', maxWidth: 480 }}>{c.says ? sayIt(t, c.says, c.message, lang) : c.message}</td>
                  <td style={{ whiteSpace: 'nowrap' }}>
                    <time dateTime={c.checkedAt}>{when(c.checkedAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2 style={{ fontSize: 18, marginTop: 24 }}>{t('healthCheck.history')}</h2>
      <div className="field" style={{ maxWidth: 320 }}>
        <label htmlFor="health-name">{t('healthCheck.filter')}</label>
        <select id="health-name" value={query.name} onChange={(e) => void loadHealthChecks({ name: e.target.value, page: 1 })}>
          <option value="">{t('healthCheck.allChecks')}</option>
          {names.map((n) => (
            <option key={n} value={n}>
              {checkLabel(t, n)}
            </option>
          ))}
        </select>
      </div>
      {data && !history.length && <p>{t('healthCheck.empty')}</p>}
      {history.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="data" aria-busy={loading || undefined} aria-label={t('healthCheck.history')}>
            <caption className="visually-hidden">{t('total', { count: data?.total ?? 0 })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('healthCheck.checkedAt')}</th>
                <th scope="col">{t('healthCheck.check')}</th>
                <th scope="col">{t('healthCheck.status')}</th>
                <th scope="col">{t('healthCheck.message')}</th>
                <th scope="col">{t('healthCheck.duration')}</th>
                <th scope="col">{t('actions')}</th>
              </tr>
            </thead>
            <tbody>
              {history.map((c) => (
                <tr key={c.id}>
                  <td style={{ whiteSpace: 'nowrap' }}>
                    <time dateTime={c.checkedAt}>{when(c.checkedAt)}</time>
                  </td>
                  <td>{checkLabel(t, c.name)}</td>
                  <td>
                    <Status status={c.status} />
                  </td>
                  <td style={{ overflowWrap: 'anywhere', maxWidth: 420 }}>{c.says ? sayIt(t, c.says, c.message, lang) : c.message}</td>
                  <td style={{ whiteSpace: 'nowrap' }}>{durationLabel(t, lang, c.durationMs)}</td>
                  <td>
                    {current.has(c.id) ? (
                      <small>{t('healthCheck.current')}</small>
                    ) : (
                      <button
                        type="button"
                        className="btn btn-sm btn-danger"
                        aria-haspopup="dialog"
                        aria-label={t('healthCheck.deleteResult', { name: checkLabel(t, c.name), at: when(c.checkedAt) })}
                        onClick={() => {
                          setNote(null);
                          setDeleteError(null);
                          setDeleting(c);
                        }}
                      >
                        {t('healthCheck.delete')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label={t('healthCheck.pages')}
        page={query.page}
        pageSize={query.pageSize}
        total={data?.total ?? 0}
        disabled={loading}
        onPage={(page) => void loadHealthChecks({ page })}
      />

      {deleting && (
        <ConfirmDialog
          title={t('healthCheck.confirmTitle')}
          confirmLabel={t('healthCheck.delete')}
          danger
          busy={busy}
          onConfirm={() => void confirmDelete()}
          onCancel={() => {
            setDeleting(null);
            setDeleteError(null);
          }}
        >
          <p>{t('healthCheck.confirmText', { name: checkLabel(t, deleting.name), at: when(deleting.checkedAt) })}</p>
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
