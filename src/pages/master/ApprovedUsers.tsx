import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { approvedUsersStore, loadApprovedUsers, rolesWith, saveUserChanges, STAFF_ROLES, usersQuery } from '../../state/users';
import { sessionStore } from '../../state/session';
import type { UserStatus } from '../../api/profile';
import type { ManagedUser, StaffRole } from '../../api/users';
import { FormError, FormSuccess } from '../../components/forms/FormError';
import { Pager } from '../../components/forms/Pager';
import { SearchBox } from '../../components/forms/SearchBox';
import { Loading } from '../../components/Loading';
import { ConfirmDialog } from '../../components/market/ConfirmDialog';
import { UserLink } from '../../components/moderation/ModBadges';
import { useRowAction } from './useRowAction';

const STATUSES: UserStatus[] = ['approved', 'pending', 'suspended'];

/** A row's unsaved change, and the row as it was shown when the master began it (sent as `from`). */
type Draft = { roles: StaffRole[]; status: UserStatus; shown: { roles: StaffRole[]; status: UserStatus } };
const sameRoles = (a: readonly StaffRole[], b: readonly StaffRole[]) => [...a].sort().join() === [...b].sort().join();

/**
 * Approved accounts: a master changes the staff roles and the status of a row, then saves it
 * explicitly; a confirmation names the user and every change before anything is sent. The server
 * refuses what would lock the site out (own master role, self-suspension, last master) and a
 * change made on a row another master changed meanwhile; its message is shown and the row goes
 * back to what is stored.
 */
export default function ApprovedUsers() {
  const { t, i18n } = useTranslation(['master', 'profile']);
  const { data, loading, error } = useSnapshot(approvedUsersStore.state);
  const query = useSnapshot(usersQuery).approved;
  const me = useSnapshot(sessionStore).session.id;
  const row = useRowAction();
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const [confirming, setConfirming] = useState<ManagedUser | null>(null);

  // The stored search and page, as the search box shows them (kept across a visit to a user and Back).
  useEffect(() => {
    void loadApprovedUsers();
  }, []);

  const users = (data?.approvedUsers ?? []) as readonly ManagedUser[];
  const draftOf = (u: ManagedUser): Draft => drafts[u.id] ?? { roles: [...u.roles], status: u.status, shown: { roles: [...u.roles], status: u.status } };
  const changed = (u: ManagedUser) => {
    const d = draftOf(u);
    return !sameRoles(d.roles, u.roles) || d.status !== u.status;
  };
  const edit = (u: ManagedUser, change: Partial<Draft>) => setDrafts((all) => ({ ...all, [u.id]: { ...draftOf(u), ...change } }));
  const discard = (id: string) =>
    setDrafts((all) => {
      const { [id]: _gone, ...rest } = all;
      void _gone;
      return rest;
    });

  /** The changes of a row, one line each, in words. */
  const changesOf = (u: ManagedUser): string[] => {
    const d = draftOf(u);
    const lines: string[] = [];
    for (const role of STAFF_ROLES) {
      const before = u.roles.includes(role);
      const after = d.roles.includes(role);
      if (before !== after) lines.push(t(after ? 'confirm.roleAdded' : 'confirm.roleRemoved', { role: t(`profile:roles.${role}`) }));
    }
    if (d.status !== u.status) lines.push(t('confirm.statusChange', { from: t(`profile:status.${u.status}`), to: t(`profile:status.${d.status}`) }));
    return lines;
  };

  // Sent against the row the draft was made on: the list may have been read again since (another
  // row saved, a search), and a set built from an older row must not overwrite a newer one.
  const save = async (u: ManagedUser) => {
    const d = draftOf(u);
    const { shown } = d;
    setConfirming(null);
    await row.run(
      u.id,
      () =>
        saveUserChanges(
          { ...u, ...shown },
          { roles: sameRoles(d.roles, shown.roles) ? undefined : d.roles, status: d.status === shown.status ? undefined : d.status },
        ),
      (t) => t('approved.saved', { email: u.email }),
    );
    discard(u.id); // saved, or refused: the row shows what is stored again
  };

  return (
    <section aria-labelledby="approved-users-title">
      <h1 id="approved-users-title">{t('approved.title')}</h1>
      <SearchBox
        label={t('search.label')}
        submitLabel={t('search.submit')}
        initial={query.query}
        onSearch={(q) => void loadApprovedUsers({ query: q, page: 1 })}
      />
      <FormError message={error ?? row.error} />
      <FormSuccess message={row.success} />
      {loading && !data && <Loading />}
      {data && users.length === 0 && <p>{query.query ? t('noMatches') : t('approved.empty')}</p>}
      {users.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="data" aria-busy={loading || undefined}>
            <caption className="visually-hidden">{t('approved.caption', { total: data?.total ?? 0 })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('columns.email')}</th>
                <th scope="col">{t('columns.nickname')}</th>
                <th scope="col">{t('columns.registered')}</th>
                <th scope="col">{t('columns.roles')}</th>
                <th scope="col">{t('columns.status')}</th>
                <th scope="col">{t('columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => {
                const d = draftOf(u);
                const dirty = changed(u);
                return (
                  <tr key={u.id} aria-busy={row.busyId === u.id || undefined}>
                    <th scope="row" style={{ fontWeight: 400, overflowWrap: 'anywhere' }}>
                      <UserLink id={u.id} label={u.email} />
                      {u.id === me && <small> ({t('approved.you')})</small>}
                    </th>
                    <td>{u.nickname}</td>
                    <td>{new Date(u.createdAt).toLocaleDateString(i18n.language)}</td>
                    <td>
                      <fieldset style={{ border: 0, margin: 0, padding: 0, display: 'flex', gap: 12, flexWrap: 'wrap' }}>
                        <legend className="visually-hidden">{t('approved.rolesOf', { email: u.email })}</legend>
                        {STAFF_ROLES.map((role) => (
                          <label key={role} style={{ whiteSpace: 'nowrap' }}>
                            <input
                              type="checkbox"
                              checked={d.roles.includes(role)}
                              disabled={row.busyId !== null}
                              onChange={(e) => edit(u, { roles: rolesWith(d.roles, role, e.target.checked) })}
                            />{' '}
                            {t(`profile:roles.${role}`)}
                          </label>
                        ))}
                      </fieldset>
                    </td>
                    <td>
                      <label className="visually-hidden" htmlFor={`status-${u.id}`}>
                        {t('approved.statusOf', { email: u.email })}
                      </label>
                      <select
                        id={`status-${u.id}`}
                        value={d.status}
                        disabled={row.busyId !== null}
                        onChange={(e) => edit(u, { status: e.target.value as UserStatus })}
                      >
                        {STATUSES.map((s) => (
                          <option key={s} value={s}>
                            {t(`profile:status.${s}`)}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td style={{ whiteSpace: 'nowrap' }}>
                      {dirty && <small style={{ display: 'block' }}>{t('approved.unsaved')}</small>}
                      <button
                        type="button"
                        className="btn btn-sm btn-primary"
                        disabled={!dirty || row.busyId !== null}
                        aria-haspopup="dialog"
                        aria-label={t('approved.saveFor', { email: u.email })}
                        onClick={() => setConfirming(u)}
                      >
                        {t('approved.save')}
                      </button>{' '}
                      {dirty && (
                        <button
                          type="button"
                          className="btn btn-sm btn-white"
                          aria-label={t('approved.discardFor', { email: u.email })}
                          onClick={() => discard(u.id)}
                        >
                          {t('approved.discard')}
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label={t('approved.pages')}
        page={query.page}
        pageSize={query.pageSize}
        total={data?.total ?? 0}
        disabled={loading}
        onPage={(page) => void loadApprovedUsers({ page })}
      />
      {confirming && (
        <ConfirmDialog
          title={t('confirm.title', { email: confirming.email, nickname: confirming.nickname })}
          confirmLabel={t('confirm.save')}
          onCancel={() => setConfirming(null)}
          onConfirm={() => void save(confirming)}
        >
          <ul>
            {changesOf(confirming).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </ConfirmDialog>
      )}
    </section>
  );
}
