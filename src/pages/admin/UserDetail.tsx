import { useEffect, useState } from 'react';
import { Link, useParams } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { ApiError, asError } from '../../api/client';
import { evidenceUrl } from '../../api/moderation';
import { userDetailStore } from '../../state/moderation';
import { isMaster, sessionStore } from '../../state/session';
import { FormError, FormSuccess } from '../../components/forms/FormError';
import { Loading } from '../../components/Loading';
import { HeldBadge, SearchLink } from '../../components/moderation/ModBadges';
import { dateTimeLabel } from '../../components/market/labels';
import { routes } from '../../app/routes';
import { UserAds, UserReports, UserScreening } from './UserDetailAds';
import { UserMoney } from './UserDetailMoney';
import { UserAudit, UserHolds, UserRelated, UserSignIns } from './UserDetailAccount';
import { UserDialogs, type Dialog, type Done } from './UserDetailDialogs';

/** Refusals of a change asked on a screen read before someone else's change (409). */
const STALE = new Set(['master.user_changed', 'moderation.hold_changed', 'moderation.not_held']);

/**
 * One user, whole: the account, their ads (deleted ones kept under a hold too), reports about
 * them, money (wallets, ledger, invoices), sign-ins, legal holds, related accounts, refused ad
 * texts and staff actions. Masters suspend or reinstate from here (with a confirmation naming the
 * user and the change), sending the status they saw: an account another master changed meanwhile
 * is refused (409), said so, and read again. Every staff member places holds, releases the one
 * whose button they pressed (one released meanwhile is refused, said so, and read again) and
 * exports the evidence file. Lists longer than the screen shows say so ("last 200 of N"); the
 * account's own staff actions open in the audit log. Outcomes are kept unworded and worded at render (a language switch).
 */
export default function UserDetail() {
  const { t, i18n } = useTranslation(['moderation', 'payments']);
  const { id = '' } = useParams<{ id: string }>();
  const { data, loading, error } = useSnapshot(userDetailStore.state);
  const { session } = useSnapshot(sessionStore);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<Error | null>(null);
  // A refusal that closed its dialog (the account changed meanwhile): shown on the page.
  const [pageError, setPageError] = useState<Error | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const lng = i18n.language;

  useEffect(() => {
    void userDetailStore.load(id);
  }, [id]);

  const current = data && data.user.id === id ? data : null;
  // The dialog stays open (busy) until the change is made and the user read again: closed first,
  // it would give focus back to its opener just before the reload removes it (Suspend gives way to
  // Reinstate, a released hold's button goes), and focus would fall to the page's body; closed
  // after, Dialog puts focus on the page's heading when the opener is gone.
  // An account changed meanwhile by another master (409 master.user_changed), or a hold released
  // meanwhile by another staff member (409 moderation.hold_changed, moderation.not_held): the dialog
  // asked about something no longer shown, so it closes, the refusal is said on the page, and the
  // user is read again.
  const run = async (action: () => Promise<unknown>, message: Done['word']) => {
    setBusy(true);
    setActionError(null);
    setPageError(null);
    setDone(null);
    try {
      await action();
      await userDetailStore.load(id);
      setDone({ word: message });
      setDialog(null);
    } catch (e) {
      if (e instanceof ApiError && STALE.has(e.code ?? '')) {
        await userDetailStore.load(id);
        setPageError(e);
        setDialog(null);
      } else setActionError(asError(e));
    } finally {
      setBusy(false);
    }
  };
  const close = () => {
    setDialog(null);
    setActionError(null);
  };

  if (!current) {
    return (
      <section aria-labelledby="user-title">
        <h1 id="user-title">{t('user.title')}</h1>
        <FormError message={error} />
        {loading && <Loading />}
      </section>
    );
  }
  const u = current.user;
  const name = `${u.nickname} (${u.email})`;
  const self = u.id === session.id;
  const canSetStatus = isMaster(session) && !self && !u.deleted;
  return (
    <section aria-labelledby="user-title">
      <h1 id="user-title" style={{ overflowWrap: 'anywhere' }}>
        {u.nickname} <small style={{ fontWeight: 400 }}>{u.email}</small>
      </h1>
      <p style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
        <span>{t(`userStatus.${u.status}`)}</span>
        {u.deleted && <strong>{t('user.deleted')}</strong>}
        {u.held && <HeldBadge />}
      </p>
      <dl style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '4px 16px' }}>
        <dt>{t('user.id')}</dt>
        <dd style={{ margin: 0 }}>
          <code>{u.id}</code>
        </dd>
        <dt>{t('user.phone')}</dt>
        <dd style={{ margin: 0 }}>
          {u.phone ? <SearchLink query={u.phone}>{u.phone}</SearchLink> : '—'} {u.phone && (u.phoneVerified ? t('user.verified') : t('user.unverified'))}
        </dd>
        <dt>{t('user.roles')}</dt>
        <dd style={{ margin: 0 }}>{u.roles.map((r) => t(`roles.${r}`)).join(', ') || '—'}</dd>
        <dt>{t('user.registered')}</dt>
        <dd style={{ margin: 0 }}>{dateTimeLabel(u.createdAt, lng)}</dd>
        {u.deletedAt && (
          <>
            <dt>{t('user.deletedAt')}</dt>
            <dd style={{ margin: 0 }}>{dateTimeLabel(u.deletedAt, lng)}</dd>
          </>
        )}
      </dl>

      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', margin: '12px 0' }}>
        {canSetStatus && u.status !== 'suspended' && (
          <button type="button" className="btn btn-danger" aria-haspopup="dialog" onClick={() => setDialog({ kind: 'status', to: 'suspended' })}>
            {t('user.suspend')}
          </button>
        )}
        {canSetStatus && u.status === 'suspended' && (
          <button type="button" className="btn btn-success" aria-haspopup="dialog" onClick={() => setDialog({ kind: 'status', to: 'approved' })}>
            {t('user.reinstate')}
          </button>
        )}
        {!self && (
          <button type="button" className="btn btn-white" aria-haspopup="dialog" onClick={() => setDialog({ kind: 'hold' })}>
            {t('holds.place')}
          </button>
        )}
        {!self && (
          <a className="btn btn-white" href={evidenceUrl(u.id)} download>
            {t('export.user')}
          </a>
        )}
        <Link className="btn btn-white" href={`${routes.adminAuditLog}?actorId=${encodeURIComponent(u.id)}`}>
          {t('user.actionsBy')}
        </Link>
      </div>
      {!isMaster(session) && <p style={{ color: 'var(--gray)' }}>{t('user.readOnly')}</p>}
      <FormError message={pageError} />
      <FormSuccess message={done ? done.word(t) : null} />

      <UserAds current={current} />

      <UserReports current={current} self={self} />

      <UserMoney current={current} />

      <UserSignIns current={current} />

      <UserHolds current={current} self={self} setDialog={setDialog} />

      <UserRelated current={current} />

      <UserScreening current={current} />

      <UserAudit current={current} />

      <UserDialogs dialog={dialog} u={u} name={name} busy={busy} actionError={actionError} close={close} run={run} />
    </section>
  );
}
