import { useEffect, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { MY_ADS_PAGE_SIZE, loadMyAds, myAdsFlash, myAdsQuery, myAdsStore, setAdOnline } from '../../state/ads';
import { sessionStore } from '../../state/session';
import { asError, errorMessage } from '../../api/client';
import type { OwnerAd } from '../../api/ads';
import { pathFor, routes } from '../../app/routes';
import { EDIT_AD_ROUTE } from './paths';
import { BumpDialog, DeleteDialog, MoveDialog, PayDialog, RenewDialog, type DoneMessage } from '../../components/market/AdActions';
import { detailsSummary } from '../../components/market/AdExtras';
import { LoadState } from '../../components/market/Status';
import { Pager } from '../../components/forms/Pager';
import { actionsFor, adStateOf, type AdState } from '../../components/market/adState';
import { ageLabel, dateLabel, typeLabel } from '../../components/market/labels';
import styles from '../../components/market/market.module.css';

type DialogKind = 'bump' | 'move' | 'renew' | 'pay' | 'delete';

const tone: Record<AdState, string> = {
  live: styles.badgeOn,
  unpaid: styles.badgeWarn,
  in_review: styles.badgeWarn,
  offline: '',
  hidden_account: styles.badgeWarn,
  expired: '',
  place_closed: styles.badgeWarn,
  rejected: styles.badgeBad,
  disabled: styles.badgeBad,
};

/**
 * My ads: every ad of the user in one clear state (unpaid, in review, visible, hidden and why,
 * rejected with the reason), its edit waiting for review or rejected, its page views of the last 7
 * and 30 days, and the actions its state allows; each tab a paged list. E-mails link here with
 * ?renew=<id> (opens the renew dialog) and ?edit=<id> (goes to the edit screen), whatever page the
 * ad is on: the linked ad is read on its own.
 */
export default function MyAds() {
  const { t, i18n } = useTranslation('market');
  const snap = useSnapshot(myAdsStore.state);
  const query = useSnapshot(myAdsQuery);
  const { session } = useSnapshot(sessionStore);
  const search = useSearch();
  const [, navigate] = useLocation();
  const [dialog, setDialog] = useState<{ kind: DialogKind; ad: OwnerAd } | null>(null);
  // The edit screen's "saved", shown once; or what a dialog did, worded at each render (a language switch re-words it).
  const [note, setNote] = useState<{ word: DoneMessage } | null>(() => {
    if (!myAdsFlash.note) return null;
    const { key, title } = myAdsFlash.note;
    return { word: (t) => t(key, { title }) };
  });
  // Kept as the error, worded at render.
  const [error, setError] = useState<Error | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [linkDone, setLinkDone] = useState(false);
  const accountApproved = session.userStatus !== 'pending' && session.userStatus !== 'suspended';

  // Links from e-mails: ?edit=<id> goes to the ad's edit screen; ?renew=<id> opens its renew dialog.
  const params = new URLSearchParams(search);
  const editId = params.get('edit');
  const renewId = params.get('renew');

  // The ad the page was opened for (read on its own: it may be on any page).
  const [openedFor] = useState(() => editId ?? renewId);
  useEffect(() => {
    void loadMyAds({ linked: openedFor });
  }, [openedFor]);

  useEffect(() => {
    myAdsFlash.note = null;
  }, []);
  useEffect(() => {
    if (editId) navigate(pathFor(EDIT_AD_ROUTE, { id: editId }), { replace: true });
  }, [editId, navigate]);
  // Until the user does something else, the renew link's ad has its dialog open (or the link is explained).
  const linked =
    renewId && snap.data && !linkDone ? ([...snap.data.approvedAds, ...snap.data.pendingAds] as OwnerAd[]).find((a) => a.id === renewId) : undefined;
  const linkRenewable = !!linked && actionsFor(adStateOf(linked, accountApproved)).includes('renew');
  // Said once the reading the link asked for is done (a page read before may not hold its ad).
  const linkProblem =
    renewId && snap.data && !snap.loading && !linkDone && !linkRenewable
      ? linked
        ? t('myAds.cannotRenew', { title: linked.title })
        : t('myAds.linkGone')
      : null;
  const shown = dialog ?? (linked && linkRenewable ? { kind: 'renew' as const, ad: linked } : null);

  async function toggle(ad: OwnerAd) {
    if (busy === ad.id) return; // its request runs: the switch stays focusable (aria-disabled) and ignores changes
    setBusy(ad.id);
    setError(null);
    try {
      await setAdOnline(ad.id, !ad.online);
    } catch (e) {
      setError(asError(e));
    } finally {
      setBusy(null);
    }
  }

  const open = (kind: DialogKind, ad: OwnerAd) => {
    setNote(null);
    setError(null);
    setLinkDone(true);
    setDialog({ kind, ad });
  };
  const close = () => {
    setDialog(null);
    setLinkDone(true);
  };
  const done = (msg: DoneMessage) => {
    close();
    setNote({ word: msg });
  };
  const tab = query.list;
  // The page read for the open tab (after a switch, the other tab's page stays until this one comes).
  const current = snap.data?.list === tab ? snap.data : null;
  const list = (current ? (tab === 'approved' ? current.approvedAds : current.pendingAds) : []) as readonly OwnerAd[];
  const totals = { approved: snap.data?.totals.approvedAds ?? 0, pending: snap.data?.totals.pendingAds ?? 0 };
  const lng = i18n.language;
  const show = (change: Partial<typeof myAdsQuery>) => {
    setNote(null);
    setError(null);
    setLinkDone(true);
    void loadMyAds({ ...change, linked: null });
  };

  function stateText(ad: OwnerAd, state: AdState): string {
    switch (state) {
      case 'rejected':
        return `${t('myAds.rejectedReason')} ${ad.rejectionReason || t('myAds.noReason')}`;
      case 'in_review':
        return t('myAds.inReview');
      case 'expired':
        // Renewing is refused where the ad would show nowhere: it moves first.
        if (ad.placeClosed) return t('myAds.stateText.expiredPlaceClosed');
        return ad.expiresAt ? t('myAds.stateText.expiredOn', { date: dateLabel(ad.expiresAt, lng) }) : t('myAds.stateText.expired');
      default:
        return t(`myAds.stateText.${state}`);
    }
  }

  return (
    <section>
      <h1>{t('myAds.title')}</h1>
      <div role="tablist" aria-label={t('myAds.title')} className={styles.tabs}>
        {(['approved', 'pending'] as const).map((k) => (
          <button
            key={k}
            type="button"
            role="tab"
            id={`tab-${k}`}
            aria-controls="my-ads-panel"
            aria-selected={tab === k}
            onClick={() => tab !== k && show({ list: k, page: 1 })}
          >
            {t(`myAds.tab.${k}`, { count: totals[k] })}
          </button>
        ))}
      </div>
      {note && (
        <div role="status" className="alert alert-success">
          {note.word(t, lng)}
        </div>
      )}
      {(error ?? linkProblem) && (
        <div role="alert" className="alert alert-error">
          {error ? errorMessage(error) : linkProblem}
        </div>
      )}
      <div role="tabpanel" id="my-ads-panel" aria-labelledby={`tab-${tab}`}>
        <LoadState loading={snap.loading && !current} error={snap.error} />
        {current && !list.length && (
          <p>
            {t(`myAds.empty.${tab}`)} <Link href={routes.createAds}>{t('cart.postOne')}</Link>
          </p>
        )}
        <ul className={styles.list}>
          {list.map((ad) => {
            const state = adStateOf(ad, accountApproved);
            const can = actionsFor(state);
            const summary = detailsSummary(t, ad.details, i18n.language);
            const rev = ad.revision;
            return (
              <li key={ad.id} className={styles.item} aria-label={ad.title}>
                {ad.photos[0] && <img src={ad.photos[0].thumbUrl} alt="" />}
                <div className={styles.itemBody}>
                  <h2 style={{ fontSize: 17, margin: '0 0 4px' }}>
                    {/* The ad's page: the public's when it shows, the owner's preview otherwise. */}
                    <Link href={pathFor(routes.ad, { id: ad.id })} dir="auto">
                      {ad.title}
                    </Link>{' '}
                    <span className={`${styles.badge} ${tone[state]}`}>{t(`myAds.state.${state}`)}</span>
                  </h2>
                  <p className={styles.meta}>
                    {typeLabel(t, ad.listingType)} · {ad.city.name}, {ad.state.name} · {t('ageShort', { age: ageLabel(t, ad.age) })}
                    {ad.termHeld
                      ? ` · ${t(accountApproved ? 'myAds.termHeldPlace' : 'myAds.termHeldAccount')}`
                      : ad.expiresAt && state !== 'expired' && ` · ${t('myAds.expires', { date: dateLabel(ad.expiresAt, lng) })}`}
                  </p>
                  <p className={state === 'rejected' ? 'alert alert-error' : styles.stateText}>{stateText(ad, state)}</p>
                  {rev && (
                    <p className={rev.status === 'rejected' ? 'alert alert-error' : 'alert alert-info'}>
                      {rev.status === 'pending'
                        ? t('myAds.revisionPending', { date: dateLabel(rev.createdAt, lng) })
                        : t('myAds.revisionRejected', { reason: rev.rejectionReason || t('myAds.noReason') })}
                    </p>
                  )}
                  {summary && <p className={styles.meta}>{summary}</p>}
                  {(ad.views7 !== undefined || ad.views30 !== undefined) && (
                    <p className={styles.meta}>{t('myAds.views', { week: ad.views7 ?? 0, month: ad.views30 ?? 0 })}</p>
                  )}
                  <div className={styles.row}>
                    {can.includes('online') && (
                      <label className={styles.row}>
                        <input type="checkbox" role="switch" checked={ad.online} aria-disabled={busy === ad.id || undefined} onChange={() => toggle(ad)} />
                        {t('myAds.online')}
                      </label>
                    )}
                    {can.includes('pay') && (
                      <button type="button" className="btn btn-sm btn-success" onClick={() => open('pay', ad)} aria-haspopup="dialog">
                        {t('myAds.pay')}
                      </button>
                    )}
                    {can.includes('renew') && (
                      <button type="button" className="btn btn-sm btn-primary" onClick={() => open('renew', ad)} aria-haspopup="dialog">
                        {t('myAds.renew')}
                      </button>
                    )}
                    {can.includes('bump') && (
                      <button type="button" className="btn btn-sm btn-info" onClick={() => open('bump', ad)} aria-haspopup="dialog">
                        {t('myAds.bump')}
                      </button>
                    )}
                    {can.includes('move') && (
                      <button type="button" className="btn btn-sm btn-white" onClick={() => open('move', ad)} aria-haspopup="dialog">
                        {t('myAds.move')}
                      </button>
                    )}
                    {can.includes('edit') && (
                      <Link href={pathFor(EDIT_AD_ROUTE, { id: ad.id })} className="btn btn-sm btn-white">
                        {t('myAds.edit')}
                      </Link>
                    )}
                    {can.includes('delete') && (
                      <button type="button" className="btn btn-sm btn-danger" onClick={() => open('delete', ad)} aria-haspopup="dialog">
                        {t('myAds.delete')}
                      </button>
                    )}
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
        <Pager
          label={t('myAds.pages')}
          page={query.page}
          pageSize={MY_ADS_PAGE_SIZE}
          total={current?.total ?? 0}
          disabled={snap.loading}
          onPage={(page) => show({ page })}
        />
      </div>
      {shown?.kind === 'bump' && <BumpDialog ad={shown.ad} onClose={close} onDone={done} />}
      {shown?.kind === 'move' && <MoveDialog ad={shown.ad} onClose={close} onDone={done} />}
      {shown?.kind === 'renew' && <RenewDialog ad={shown.ad} onClose={close} onDone={done} />}
      {shown?.kind === 'pay' && <PayDialog ad={shown.ad} onClose={close} onDone={done} />}
      {shown?.kind === 'delete' && <DeleteDialog ad={shown.ad} onClose={close} onDone={done} />}
    </section>
  );
}
