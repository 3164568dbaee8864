import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { approvedUsersStore, loadApprovedUsers, rolesWith, setApprovedUserStatus, setUserRoles, STAFF_ROLES, usersQuery } from '../../state/users';
import { sessionStore } from '../../state/session';
import type { UserStatus } from '../../api/profile';
import { FormError, FormSuccess } from '../../components/forms/FormError';
import { Pager } from '../../components/forms/Pager';
import { SearchBox } from '../../components/forms/SearchBox';
import { Loading } from '../../components/Loading';
import { useRowAction } from './useRowAction';

const STATUSES: UserStatus[] = ['approved', 'pending', 'suspended'];

/**
 * Approved accounts: a master grants or removes the staff roles and changes status. The server
 * refuses what would lock the site out (own master role, self-suspension, last master); its
 * message is shown and the controls, which mirror the stored data, stay as they were.
 */
export default function ApprovedUsers() {
  const { t, i18n } = useTranslation(['master', 'profile']);
  const { data, loading, error } = useSnapshot(approvedUsersStore.state);
  const query = useSnapshot(usersQuery).approved;
  const me = useSnapshot(sessionStore).session.id;
  const row = useRowAction();

  useEffect(() => {
    void loadApprovedUsers({ page: 1, query: '' });
  }, []);

  const users = data?.approvedUsers ?? [];
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
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id} aria-busy={row.busyId === u.id || undefined}>
                  <th scope="row" style={{ fontWeight: 400, overflowWrap: 'anywhere' }}>
                    {u.email}
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
                            checked={u.roles.includes(role)}
                            disabled={row.busyId !== null}
                            onChange={(e) =>
                              row.run(u.id, () => setUserRoles(u.id, rolesWith(u.roles, role, e.target.checked)), t('approved.rolesSaved', { email: u.email }))
                            }
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
                      value={u.status}
                      disabled={row.busyId !== null}
                      onChange={(e) =>
                        row.run(u.id, () => setApprovedUserStatus(u.id, e.target.value as UserStatus), t('approved.statusSaved', { email: u.email }))
                      }
                    >
                      {STATUSES.map((s) => (
                        <option key={s} value={s}>
                          {t(`profile:status.${s}`)}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
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
    </section>
  );
}
