import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { auditLogStore, auditQuery, compactJson, loadAuditLog } from '../../state/audit';
import { FormError } from '../../components/forms/FormError';
import { Pager } from '../../components/forms/Pager';
import { Loading } from '../../components/Loading';
import { SearchLink, UserLink } from '../../components/moderation/ModBadges';

/** Each row's moment in UTC, its zone named: the day filters are UTC days, and a row the filter returns reads on that day wherever staff are. */
const UTC_MOMENT: Intl.DateTimeFormatOptions = { timeZone: 'UTC', timeZoneName: 'short' };

/** The kinds of object the server's audit rows are about (their target_type), in the order the filter offers them. */
const TARGET_TYPES = [
  'user',
  'ad',
  'invoice',
  'promo_code',
  'pricing',
  'state',
  'city',
  'report',
  'public_message',
  'sms_message',
  'textbelt_token',
  'cron_job',
  'cron_run',
  'health_check',
] as const;

/** An e-mail breaks where it must, but its column never narrows to a letter (overflowWrap 'anywhere' let it, beside the nowrap time). */
const actorCell = { overflowWrap: 'break-word' as const, minWidth: '14ch' };
const jsonCell = { fontFamily: 'ui-monospace, Menlo, Consolas, monospace', fontSize: 12, maxWidth: 320, overflowWrap: 'anywhere' as const };

/**
 * Every staff action, newest first, filterable by action, target type, who acted (a user id: the
 * user screen's "actions by this user" opens it with ?actorId=) and UTC days, both included; every
 * user named links to their user screen, every ad to the search.
 */
export default function AuditLog() {
  const { t, i18n } = useTranslation('master');
  const { data, loading, error } = useSnapshot(auditLogStore.state);
  const query = useSnapshot(auditQuery);
  const actorFromUrl = new URLSearchParams(useSearch()).get('actorId') ?? '';
  const [action, setAction] = useState(query.action);
  const [targetType, setTargetType] = useState(query.targetType);
  const [actorId, setActorId] = useState(actorFromUrl || (query.actorId ?? ''));
  const [fromDay, setFromDay] = useState(query.fromDay ?? '');
  const [throughDay, setThroughDay] = useState(query.throughDay ?? '');

  // A link naming another actor (from another user screen) fills the field anew.
  const [urlActor, setUrlActor] = useState(actorFromUrl);
  if (urlActor !== actorFromUrl) {
    setUrlActor(actorFromUrl);
    if (actorFromUrl) setActorId(actorFromUrl);
  }

  useEffect(() => {
    void loadAuditLog(actorFromUrl ? { actorId: actorFromUrl, page: 1 } : { page: 1 });
  }, [actorFromUrl]);

  const filter = (e: FormEvent) => {
    e.preventDefault();
    void loadAuditLog({ action, targetType, actorId, fromDay, throughDay, page: 1 });
  };
  const clear = () => {
    setAction('');
    setTargetType('');
    setActorId('');
    setFromDay('');
    setThroughDay('');
    void loadAuditLog({ action: '', targetType: '', actorId: '', fromDay: '', throughDay: '', page: 1 });
  };

  const entries = data?.auditLog ?? [];
  // A kind this page does not know (a newer server's) keeps its code, in the list and on its rows.
  const kindName = (code: string) => t(`audit.targetTypes.${code}`, { defaultValue: code });
  const kinds: readonly string[] = targetType && !(TARGET_TYPES as readonly string[]).includes(targetType) ? [...TARGET_TYPES, targetType] : TARGET_TYPES;
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{t('audit.title')}</h1>
      <form
        role="search"
        aria-label={t('audit.filters')}
        onSubmit={filter}
        style={{ display: 'flex', gap: 10, alignItems: 'flex-end', flexWrap: 'wrap', marginBottom: 12 }}
      >
        <div className="field" style={{ margin: 0 }}>
          <label htmlFor="audit-action">{t('audit.action')}</label>
          <input id="audit-action" value={action} placeholder="user.roles" onChange={(e) => setAction(e.target.value)} />
        </div>
        <div className="field" style={{ margin: 0 }}>
          <label htmlFor="audit-target">{t('audit.targetType')}</label>
          <select id="audit-target" value={targetType} onChange={(e) => setTargetType(e.target.value)}>
            <option value="">{t('audit.anyTargetType')}</option>
            {kinds.map((k) => (
              <option key={k} value={k}>
                {kindName(k)}
              </option>
            ))}
          </select>
        </div>
        <div className="field" style={{ margin: 0 }}>
          <label htmlFor="audit-actor">{t('audit.actorId')}</label>
          <input id="audit-actor" value={actorId} spellCheck={false} autoComplete="off" onChange={(e) => setActorId(e.target.value)} />
        </div>
        <div className="field" style={{ margin: 0 }}>
          <label htmlFor="audit-from">{t('audit.fromDay')}</label>
          <input id="audit-from" type="date" value={fromDay} onChange={(e) => setFromDay(e.target.value)} />
        </div>
        <div className="field" style={{ margin: 0 }}>
          <label htmlFor="audit-through">{t('audit.throughDay')}</label>
          <input id="audit-through" type="date" value={throughDay} onChange={(e) => setThroughDay(e.target.value)} />
        </div>
        <button type="submit" className="btn btn-primary">
          {t('audit.apply')}
        </button>
        <button type="button" className="btn btn-white" onClick={clear}>
          {t('audit.clear')}
        </button>
      </form>
      <FormError message={error} />
      {loading && !data && <Loading />}
      {data && entries.length === 0 && <p>{t('audit.empty')}</p>}
      {entries.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="data" aria-busy={loading || undefined}>
            <caption className="visually-hidden">{t('audit.caption', { total: data?.total ?? 0 })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('audit.at')}</th>
                <th scope="col">{t('audit.actor')}</th>
                <th scope="col">{t('audit.action')}</th>
                <th scope="col">{t('audit.target')}</th>
                <th scope="col">{t('audit.before')}</th>
                <th scope="col">{t('audit.after')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td style={{ whiteSpace: 'nowrap' }}>
                    <time dateTime={e.at}>{new Date(e.at).toLocaleString(i18n.language, UTC_MOMENT)}</time>
                  </td>
                  <td style={actorCell}>{e.actorId ? <UserLink id={e.actorId} label={e.actorEmail ?? e.actorId} /> : (e.actorEmail ?? t('audit.system'))}</td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td>
                    {kindName(e.targetType)}
                    {e.targetId && (
                      <small style={{ display: 'block', color: 'var(--gray)' }}>
                        {e.targetType === 'user' ? (
                          <UserLink id={e.targetId} label={e.targetId} />
                        ) : e.targetType === 'ad' ? (
                          <SearchLink query={e.targetId}>{e.targetId}</SearchLink>
                        ) : (
                          e.targetId
                        )}
                      </small>
                    )}
                  </td>
                  <td style={jsonCell}>
                    <code>{compactJson(e.before)}</code>
                  </td>
                  <td style={jsonCell}>
                    <code>{compactJson(e.after)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label={t('audit.pages')}
        page={query.page}
        pageSize={query.pageSize}
        total={data?.total ?? 0}
        disabled={loading}
        onPage={(page) => void loadAuditLog({ page })}
      />
    </section>
  );
}
