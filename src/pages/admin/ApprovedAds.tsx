import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { ADMIN_PAGE_SIZE, adminApprovedAdsStore, approvedQuery, setApprovedAdsStatus } from '../../state/adminAds';
import { asError, errorMessage } from '../../api/client';
import type { StaffAd } from '../../api/ads';
import { pathFor, routes } from '../../app/routes';
import { Pagination } from '../../components/market/Pagination';
import { LoadState, StatusBadge } from '../../components/market/Status';
import { dateLabel, isOwnAd, ownerLine, statusLabel, typeLabel } from '../../components/market/labels';
import { useSelection } from '../../components/market/useSelection';
import { sessionStore } from '../../state/session';
import styles from '../../components/market/market.module.css';
import { SearchBox } from '../../components/forms/SearchBox';
import { BusyButton } from '../../components/forms/BusyButton';
import { UserLink } from '../../components/moderation/ModBadges';
import { ConfirmDialog } from '../../components/market/ConfirmDialog';

const FILTERS = ['', 'approved', 'disabled', 'expired'] as const;

/** The statuses each action changes (the server's setStaffStatus leaves any other ad as it is). */
const CHANGES: Record<'approved' | 'disabled', readonly StaffAd['status'][]> = { disabled: ['approved', 'expired'], approved: ['disabled'] };

/**
 * Admin: published ads with a status filter and a search box; disable (approved or expired ones) or
 * re-enable them, one or many. Disabling the selected ads asks first: it hides many live, paid ads
 * at once and e-mails every owner.
 */
export default function ApprovedAds() {
  const { t, i18n } = useTranslation(['admin', 'market', 'moderation']);
  const snap = useSnapshot(adminApprovedAdsStore.state);
  const me = useSnapshot(sessionStore).session.id;
  // The server refuses to disable or enable one's own ad (another admin moderates it): not offered here.
  const isMine = (ad: StaffAd) => isOwnAd(ad, me);
  const q = useSnapshot(approvedQuery);
  const sel = useSelection();
  const [busy, setBusy] = useState(false);
  // Kept unworded (the error; the note's key and count), worded at render: a language switch re-words them.
  const [error, setError] = useState<Error | null>(null);
  const [note, setNote] = useState<{ key: 'approvedAds.enabled' | 'approvedAds.disabled'; count: number; asked: number; focus: boolean } | null>(null);
  const noteRef = useRef<HTMLDivElement>(null);
  const [confirmDisable, setConfirmDisable] = useState(false);

  useEffect(() => {
    void adminApprovedAdsStore.load();
  }, [q.page, q.status, q.query]);
  useEffect(() => {
    // Also when focus was lost some other way (its control gone).
    const lost = !document.activeElement || document.activeElement === document.body;
    if (note && (note.focus || lost)) noteRef.current?.focus();
  }, [note]);

  async function setStatus(ids: string[], status: 'approved' | 'disabled', fromRow = false) {
    if (!ids.length) return;
    const key = status === 'approved' ? 'approvedAds.enabled' : 'approvedAds.disabled';
    // Only the selected ads the action can change as shown (a selection may mix approved and
    // disabled ones): one already in the target status is not sent, so the count the server
    // answers falls short only by ads that really changed meanwhile (the note says so).
    const shown = (snap.data?.approvedAds ?? []) as readonly StaffAd[];
    const acting = shown.filter((a) => ids.includes(a.id) && CHANGES[status].includes(a.status));
    if (!acting.length) {
      setError(null);
      setNote({ key, count: 0, asked: 0, focus: true });
      sel.clear();
      return;
    }
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      // The change names the version shown here: an ad another staff member (or its owner, or its
      // expiry) changed since is left as it is, and the reloaded list shows it as it is now.
      const seen = acting.map((a) => ({ id: a.id, updatedAt: a.updatedAt }));
      const n = await setApprovedAdsStatus(
        acting.map((a) => a.id),
        status,
        seen,
      );
      // The control used may be gone: the ad's row left a list filtered by status, or the bulk
      // buttons have nothing left to act on with the selection cleared. Focus then goes to the
      // outcome; a row still listed keeps it on its button (Disable turned Enable).
      const stays = fromRow && !!adminApprovedAdsStore.state.data?.approvedAds.some((a) => a.id === ids[0]);
      setNote({ key, count: n, asked: acting.length, focus: !stays });
      sel.clear();
    } catch (e) {
      setError(asError(e));
    } finally {
      setBusy(false);
    }
  }

  const ads = (snap.data?.approvedAds ?? []) as readonly StaffAd[];
  const pageIds = ads.filter((a) => !isMine(a)).map((a) => a.id);

  return (
    <section>
      <h1 id="approved-ads-title">{t('approvedAds.title')}</h1>
      <SearchBox
        label={t('moderation:search.inList')}
        submitLabel={t('moderation:search.submit')}
        initial={q.query}
        onSearch={(text) => {
          approvedQuery.query = text;
          approvedQuery.page = 1;
          sel.clear();
        }}
      />
      <div className={styles.row} style={{ marginBottom: 12 }}>
        <div className="field" style={{ marginBottom: 0 }}>
          <label htmlFor="status-filter">{t('approvedAds.filter')}</label>
          <select
            id="status-filter"
            value={q.status}
            onChange={(e) => {
              approvedQuery.status = e.target.value as (typeof FILTERS)[number]; // one of the options below
              approvedQuery.page = 1;
              sel.clear();
            }}
          >
            {FILTERS.map((f) => (
              <option key={f} value={f}>
                {f ? statusLabel(t, f) : t('approvedAds.all')}
              </option>
            ))}
          </select>
        </div>
        {/* Refused (aria-disabled) rather than `disabled` with nothing selected too: the pressed one keeps focus as its selection clears. */}
        <BusyButton className="btn btn-sm btn-danger" aria-haspopup="dialog" busy={busy} disabled={!sel.ids.length} onClick={() => setConfirmDisable(true)}>
          {t('approvedAds.disableSelected', { count: sel.ids.length })}
        </BusyButton>
        <BusyButton className="btn btn-sm btn-success" busy={busy} disabled={!sel.ids.length} onClick={() => void setStatus(sel.ids, 'approved')}>
          {t('approvedAds.enableSelected', { count: sel.ids.length })}
        </BusyButton>
      </div>
      {confirmDisable && (
        <ConfirmDialog
          title={t('approvedAds.disableSelectedTitle', { count: sel.ids.length })}
          confirmLabel={t('approvedAds.disableSelectedConfirm', { count: sel.ids.length })}
          danger
          onCancel={() => setConfirmDisable(false)}
          onConfirm={() => {
            // Closed first: focus goes back to the button, then to the outcome (setStatus), not to a dialog about to leave.
            setConfirmDisable(false);
            void setStatus(sel.ids, 'disabled');
          }}
        >
          <p>{t('approvedAds.disableSelectedEffect', { count: sel.ids.length })}</p>
        </ConfirmDialog>
      )}
      {note && (
        <div ref={noteRef} role="status" tabIndex={-1} className="alert alert-success">
          {t(note.key, { count: note.count })}
          {note.count < note.asked && ` ${t('approvedAds.notAll', { count: note.asked - note.count })}`}
        </div>
      )}
      {error && (
        <div role="alert" className="alert alert-error">
          {errorMessage(error)}
        </div>
      )}
      <LoadState loading={snap.loading && !snap.data} error={snap.error} />
      {snap.data && !ads.length && <p>{t('approvedAds.empty')}</p>}
      {/* Always present and polite: the count after a search, a filter or an action is announced (role=status is the action's outcome). */}
      <p aria-live="polite" className={styles.meta}>
        {snap.data ? t('total', { count: snap.data.total }) : null}
      </p>
      {ads.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="data" aria-labelledby="approved-ads-title">
            <thead>
              <tr>
                <th>
                  {/* The label is the finger's target (24 × 24 px); the checkbox keeps its own name. */}
                  <label className={styles.pick}>
                    <input
                      type="checkbox"
                      aria-label={t('selectAll')}
                      checked={pageIds.length > 0 && pageIds.every(sel.has)}
                      disabled={!pageIds.length}
                      onChange={(e) => sel.setAll(pageIds, e.target.checked)}
                    />
                  </label>
                </th>
                <th>{t('approvedAds.ad')}</th>
                <th>{t('approvedAds.place')}</th>
                <th>{t('approvedAds.status')}</th>
                <th>{t('approvedAds.published')}</th>
                <th>{t('approvedAds.expires')}</th>
                <th>{t('actions')}</th>
              </tr>
            </thead>
            <tbody>
              {ads.map((ad) => (
                <tr key={ad.id}>
                  <td>
                    <label className={styles.pick}>
                      <input
                        type="checkbox"
                        checked={sel.has(ad.id)}
                        disabled={isMine(ad)}
                        onChange={() => sel.toggle(ad.id)}
                        aria-label={t('selectAd', { title: ad.title })}
                      />
                    </label>
                  </td>
                  <td>
                    <Link href={pathFor(routes.ad, { id: ad.id })} dir="auto">
                      {ad.title}
                    </Link>
                    <div className={styles.meta}>
                      {typeLabel(t, ad.listingType)}
                      {ownerLine(t, ad)} · <UserLink id={ad.owner.id} label={t('moderation:user.openShort')} name={ad.owner.email} />
                    </div>
                  </td>
                  <td>
                    {ad.city.name}, {ad.state.name}
                  </td>
                  <td>
                    <StatusBadge status={ad.status} />{' '}
                    {ad.status === 'approved' && <span className={styles.meta}>{ad.online ? t('market:myAds.online') : t('market:myAds.offline')}</span>}
                  </td>
                  <td>{dateLabel(ad.publishedAt, i18n.language)}</td>
                  <td>{dateLabel(ad.expiresAt, i18n.language)}</td>
                  <td>
                    {isMine(ad) ? (
                      <span className={styles.meta}>{t('approvedAds.ownAd')}</span>
                    ) : ad.status === 'disabled' ? (
                      <BusyButton className="btn btn-sm btn-success" busy={busy} onClick={() => void setStatus([ad.id], 'approved', true)}>
                        {t('approvedAds.enable')}
                      </BusyButton>
                    ) : ad.status === 'approved' || ad.status === 'expired' ? (
                      // An expired ad is disabled too: its owner could otherwise renew a reported ad straight back into view.
                      <BusyButton className="btn btn-sm btn-danger" busy={busy} onClick={() => void setStatus([ad.id], 'disabled', true)}>
                        {t('approvedAds.disable')}
                      </BusyButton>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {snap.data && (
        <Pagination
          page={q.page}
          pageSize={ADMIN_PAGE_SIZE}
          total={snap.data.total}
          onPage={(p) => {
            approvedQuery.page = p;
            // As the filters do: a bulk action acts on the rows shown, never on ones left on another page.
            sel.clear();
          }}
        />
      )}
    </section>
  );
}
