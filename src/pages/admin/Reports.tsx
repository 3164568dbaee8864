import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useSnapshot } from 'valtio';
import { REPORTS_PAGE_SIZE, adminReportsStore, closeReport, loadReports, reloadReports, reportsQuery, setReportStatus } from '../../state/reports';
import { placeHold } from '../../state/moderation';
import { adminAdsApi } from '../../api/admin-ads';
import { asError, errorMessage, shownError } from '../../api/client';
import type { Report, ReportKind, ReportStatus } from '../../api/reports';
import { sessionStore } from '../../state/session';
import { ConfirmDialog } from '../../components/market/ConfirmDialog';
import { NoteDialog } from '../../components/moderation/NoteDialog';
import { BusyButton } from '../../components/forms/BusyButton';
import { HeldBadge, ModStatus, SearchLink, UserLink } from '../../components/moderation/ModBadges';
import styles from '../../components/market/market.module.css';
import { lastPageOf } from '../../state/paging';

const KINDS: ReportKind[] = ['trafficking', 'ad', 'law_enforcement', 'contact'];

type Action = { kind: 'disable' | 'hold' | 'close'; report: Report } | null;
/** What was done, worded with the page's t at each render. */
type Said = (t: TFunction<['pages', 'moderation']>) => string;

/**
 * Staff's list of visitor reports: open urgent ones (trafficking, law enforcement) first, then
 * newest first. Each report shows the ad it names beside it (photo, title, status, owner) and is
 * acted on from here: disable the ad, open the owner's user screen, place a legal hold, close with
 * a note (audited).
 */
export default function Reports() {
  const { t, i18n } = useTranslation(['pages', 'moderation']);
  const snap = useSnapshot(adminReportsStore.state);
  const me = useSnapshot(sessionStore).session.id;
  // The filters live in the store (reportsQuery): coming back from a reported ad's owner finds them.
  const { status, kind, page } = useSnapshot(reportsQuery);
  // Kept unworded (what was done, as a function of the page's t; a failure as the error) and
  // worded at render: a language switch re-words it.
  const [notice, setNotice] = useState<{ word: Said } | Error | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [action, setAction] = useState<Action>(null);
  const [actionError, setActionError] = useState<Error | null>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    void loadReports();
  }, [page, status, kind]);

  const total = snap.data?.total ?? 0;
  const pages = lastPageOf(total, REPORTS_PAGE_SIZE);
  const fmt = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  /** Reads the list again after a change: the ad's status, the hold, the order change, and a report whose status changed leaves a list filtered by status. */
  const reload = () => reloadReports();

  const reopen = async (id: string) => {
    setBusy(id);
    try {
      await setReportStatus(id, 'open');
      setNotice({ word: (tr) => tr('adminReports.updated', { id, status: tr('adminReports.statuses.open') }) });
      // Not patched in place: in the list of closed reports the reopened one would stay, and the count be wrong.
      await reload();
      // Its row left that list with the Reopen button (or focus was lost some other way): focus goes
      // to the outcome, not to the page's body. A row still listed keeps it on its button.
      const stays = adminReportsStore.state.data?.reports.some((r) => r.id === id);
      if (!stays || !document.activeElement || document.activeElement === document.body) statusRef.current?.focus();
    } catch (e) {
      setNotice(asError(e));
    } finally {
      setBusy(null);
    }
  };

  /**
   * Runs a dialog's action, then reloads the list. The dialog stays open (busy) until the list is
   * read again: closed first, it would give focus back to its opener just before the reload
   * removes it (a closed report leaves the open ones, a disabled ad's Disable button goes), and
   * focus would fall to the page's body; closed after, Dialog puts focus on the page's heading.
   */
  const act = async (run: () => Promise<unknown>, message: Said) => {
    setActionError(null);
    setBusy(action?.report.id ?? null);
    try {
      await run();
      setNotice({ word: message });
      await reload();
      setAction(null);
    } catch (e) {
      setActionError(asError(e));
    } finally {
      setBusy(null);
    }
  };
  const cancel = () => {
    setAction(null);
    setActionError(null);
  };

  return (
    <section>
      <h1 id="reports-title">{t('adminReports.title')}</h1>
      <p>{t('adminReports.intro')}</p>
      <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap', alignItems: 'flex-end' }}>
        <div className="field">
          <label htmlFor="rep-status">{t('adminReports.status')}</label>
          <select
            id="rep-status"
            value={status}
            onChange={(e) => {
              Object.assign(reportsQuery, { page: 1, status: e.target.value as ReportStatus | '' });
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
              Object.assign(reportsQuery, { page: 1, kind: e.target.value as ReportKind | '' });
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
      <p ref={statusRef} role="status" aria-live="polite" tabIndex={-1}>
        {snap.loading ? t('adminReports.loading') : !notice ? '' : notice instanceof Error ? errorMessage(notice) : notice.word(t)}
      </p>
      {snap.error && (
        <p className="alert alert-error" role="alert">
          {errorMessage(snap.error)}
        </p>
      )}
      {snap.data && snap.data.reports.length === 0 && !snap.loading && <p className="alert alert-info">{t('adminReports.none')}</p>}
      {snap.data && snap.data.reports.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="data" aria-labelledby="reports-title">
            <thead>
              <tr>
                <th scope="col">{t('adminReports.received')}</th>
                <th scope="col">{t('adminReports.kind')}</th>
                <th scope="col">{t('adminReports.message')}</th>
                <th scope="col">{t('adminReports.ad')}</th>
                <th scope="col">{t('adminReports.status')}</th>
                <th scope="col">{t('adminReports.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {snap.data.reports.map((r) => (
                <tr key={r.id} aria-label={t('moderation:report.row', { kind: t(`adminReports.kinds.${r.kind}`), date: fmt.format(new Date(r.createdAt)) })}>
                  <td>
                    <time dateTime={r.createdAt}>{fmt.format(new Date(r.createdAt))}</time>
                    {r.ipHash && (
                      <div style={{ fontSize: 12, color: '#6b6470' }} title={t('adminReports.sender')}>
                        #{r.ipHash.slice(0, 8)}
                      </div>
                    )}
                  </td>
                  <td>
                    {r.urgent && (
                      <strong className={`${styles.badge} ${styles.badgeBad}`} style={{ display: 'inline-block', marginBottom: 4 }}>
                        {t('moderation:report.urgent')}
                      </strong>
                    )}
                    <div>{t(`adminReports.kinds.${r.kind}`)}</div>
                  </td>
                  <td style={{ whiteSpace: 'pre-wrap', maxWidth: 420 }}>
                    {r.ad?.ownerId === me ? (
                      <em>{t('moderation:report.aboutYourAd')}</em>
                    ) : (
                      <>
                        {r.message}
                        <small style={{ display: 'block', marginTop: 4 }}>
                          {t('adminReports.contact')}: {r.contact ?? <em>{t('adminReports.anonymous')}</em>}
                        </small>
                      </>
                    )}
                  </td>
                  <td style={{ minWidth: 220 }}>
                    {r.ad ? (
                      <div style={{ display: 'flex', gap: 8 }}>
                        {r.ad.thumbUrl && <img src={r.ad.thumbUrl} alt="" width={72} height={54} style={{ objectFit: 'cover', borderRadius: 4 }} />}
                        <div>
                          <SearchLink query={r.ad.id}>
                            <span dir="auto">{r.ad.title}</span>
                          </SearchLink>
                          <div>
                            <ModStatus status={r.ad.status} /> {r.ad.held && <HeldBadge />}
                          </div>
                          <small>
                            <UserLink id={r.ad.ownerId} label={r.ad.ownerEmail} />
                          </small>
                        </div>
                      </div>
                    ) : r.adId ? (
                      <span>{t('moderation:report.adGone', { id: r.adId })}</span>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td>{t(`adminReports.statuses.${r.status}`)}</td>
                  <td>
                    <div style={{ display: 'flex', flexDirection: 'column', gap: 6, alignItems: 'flex-start' }}>
                      {/* An expired ad too, as the approved-ads list: its owner could otherwise renew a reported ad straight back into view. */}
                      {r.ad && (r.ad.status === 'approved' || r.ad.status === 'expired') && r.ad.ownerId !== me && (
                        <BusyButton
                          className="btn btn-sm btn-danger"
                          aria-haspopup="dialog"
                          busy={busy === r.id}
                          onClick={() => setAction({ kind: 'disable', report: r })}
                        >
                          {t('moderation:report.disableAd')}
                        </BusyButton>
                      )}
                      {r.ad && <UserLink id={r.ad.ownerId} label={t('moderation:report.openUser')} name={r.ad.ownerEmail} />}
                      {r.ad && r.ad.ownerId !== me && (
                        <BusyButton
                          className="btn btn-sm btn-white"
                          aria-haspopup="dialog"
                          busy={busy === r.id}
                          onClick={() => setAction({ kind: 'hold', report: r })}
                        >
                          {t('moderation:holds.place')}
                        </BusyButton>
                      )}
                      {r.ad?.ownerId === me ? null : r.status === 'open' ? (
                        <BusyButton
                          className="btn btn-sm btn-success"
                          aria-haspopup="dialog"
                          busy={busy === r.id}
                          onClick={() => setAction({ kind: 'close', report: r })}
                        >
                          {t('moderation:report.closeWithNote')}
                        </BusyButton>
                      ) : (
                        <BusyButton className="btn btn-sm btn-white" busy={busy === r.id} onClick={() => void reopen(r.id)}>
                          {t('adminReports.reopen')}
                        </BusyButton>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 && (
        <nav aria-label={t('adminReports.pageOf', { page, pages })} style={{ display: 'flex', gap: 10, alignItems: 'center', marginTop: 12 }}>
          {/* At either end refused, not `disabled`: pressing Next onto the last page leaves focus on it. */}
          <BusyButton
            className="btn btn-sm btn-white"
            busy={false}
            disabled={page <= 1}
            onClick={() => {
              reportsQuery.page = page - 1;
            }}
          >
            {t('adminReports.prev')}
          </BusyButton>
          <span>{t('adminReports.pageOf', { page, pages })}</span>
          <BusyButton
            className="btn btn-sm btn-white"
            busy={false}
            disabled={page >= pages}
            onClick={() => {
              reportsQuery.page = page + 1;
            }}
          >
            {t('adminReports.next')}
          </BusyButton>
        </nav>
      )}

      {action?.kind === 'disable' && action.report.ad && (
        <ConfirmDialog
          title={t('moderation:report.disableTitle', { title: action.report.ad.title })}
          confirmLabel={t('moderation:report.disableConfirm')}
          danger
          busy={busy !== null}
          onCancel={cancel}
          onConfirm={() => {
            const ad = action.report.ad!;
            void act(
              () => adminAdsApi.setAdStatus([ad.id], 'disabled'),
              (tr) => tr('moderation:report.disabled', { title: ad.title }),
            );
          }}
        >
          <p>{t('moderation:report.disableEffect', { email: action.report.ad.ownerEmail })}</p>
          {actionError && (
            <div role="alert" className="alert alert-error">
              {errorMessage(actionError)}
            </div>
          )}
        </ConfirmDialog>
      )}
      {action?.kind === 'hold' && action.report.ad && (
        <NoteDialog
          keepAs={`hold:ad:${action.report.ad.id}`}
          title={t('moderation:holds.placeAdTitle', { title: action.report.ad.title })}
          label={t('moderation:holds.reasonLabel')}
          confirmLabel={t('moderation:holds.placeConfirm')}
          busy={busy !== null}
          error={shownError(actionError)}
          onCancel={cancel}
          onConfirm={(reason) => {
            const ad = action.report.ad!;
            void act(
              () => placeHold('ad', ad.id, reason),
              (tr) => tr('moderation:holds.placeAdDone', { title: ad.title }),
            );
          }}
        >
          <p>{t('moderation:holds.explain')}</p>
        </NoteDialog>
      )}
      {action?.kind === 'close' && (
        <NoteDialog
          keepAs={`close:${action.report.id}`}
          title={t('moderation:report.closeTitle', {
            kind: t(`adminReports.kinds.${action.report.kind}`),
            date: fmt.format(new Date(action.report.createdAt)),
          })}
          label={t('moderation:report.noteLabel')}
          confirmLabel={t('moderation:report.closeConfirm')}
          busy={busy !== null}
          error={shownError(actionError)}
          onCancel={cancel}
          onConfirm={(note) =>
            void act(
              () => closeReport(action.report.id, note),
              (tr) => tr('adminReports.updated', { id: action.report.id, status: tr('adminReports.statuses.closed') }),
            )
          }
        >
          <blockquote style={{ whiteSpace: 'pre-wrap', margin: '0 0 12px' }}>{action.report.message}</blockquote>
        </NoteDialog>
      )}
    </section>
  );
}
