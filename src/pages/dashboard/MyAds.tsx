import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { loadMyAds, myAdsStore, setAdOnline } from '../../state/ads';
import { errorMessage } from '../../api/client';
import type { OwnerAd } from '../../api/ads';
import { pathFor, routes } from '../../app/routes';
import { BumpDialog, MoveDialog } from '../../components/market/AdActions';
import { LoadState, StatusBadge } from '../../components/market/Status';
import { ageLabel, dateLabel, typeLabel } from '../../components/market/labels';
import styles from '../../components/market/market.module.css';

type Tab = 'approved' | 'pending';

/** My ads: approved ads (online toggle, bump, move) and pending ones (in review, rejected with the reason). */
export default function MyAds() {
  const { t, i18n } = useTranslation('market');
  const snap = useSnapshot(myAdsStore.state);
  const [tab, setTab] = useState<Tab>('approved');
  const [dialog, setDialog] = useState<{ kind: 'bump' | 'move'; ad: OwnerAd } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    void loadMyAds();
  }, []);

  async function toggle(ad: OwnerAd) {
    setBusy(ad.id);
    setError(null);
    try {
      await setAdOnline(ad.id, !ad.online);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(null);
    }
  }

  const done = (msg: string) => {
    setDialog(null);
    setNote(msg);
  };
  const lists = { approved: snap.data?.approvedAds ?? [], pending: snap.data?.pendingAds ?? [] };
  const list = lists[tab] as readonly OwnerAd[];

  return (
    <section>
      <h1>{t('myAds.title')}</h1>
      <div role="tablist" aria-label={t('myAds.title')} className={styles.tabs}>
        {(['approved', 'pending'] as const).map((k) => (
          <button key={k} type="button" role="tab" id={`tab-${k}`} aria-controls="my-ads-panel" aria-selected={tab === k} onClick={() => setTab(k)}>
            {t(`myAds.tab.${k}`, { count: lists[k].length })}
          </button>
        ))}
      </div>
      {note && (
        <div role="status" className="alert alert-success">
          {note}
        </div>
      )}
      {error && (
        <div role="alert" className="alert alert-error">
          {error}
        </div>
      )}
      <div role="tabpanel" id="my-ads-panel" aria-labelledby={`tab-${tab}`}>
        <LoadState loading={snap.loading && !snap.data} error={snap.error} />
        {snap.data && !list.length && (
          <p>
            {t(`myAds.empty.${tab}`)} <Link href={routes.createAds}>{t('cart.postOne')}</Link>
          </p>
        )}
        <ul className={styles.list}>
          {list.map((ad) => {
            const live = ad.status === 'approved';
            return (
              <li key={ad.id} className={styles.item} aria-label={ad.title}>
                {ad.photos[0] && <img src={ad.photos[0].thumbUrl} alt="" />}
                <div className={styles.itemBody}>
                  <h2 style={{ fontSize: 17, margin: '0 0 4px' }}>
                    {live ? <Link href={pathFor(routes.ad, { id: ad.id })}>{ad.title}</Link> : ad.title} <StatusBadge status={ad.status} />
                  </h2>
                  <p className={styles.meta}>
                    {typeLabel(t, ad.listingType)} · {ad.city.name}, {ad.state.name} · {t('ageShort', { age: ageLabel(t, ad.age) })}
                    {ad.expiresAt && ` · ${t('myAds.expires', { date: dateLabel(ad.expiresAt, i18n.language) })}`}
                  </p>
                  {ad.status === 'rejected' && (
                    <p className="alert alert-error">
                      {t('myAds.rejectedReason')} {ad.rejectionReason || t('myAds.noReason')}
                    </p>
                  )}
                  {ad.status === 'in_review' && <p>{t('myAds.inReview')}</p>}
                  {live && (
                    <div className={styles.row}>
                      <label className={styles.row}>
                        <input type="checkbox" role="switch" checked={ad.online} disabled={busy === ad.id} onChange={() => toggle(ad)} />
                        {t('myAds.online')}
                      </label>
                      <button type="button" className="btn btn-sm btn-info" onClick={() => setDialog({ kind: 'bump', ad })} aria-haspopup="dialog">
                        {t('myAds.bump')}
                      </button>
                      <button type="button" className="btn btn-sm btn-white" onClick={() => setDialog({ kind: 'move', ad })} aria-haspopup="dialog">
                        {t('myAds.move')}
                      </button>
                    </div>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      </div>
      {dialog?.kind === 'bump' && <BumpDialog ad={dialog.ad} onClose={() => setDialog(null)} onDone={done} />}
      {dialog?.kind === 'move' && <MoveDialog ad={dialog.ad} onClose={() => setDialog(null)} onDone={done} />}
    </section>
  );
}
