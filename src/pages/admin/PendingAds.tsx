import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useRouter } from 'wouter';
import { ADMIN_PAGE_SIZE, adminPendingAdsStore, decidePendingAds, pendingQuery } from '../../state/adminAds';
import { duplicatesStore } from '../../state/moderation';
import type { RejectionCategory } from '../../api/admin-ads';
import { SearchBox } from '../../components/forms/SearchBox';
import { BusyButton } from '../../components/forms/BusyButton';
import { DuplicateFlags } from '../../components/moderation/DuplicateFlags';
import { UserLink } from '../../components/moderation/ModBadges';
import { ApiError, asError, errorMessage } from '../../api/client';
import type { AdContent, StaffAd } from '../../api/ads';
import { pathFor, routes } from '../../app/routes';
import { Money } from '../../components/market/Money';
import { Pagination } from '../../components/market/Pagination';
import { RejectDialog } from '../../components/market/RejectDialog';
import { RevisionDiff } from '../../components/market/RevisionDiff';
import { detailsSummary, hoursSummary } from '../../components/market/AdExtras';
import { LoadState, StatusBadge } from '../../components/market/Status';
import { ageLabel, dateLabel, isOwnAd, ownerLine, typeLabel } from '../../components/market/labels';
import { useSelection } from '../../components/market/useSelection';
import { sessionStore } from '../../state/session';
import styles from '../../components/market/market.module.css';

/**
 * Admin: ads waiting for review, and unpaid ones on request (view only: they are still in their
 * owners' carts); approve or reject with a reason and its category, one or many. A search box
 * narrows the queue; each ad shows other accounts' ads with the same phone or a near-identical
 * photo, and links to its owner's user screen.
 */
export default function PendingAds() {
  const { t, i18n } = useTranslation(['admin', 'market', 'moderation']);
  const { base } = useRouter(); // the page's language (/es, /pt) for a link opened in a new tab
  const snap = useSnapshot(adminPendingAdsStore.state);
  const me = useSnapshot(sessionStore).session.id;
  // The server refuses a decision on one's own ad (another admin reviews it): not offered here.
  const isMine = (ad: StaffAd) => isOwnAd(ad, me);
  // Unpaid ads are shown, never decided on: the server reviews paid ads only. An edit of a live ad
  // (revisionOf) is decided with its own id, like an ad in review.
  const decidable = (ad: StaffAd) => !isMine(ad) && (ad.status === 'in_review' || !!ad.revisionOf);
  const q = useSnapshot(pendingQuery);
  const sel = useSelection();
  const [rejecting, setRejecting] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  // Kept unworded (the error; the decision and its counts), worded at render: a language switch re-words them.
  const [error, setError] = useState<Error | null>(null);
  const [note, setNote] = useState<{ decision: 'approve' | 'reject'; done: number; asked: number } | null>(null);
  const noteRef = useRef<HTMLDivElement>(null);

  // A decision takes away the control it came from (the ad's buttons leave with the ad, the bulk
  // ones have nothing left to act on with the selection cleared): focus goes to the outcome, not to
  // the page's body. While it runs the buttons refuse presses but keep focus (BusyButton).
  useEffect(() => {
    if (note) noteRef.current?.focus();
  }, [note]);

  useEffect(() => {
    void adminPendingAdsStore.load();
  }, [q.page, q.includeUnpaid, q.query]);
  // Duplicates are recorded against the ad, also for its edits.
  const flagId = (ad: Pick<StaffAd, 'id' | 'revisionOf'>) => ad.revisionOf ?? ad.id;
  const shownIds = [...new Set((snap.data?.pendingAds ?? []).map(flagId))].join(',');
  useEffect(() => {
    void duplicatesStore.load(shownIds ? shownIds.split(',') : []);
  }, [shownIds]);
  const flags = useSnapshot(duplicatesStore.state).data;

  const noteText = ({ decision, done, asked }: NonNullable<typeof note>) => {
    const said = t(decision === 'approve' ? 'pending.approved' : 'pending.rejected', { count: done });
    return done < asked ? `${said} ${t('pending.notAll', { count: asked - done })}` : said;
  };

  async function decide(ids: string[], decision: 'approve' | 'reject', reason?: string, category?: RejectionCategory) {
    if (!ids.length) return;
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      // A decision names the version shown here: an ad its owner edited since is neither approved nor
      // rejected (the reason was about what was read), and comes back changed.
      const shown = (snap.data?.pendingAds ?? []) as readonly StaffAd[];
      const seen = shown.filter((a) => ids.includes(a.id)).map((a) => ({ id: a.id, updatedAt: a.updatedAt }));
      const n = await decidePendingAds(ids, decision, reason, category, seen);
      setNote({ decision, done: n, asked: ids.length });
      sel.clear();
      setRejecting(null);
    } catch (e) {
      setError(asError(e));
    } finally {
      setBusy(false);
    }
  }

  const ads = (snap.data?.pendingAds ?? []) as readonly StaffAd[];
  const pageIds = ads.filter(decidable).map((a) => a.id);
  const allOn = pageIds.length > 0 && pageIds.every(sel.has);
  // A batch refused for ads the reviewer may not approve names them: their titles follow the refusal.
  const named = error ? refusedTitles(error, ads) : [];

  return (
    <section>
      <h1>{t('pending.title')}</h1>
      <SearchBox
        label={t('moderation:search.inList')}
        submitLabel={t('moderation:search.submit')}
        initial={q.query}
        onSearch={(text) => {
          pendingQuery.query = text;
          pendingQuery.page = 1;
          sel.clear();
        }}
      />
      <div className={styles.row} style={{ marginBottom: 12 }}>
        <label className={styles.row}>
          <input
            type="checkbox"
            checked={q.includeUnpaid}
            onChange={(e) => {
              pendingQuery.includeUnpaid = e.target.checked;
              pendingQuery.page = 1;
              sel.clear();
            }}
          />
          {t('pending.includeUnpaid')}
        </label>
        <label className={styles.row}>
          <input type="checkbox" checked={allOn} disabled={!pageIds.length} onChange={(e) => sel.setAll(pageIds, e.target.checked)} />
          {t('selectAll')}
        </label>
        <BusyButton className="btn btn-sm btn-success" busy={busy} disabled={!sel.ids.length} onClick={() => void decide(sel.ids, 'approve')}>
          {t('pending.approveSelected', { count: sel.ids.length })}
        </BusyButton>
        <BusyButton className="btn btn-sm btn-danger" busy={busy} disabled={!sel.ids.length} onClick={() => setRejecting(sel.ids)}>
          {t('pending.rejectSelected', { count: sel.ids.length })}
        </BusyButton>
      </div>
      {note && (
        <div ref={noteRef} role="status" tabIndex={-1} className="alert alert-success">
          {noteText(note)}
        </div>
      )}
      {error && !rejecting && (
        <div role="alert" className="alert alert-error">
          {errorMessage(error)}
          {named.length > 0 && <> {quotedList(named, i18n.language)}</>}
        </div>
      )}
      <LoadState loading={snap.loading && !snap.data} error={snap.error} />
      {snap.data && !ads.length && <p>{t('pending.empty')}</p>}
      {/* Always present and polite: the count after a search, a filter or an action is announced (role=status is the action's outcome). */}
      <p aria-live="polite" className={styles.meta}>
        {snap.data ? t('total', { count: snap.data.total }) : null}
      </p>
      <ul className={styles.list}>
        {ads.map((ad) => (
          <li key={ad.id} className={styles.item} aria-label={ad.title}>
            {/* The label is the finger's target (24 × 24 px); the checkbox keeps its own name. */}
            <label className={styles.pick}>
              <input
                type="checkbox"
                checked={sel.has(ad.id)}
                disabled={!decidable(ad)}
                onChange={() => sel.toggle(ad.id)}
                aria-label={t('selectAd', { title: ad.title })}
              />
            </label>
            <div className={styles.itemBody}>
              <h2 style={{ fontSize: 17, margin: '0 0 4px' }}>
                <span dir="auto">{ad.title}</span> <StatusBadge status={ad.status} />
              </h2>
              <p className={styles.meta}>
                {typeLabel(t, ad.listingType)} · {ad.city.name}, {ad.state.name} · {t('market:ageShort', { age: ageLabel(t, ad.age) })} · {ad.phone}
                {ad.priceCents != null && (
                  <>
                    {' '}
                    · <Money cents={ad.priceCents} />
                  </>
                )}
                {ad.createdAt && ` · ${dateLabel(ad.createdAt, i18n.language)}`}
                {ownerLine(t, ad)} · <UserLink id={ad.owner.id} label={t('moderation:user.openShort')} name={ad.owner.email} />
              </p>
              <DuplicateFlags flags={flags?.[flagId(ad)] ?? []} />
              {ad.revisionOf && ad.previous ? (
                <>
                  <p>
                    <span className={`${styles.badge} ${styles.badgeWarn}`}>{t('revision.badge')}</span> {t('revision.intro')}{' '}
                    <a href={base + pathFor(routes.ad, { id: ad.revisionOf })} target="_blank" rel="noreferrer">
                      {t('revision.openLive')}
                    </a>
                  </p>
                  <RevisionDiff before={ad.previous as AdContent} after={proposedContent(ad)} />
                </>
              ) : (
                <>
                  <ul className={styles.thumbs} aria-label={t('photos')}>
                    {ad.photos.map((p, i) => (
                      <li key={p.url}>
                        <a href={p.url} target="_blank" rel="noreferrer" aria-label={t('openPhoto', { n: i + 1 })}>
                          <img src={p.thumbUrl} alt="" />
                        </a>
                      </li>
                    ))}
                  </ul>
                  <p dir="auto" style={{ whiteSpace: 'pre-wrap' }}>
                    {ad.description}
                  </p>
                  {detailsSummary(t, ad.details, i18n.language) && <p className={styles.meta}>{detailsSummary(t, ad.details, i18n.language)}</p>}
                  {hoursSummary(t, ad.details) && <p className={styles.meta}>{hoursSummary(t, ad.details)}</p>}
                </>
              )}
              {ad.status === 'unpaid' ? (
                <p className={styles.meta}>{t('moderation:pending.unpaidViewOnly')}</p>
              ) : isMine(ad) ? (
                <p className={styles.meta}>{t('pending.ownAd')}</p>
              ) : (
                <div className={styles.row}>
                  <BusyButton className="btn btn-sm btn-success" busy={busy} onClick={() => void decide([ad.id], 'approve')}>
                    {t('pending.approve')}
                  </BusyButton>
                  <BusyButton className="btn btn-sm btn-danger" busy={busy} onClick={() => setRejecting([ad.id])} aria-haspopup="dialog">
                    {t('pending.reject')}
                  </BusyButton>
                </div>
              )}
            </div>
          </li>
        ))}
      </ul>
      {snap.data && (
        <Pagination
          page={q.page}
          pageSize={ADMIN_PAGE_SIZE}
          total={snap.data.total}
          onPage={(p) => {
            pendingQuery.page = p;
            // As the filters do: a bulk action acts on the rows shown (an approval pins the versions seen here), never on ones left behind.
            sel.clear();
          }}
        />
      )}
      {rejecting && (
        <RejectDialog
          count={rejecting.length}
          adIds={rejecting}
          busy={busy}
          error={error && errorMessage(error)}
          onConfirm={(reason, category) => decide(rejecting, 'reject', reason, category)}
          onCancel={() => {
            setRejecting(null);
            setError(null);
          }}
        />
      )}
    </section>
  );
}

/**
 * The titles, as the list shows them, of the ads a refused batch named (ad.review_own_ad: its
 * params.adIds, the ids sent): the reviewer leaves those out and approves the rest. Ads no longer
 * listed are not named.
 */
function refusedTitles(error: Error, ads: readonly StaffAd[]): string[] {
  if (!(error instanceof ApiError) || error.code !== 'ad.review_own_ad' || typeof error.params?.adIds !== 'string') return [];
  return error.params.adIds
    .split(',')
    .map((id) => ads.find((a) => a.id === id)?.title)
    .filter((title): title is string => !!title);
}

/** Titles quoted and listed as the page's language writes them (“A”, “B” and “C”; «A», «B» y «C»), each in its writer's direction. */
function quotedList(titles: string[], lng: string) {
  const [open, close] = lng.startsWith('es') ? ['«', '»'] : ['“', '”'];
  return new Intl.ListFormat(lng, { type: 'conjunction' })
    .formatToParts(titles)
    .map((part, i) => (part.type === 'element' ? <bdi key={i}>{`${open}${part.value}${close}`}</bdi> : part.value));
}

const NO_DETAILS: AdContent['details'] = { rates: [], incall: false, outcall: false, availability: {} };

/** The content an edit proposes: the queue item's own fields. */
function proposedContent(ad: StaffAd): AdContent {
  const { listingType, title, description, age, state, city, phone, photos, details } = ad;
  return { listingType, title, description, age, state, city, phone, photos, details: details ?? NO_DETAILS };
}
