import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { loadPendingUsers, pendingUsersStore, setPendingUserStatus, usersQuery } from '../../state/users';
import { FormError, FormSuccess } from '../../components/forms/FormError';
import { Pager } from '../../components/forms/Pager';
import { SearchBox } from '../../components/forms/SearchBox';
import { Loading } from '../../components/Loading';
import { ConfirmDialog } from '../../components/market/ConfirmDialog';
import { UserLink } from '../../components/moderation/ModBadges';
import type { ManagedUser } from '../../api/users';
import { useRowAction } from './useRowAction';

/** New accounts waiting for a master: approve (their ads may go live) or suspend, each after a confirmation naming the user and the change. */
export default function PendingUsers() {
  const { t, i18n } = useTranslation(['master', 'profile']);
  const { data, loading, error } = useSnapshot(pendingUsersStore.state);
  const query = useSnapshot(usersQuery).pending;
  const row = useRowAction();
  const [confirming, setConfirming] = useState<{ user: ManagedUser; to: 'approved' | 'suspended' } | null>(null);

  // The stored search and page, as the search box shows them (kept across a visit to a user and Back).
  useEffect(() => {
    void loadPendingUsers();
  }, []);

  const users = (data?.pendingUsers ?? []) as readonly ManagedUser[];
  // The dialog stays open (busy) until the change is made and the list read again: closed first,
  // it would give focus back to the row's button just before the row leaves the list, and focus
  // would fall to the page's body (Dialog puts it on the heading when the opener is gone).
  const apply = async (user: ManagedUser, to: 'approved' | 'suspended') => {
    await row.run(
      user.id,
      () => setPendingUserStatus(user, to),
      (t) => t(to === 'approved' ? 'pending.approved' : 'pending.suspended', { email: user.email }),
    );
    setConfirming(null);
  };
  // A search's outcome (how many match, or none), or an empty queue; worded once the list is read.
  const searched = query.query ? (data?.total ? t('matches', { count: data.total }) : t('noMatches')) : null;
  const outcome = !data || loading ? null : (searched ?? (users.length === 0 ? t('pending.empty') : null));
  return (
    <section aria-labelledby="pending-users-title">
      <h1 id="pending-users-title">{t('pending.title')}</h1>
      <p>{t('pending.explain')}</p>
      <SearchBox
        label={t('search.label')}
        submitLabel={t('search.submit')}
        initial={query.query}
        onSearch={(q) => void loadPendingUsers({ query: q, page: 1 })}
      />
      <FormError message={error ?? row.error} />
      <FormSuccess message={row.success} />
      {loading && !data && <Loading />}
      {/* Always present and polite: the outcome of a search (how many match, or none) is announced (role=status is a row action's outcome). */}
      <p aria-live="polite">{outcome}</p>
      {users.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="data" aria-busy={loading || undefined}>
            <caption className="visually-hidden">{t('pending.caption', { total: data?.total ?? 0 })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('columns.email')}</th>
                <th scope="col">{t('columns.nickname')}</th>
                <th scope="col">{t('columns.registered')}</th>
                <th scope="col">{t('columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id}>
                  <th scope="row" style={{ fontWeight: 400, overflowWrap: 'anywhere' }}>
                    <UserLink id={u.id} label={u.email} />
                  </th>
                  <td>{u.nickname}</td>
                  <td>{new Date(u.createdAt).toLocaleDateString(i18n.language)}</td>
                  <td style={{ display: 'flex', gap: 6, flexWrap: 'wrap' }}>
                    <button
                      type="button"
                      className="btn btn-sm btn-success"
                      disabled={row.busyId !== null}
                      aria-label={t('pending.approveUser', { email: u.email })}
                      aria-haspopup="dialog"
                      onClick={() => setConfirming({ user: u, to: 'approved' })}
                    >
                      {t('pending.approve')}
                    </button>
                    <button
                      type="button"
                      className="btn btn-sm btn-danger"
                      disabled={row.busyId !== null}
                      aria-label={t('pending.suspendUser', { email: u.email })}
                      aria-haspopup="dialog"
                      onClick={() => setConfirming({ user: u, to: 'suspended' })}
                    >
                      {t('pending.suspend')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label={t('pending.pages')}
        page={query.page}
        pageSize={query.pageSize}
        total={data?.total ?? 0}
        disabled={loading}
        onPage={(page) => void loadPendingUsers({ page })}
      />
      {confirming && (
        <ConfirmDialog
          title={t('confirm.title', { email: confirming.user.email, nickname: confirming.user.nickname })}
          confirmLabel={t(confirming.to === 'approved' ? 'pending.approve' : 'pending.suspend')}
          danger={confirming.to === 'suspended'}
          busy={row.busyId === confirming.user.id}
          onCancel={() => setConfirming(null)}
          onConfirm={() => void apply(confirming.user, confirming.to)}
        >
          <ul>
            <li>{t('confirm.statusChange', { from: t('profile:status.pending'), to: t(`profile:status.${confirming.to}`) })}</li>
          </ul>
        </ConfirmDialog>
      )}
    </section>
  );
}
